import { genesisHash } from '../../hooks/ledger/ledger-event.js';
import type { SqlExecutor } from './sql-database.js';
import type { AppendOutcome, StoredEvent } from './class-store.js';

export interface PendingAppend {
	ledgerId: string;
	learnerId: string;
	events: readonly StoredEvent[];
	receivedAt: string;
}

interface Head {
	learnerId: string;
	seq: number;
	hash: string;
	/** Events this batch adds to the ledger, by seq (for a later append's overlap check). */
	added: Map<number, string>;
	mutations: number;
	blocked: number;
	receivedAt: string;
	moved: boolean;
}

/**
 * The appends of one transaction (group commit), in a constant number of statements whatever
 * their number: the embedded database is one wasm thread where each statement costs about as
 * much as a small query's round trip, and at 400 appends/s three statements per append kept it
 * saturated (receipts queued for seconds). So: one statement creates and locks every ledger of
 * the batch, each append is checked here against the heads it returned (in arrival order, so two
 * appends of one ledger in a batch see each other), then one statement inserts every new event
 * and one moves every head. Refusals (forks) and retried overlaps are rare and cost their own
 * statements.
 *
 * Locks: the one upsert takes the ledgers' row locks in id order, so two instances sharing
 * PostgreSQL cannot deadlock on each other's batches.
 */
export async function appendBatchInTransaction(
	transaction: SqlExecutor,
	appends: readonly PendingAppend[]
): Promise<AppendOutcome[]> {
	const owners = new Map<string, string>();
	for (const append of appends)
		if (!owners.has(append.ledgerId)) owners.set(append.ledgerId, append.learnerId);
	const ids = [...owners.keys()].sort();
	// Creates the new ledgers (the first learner to append an id owns it) and locks them all: ON
	// CONFLICT DO UPDATE takes the row lock SELECT … FOR UPDATE would.
	const rows = await transaction.query<{
		id: string;
		learner_id: string;
		head_seq: number;
		head_hash: string;
	}>(
		`INSERT INTO ledgers (id, learner_id, head_seq, head_hash)
		SELECT id, learner_id, 0, $3 FROM unnest($1::text[], $2::text[]) AS t(id, learner_id)
		ORDER BY id
		ON CONFLICT (id) DO UPDATE SET id = ledgers.id
		RETURNING id, learner_id, head_seq, head_hash`,
		[ids, ids.map((id) => owners.get(id)), genesisHash]
	);
	const heads = new Map<string, Head>();
	for (const row of rows) {
		heads.set(row.id, {
			learnerId: row.learner_id,
			seq: Number(row.head_seq),
			hash: row.head_hash,
			added: new Map(),
			mutations: 0,
			blocked: 0,
			receivedAt: '',
			moved: false
		});
	}

	const inserts: { ledgerId: string; event: StoredEvent; receivedAt: string }[] = [];
	const outcomes: AppendOutcome[] = [];
	for (const append of appends) {
		const head = heads.get(append.ledgerId);
		if (!head) throw new Error(`ledger ${append.ledgerId} vanished inside its transaction`);
		outcomes.push(await checkAppend(transaction, append, head, inserts));
	}

	if (inserts.length > 0) {
		await transaction.query(
			`INSERT INTO ledger_events (ledger_id, seq, hash, body, received_at)
			SELECT * FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], $5::timestamptz[])`,
			[
				inserts.map((row) => row.ledgerId),
				inserts.map((row) => row.event.seq),
				inserts.map((row) => row.event.hash),
				inserts.map((row) => row.event.line),
				inserts.map((row) => row.receivedAt)
			]
		);
	}
	const moved = [...heads].filter(([, head]) => head.moved);
	if (moved.length > 0) {
		await transaction.query(
			`UPDATE ledgers AS l SET head_seq = v.seq, head_hash = v.hash,
				mutations = l.mutations + v.mutations, blocked = l.blocked + v.blocked, updated_at = v.at
			FROM unnest($1::text[], $2::integer[], $3::text[], $4::integer[], $5::integer[], $6::timestamptz[])
				AS v(id, seq, hash, mutations, blocked, at)
			WHERE l.id = v.id`,
			[
				moved.map(([id]) => id),
				moved.map(([, head]) => head.seq),
				moved.map(([, head]) => head.hash),
				moved.map(([, head]) => head.mutations),
				moved.map(([, head]) => head.blocked),
				moved.map(([, head]) => head.receivedAt)
			]
		);
	}
	return outcomes;
}

/** One append's checks against the head as the batch has moved it so far. */
async function checkAppend(
	transaction: SqlExecutor,
	append: PendingAppend,
	head: Head,
	inserts: { ledgerId: string; event: StoredEvent; receivedAt: string }[]
): Promise<AppendOutcome> {
	const { ledgerId, learnerId, events, receivedAt } = append;
	if (head.learnerId !== learnerId) return { ok: false, reason: 'foreign' };
	const first = events[0];
	const last = events.at(-1);
	if (!first || !last) return { ok: true, seq: head.seq, headHash: head.hash, stored: 0 };

	const refuse = async (reason: string): Promise<AppendOutcome> => {
		await transaction.query(
			`INSERT INTO ledger_forks (ledger_id, learner_id, stored_seq, stored_hash, offered_seq,
				offered_prev_hash, reason, received_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			[ledgerId, learnerId, head.seq, head.hash, first.seq, first.prev_hash, reason, receivedAt]
		);
		return {
			ok: false,
			reason: 'fork',
			storedSeq: head.seq,
			storedHash: head.hash,
			message: reason
		};
	};

	if (first.seq > head.seq + 1) {
		return refuse(
			`the events start at seq ${first.seq}, but the server holds this ledger up to seq ${head.seq}`
		);
	}
	let fresh = events;
	if (first.seq <= head.seq) {
		// A retried batch: the part the server holds must be exactly what it holds.
		const overlapEnd = Math.min(last.seq, head.seq);
		const storedHashes = new Map<number, string>();
		const stored = await transaction.query<{ seq: number; hash: string }>(
			'SELECT seq, hash FROM ledger_events WHERE ledger_id = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq',
			[ledgerId, first.seq, overlapEnd]
		);
		for (const row of stored) storedHashes.set(Number(row.seq), row.hash);
		for (const [seq, hash] of head.added) storedHashes.set(seq, hash);
		for (const event of events) {
			if (event.seq > overlapEnd) break;
			if (storedHashes.get(event.seq) !== event.hash) {
				return refuse(
					`seq ${event.seq} differs from the event the server holds (a rewrite or a fork)`
				);
			}
		}
		fresh = events.filter((event) => event.seq > head.seq);
	} else if (first.prev_hash !== head.hash) {
		return refuse(
			`seq ${first.seq}'s prev_hash is not the hash of the server's seq ${head.seq} (a fork)`
		);
	}
	for (const event of fresh) {
		inserts.push({ ledgerId, event, receivedAt });
		head.added.set(event.seq, event.hash);
		if (event.type === 'mutation-record') head.mutations++;
		if (event.type === 'tool-decision' && event.decision === 'deny') head.blocked++;
	}
	if (fresh.length > 0) {
		head.seq = last.seq;
		head.hash = last.hash;
		head.receivedAt = receivedAt;
		head.moved = true;
	}
	return { ok: true, seq: last.seq, headHash: last.hash, stored: fresh.length };
}
