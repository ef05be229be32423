import { classLogLeafHash } from '../../hooks/witness/class-log-leaf.js';
import {
	consistencyProof,
	frontierAppend,
	frontierRoot,
	inclusionProof,
	newestLeafProof,
	treeRoot,
	type MerkleHash
} from '../../hooks/witness/merkle-log.js';
import { createHash } from 'node:crypto';
import type { SqlExecutor } from './sql-database.js';

/**
 * The class log (issue 33): every stored ledger event is a leaf of one append-only RFC 6962
 * Merkle tree for the class (`hooks/witness/merkle-log.ts`), in the order the group commit
 * stores them. `log_leaves` keeps each leaf's hash; `log_state` (one row) the tree's size and
 * frontier — the roots of its perfect subtrees — so an append learns its root and its newest
 * leaf's inclusion proof without reading older leaves.
 */
export interface LogLeaf {
	ledgerId: string;
	seq: number;
	hash: string;
}

/** Where a leaf landed: its index, the tree right after it, and its inclusion proof there. */
export interface LogPosition {
	index: number;
	size: number;
	root: string;
	inclusion: string[];
}

/** RFC 6962's node hash over node:crypto: proofs over the whole log hash up to N nodes. */
const fastNodeHash = (left: MerkleHash, right: MerkleHash): MerkleHash =>
	new Uint8Array(createHash('sha256').update(nodePrefix).update(left).update(right).digest());
const nodePrefix = Uint8Array.of(0x01);

const toBase64 = (hash: MerkleHash): string => Buffer.from(hash).toString('base64');
const fromBase64 = (text: string): MerkleHash => new Uint8Array(Buffer.from(text, 'base64'));

/**
 * Appends `leaves` in order, inside the batch's transaction, and answers each leaf's position.
 * One statement creates (if absent) and locks the log's state row — once per batch; it
 * serialises the batches of every instance sharing the database, after their ledger locks (taken
 * first, in id order), so the lock order stays acyclic — then one statement inserts the leaves
 * with `unnest` (the primary key on the index refuses two leaves at one index, whatever happens)
 * and moves the state only if it still holds the size this batch extended.
 */
export async function appendToClassLog(
	transaction: SqlExecutor,
	leaves: readonly LogLeaf[],
	/** The offsets (in `leaves`) whose position is wanted: the receipts' heads. */
	wanted: ReadonlySet<number>
): Promise<Map<number, LogPosition>> {
	const positions = new Map<number, LogPosition>();
	if (leaves.length === 0) return positions;
	const [state] = await transaction.query<{ size: string | number; frontier: string }>(
		`INSERT INTO log_state (id, size, frontier) VALUES (1, 0, '[]')
		ON CONFLICT (id) DO UPDATE SET id = 1
		RETURNING size, frontier`
	);
	if (!state) throw new Error('the class log state row could not be locked');
	const startSize = Number(state.size);
	let frontier: MerkleHash[] = (JSON.parse(state.frontier) as string[]).map(fromBase64);
	let size = startSize;
	const hashes: string[] = [];
	leaves.forEach((leaf, offset) => {
		const hash = classLogLeafHash(leaf.ledgerId, leaf.seq, leaf.hash);
		// The root (up to 64 node hashes) only for the receipts' heads; a step costs ~1 on average.
		const inclusion = wanted.has(offset) ? newestLeafProof(frontier).map(toBase64) : null;
		frontier = frontierAppend(frontier, size, hash, fastNodeHash);
		size++;
		hashes.push(toBase64(hash));
		if (inclusion)
			positions.set(offset, {
				index: size - 1,
				size,
				root: toBase64(frontierRoot(frontier, fastNodeHash)),
				inclusion
			});
	});
	// One statement (each costs about a round trip in the embedded database): the leaves, then the
	// state, moved only from the size this batch read.
	const updated = await transaction.query(
		`WITH inserted AS (
			INSERT INTO log_leaves (index, ledger_id, seq, leaf_hash)
			SELECT * FROM unnest($1::bigint[], $2::text[], $3::integer[], $4::text[])
			RETURNING 1
		)
		UPDATE log_state SET size = $5, frontier = $6
		WHERE id = 1 AND size = $7 AND (SELECT count(*) FROM inserted) = $8
		RETURNING id`,
		[
			leaves.map((_, offset) => startSize + offset),
			leaves.map((leaf) => leaf.ledgerId),
			leaves.map((leaf) => leaf.seq),
			hashes,
			size,
			JSON.stringify(frontier.map(toBase64)),
			startSize,
			leaves.length
		]
	);
	if (updated.length !== 1) throw new Error('the class log moved under this batch');
	return positions;
}

/** The log's size and root as stored (the latest checkpoint's content). */
export async function classLogHead(database: SqlExecutor): Promise<{ size: number; root: string }> {
	const [state] = await database.query<{ size: string | number; frontier: string }>(
		'SELECT size, frontier FROM log_state WHERE id = 1'
	);
	const frontier = state ? (JSON.parse(state.frontier) as string[]).map(fromBase64) : [];
	return { size: Number(state?.size ?? 0), root: toBase64(frontierRoot(frontier)) };
}

/**
 * The leaf hashes of [0, size): what an arbitrary proof is computed from. O(size) per request —
 * acceptable for a class (server/CONTEXT.md, "The class log"); tiles would replace it.
 */
async function leafHashes(database: SqlExecutor, size: number): Promise<MerkleHash[]> {
	const rows = await database.query<{ leaf_hash: string }>(
		'SELECT leaf_hash FROM log_leaves WHERE index < $1 ORDER BY index',
		[size]
	);
	if (rows.length !== size) throw new Error(`the class log holds ${rows.length} of ${size} leaves`);
	return rows.map((row) => fromBase64(row.leaf_hash));
}

export async function classLogInclusionProof(
	database: SqlExecutor,
	index: number,
	size: number
): Promise<string[]> {
	return inclusionProof(await leafHashes(database, size), index, size, fastNodeHash).map(toBase64);
}

export async function classLogConsistencyProof(
	database: SqlExecutor,
	from: number,
	to: number
): Promise<string[]> {
	return consistencyProof(await leafHashes(database, to), from, to, fastNodeHash).map(toBase64);
}

/** The root of the first `size` leaves as stored now (tests; a rewritten store shows here). */
export async function classLogRootAt(database: SqlExecutor, size: number): Promise<string> {
	return toBase64(treeRoot(await leafHashes(database, size), fastNodeHash));
}
