import { genesisHash } from '../../hooks/ledger/ledger-event.js';
import type { SqlExecutor } from './sql-database.js';
import type { AppendOutcome, StoredEvent } from './class-store.js';
import { appendToClassLog } from './class-log.js';

export interface PendingAppend {
	ledgerId: string;
	learnerId: string;
	events: readonly StoredEvent[];
	receivedAt: string;
	/** The scenario the learner's IDE names at the ledger's first append (kept from then on). */
	scenario?: string | null;
}

interface Head {
	learnerId: string;
	seq: number;
	hash: string;
	/** The head as stored when the batch locked it: the head update is conditional on it. */
	storedSeq: number;
	storedHash: string;
	/** The hash of the ledger's seq 1 once it has one: the history this ledger is bound to. */
	genesis: string | null;
	scenario: string | null;
	/** This batch binds the ledger (its first append): genesis and scenario are written with the head. */
	binds: boolean;
	/** The server issued this ledger before its first event: its seq 1 must carry that certificate. */
	issued: boolean;
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
		genesis_hash: string | null;
		scenario: string | null;
		issued_at: Date | string | null;
	}>(
		`INSERT INTO ledgers (id, learner_id, head_seq, head_hash)
		SELECT id, learner_id, 0, $3 FROM unnest($1::text[], $2::text[]) AS t(id, learner_id)
		ORDER BY id
		ON CONFLICT (id) DO UPDATE SET id = ledgers.id
		RETURNING id, learner_id, head_seq, head_hash, genesis_hash, scenario, issued_at`,
		[ids, ids.map((id) => owners.get(id)), genesisHash]
	);
	const heads = new Map<string, Head>();
	for (const row of rows) {
		heads.set(row.id, {
			learnerId: row.learner_id,
			seq: Number(row.head_seq),
			hash: row.head_hash,
			storedSeq: Number(row.head_seq),
			storedHash: row.head_hash,
			genesis: row.genesis_hash,
			scenario: row.scenario,
			binds: false,
			issued: row.issued_at !== null,
			added: new Map(),
			mutations: 0,
			blocked: 0,
			receivedAt: '',
			moved: false
		});
	}

	const holders = await historyHolders(transaction, appends, heads);
	const inserts: { ledgerId: string; event: StoredEvent; receivedAt: string }[] = [];
	const outcomes: AppendOutcome[] = [];
	/** Per outcome, the insert of its head event when it stored events (its leaf in the log). */
	const headInserts: (number | null)[] = [];
	for (const append of appends) {
		const head = heads.get(append.ledgerId);
		if (!head) throw new Error(`ledger ${append.ledgerId} vanished inside its transaction`);
		const held = await checkHistoryHeld(transaction, append, head, holders);
		const outcome = held ?? (await checkAppend(transaction, append, head, inserts));
		outcomes.push(outcome);
		headInserts.push(outcome.ok && outcome.stored > 0 ? inserts.length - 1 : null);
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
	// Every stored event becomes a leaf of the class log, in the order stored; each receipt learns
	// its head event's leaf, the tree right after it and its inclusion proof.
	const positions = await appendToClassLog(
		transaction,
		inserts.map((row) => ({ ledgerId: row.ledgerId, seq: row.event.seq, hash: row.event.hash })),
		new Set(headInserts.filter((insert): insert is number => insert !== null))
	);
	outcomes.forEach((outcome, index) => {
		const insert = headInserts[index];
		if (outcome.ok && 'stored' in outcome && insert !== null && insert !== undefined)
			outcome.log = positions.get(insert);
	});
	const moved = [...heads].filter(([, head]) => head.moved);
	if (moved.length > 0) {
		// A ledger's genesis and scenario are written once, by its first append (COALESCE keeps
		// them); the unique index on genesis_hash refuses a second ledger of the same history even
		// when another instance's batch claims it at the same moment (the batch fails, its appends
		// are retried alone and then see the holder). The update is conditional: a head moves only
		// from the head this batch read and locked (seq and hash), so the batch never relies on an
		// isolation level; a head anyone moved meanwhile fails the batch, whose appends are then
		// retried alone (class-store.ts) against the head as it is.
		const updated = await transaction.query(
			`UPDATE ledgers AS l SET head_seq = v.seq, head_hash = v.hash,
				mutations = l.mutations + v.mutations, blocked = l.blocked + v.blocked, updated_at = v.at,
				genesis_hash = COALESCE(l.genesis_hash, v.genesis), scenario = COALESCE(l.scenario, v.scenario)
			FROM unnest($1::text[], $2::integer[], $3::text[], $4::integer[], $5::integer[], $6::timestamptz[],
				$7::text[], $8::text[], $9::integer[], $10::text[])
				AS v(id, seq, hash, mutations, blocked, at, genesis, scenario, old_seq, old_hash)
			WHERE l.id = v.id AND l.head_seq = v.old_seq AND l.head_hash = v.old_hash
			RETURNING l.id`,
			[
				moved.map(([id]) => id),
				moved.map(([, head]) => head.seq),
				moved.map(([, head]) => head.hash),
				moved.map(([, head]) => head.mutations),
				moved.map(([, head]) => head.blocked),
				moved.map(([, head]) => head.receivedAt),
				moved.map(([, head]) => (head.binds ? head.genesis : null)),
				moved.map(([, head]) => (head.binds ? head.scenario : null)),
				moved.map(([, head]) => head.storedSeq),
				moved.map(([, head]) => head.storedHash)
			]
		);
		if (updated.length !== moved.length) {
			throw new StaleHeadError(
				`${moved.length - updated.length} of ${moved.length} ledger heads moved under this batch`
			);
		}
	}
	return outcomes;
}

/** A head this batch read was moved by someone else before the batch wrote its own. */
export class StaleHeadError extends Error {
	override name = 'StaleHeadError';
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
	if (!first || !last)
		return {
			ok: true,
			seq: head.seq,
			headHash: head.hash,
			stored: 0,
			genesis: head.genesis,
			scenario: head.scenario
		};

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

	const birth = birthProblem(append, head);
	if (birth) return refuse(birth);
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
		if (head.seq === 0 && head.genesis === null && first.seq === 1) {
			head.genesis = first.hash;
			head.scenario = append.scenario ?? null;
			head.binds = true;
		}
		head.seq = last.seq;
		head.hash = last.hash;
		head.receivedAt = receivedAt;
		head.moved = true;
	}
	return {
		ok: true,
		seq: last.seq,
		headHash: last.hash,
		stored: fresh.length,
		genesis: head.genesis,
		scenario: head.scenario
	};
}

/**
 * A ledger's first event and its birth certificate must agree: a ledger the server issued
 * starts with its own certificate, and a history born as another ledger is not moved into this
 * one. (The certificate's signature is checked by the service before the store.)
 */
function birthProblem(append: PendingAppend, head: Head): string | null {
	const first = append.events[0];
	if (!first || first.seq !== 1 || head.seq !== 0) return null;
	if (first.birthLedger !== undefined && first.birthLedger !== append.ledgerId) {
		return `this history was born as ledger ${first.birthLedger} (its first event's certificate); it is not moved into ${append.ledgerId}`;
	}
	if (head.issued && first.birthLedger === undefined) {
		return `ledger ${append.ledgerId} was issued with a birth certificate, and its first event does not carry it`;
	}
	return null;
}

interface HistoryHolder {
	ledgerId: string;
	learnerId: string;
}

/**
 * The ledgers already bound to the first event of a history this batch would start: one query,
 * and only when the batch holds a ledger's first append (rare beside ordinary appends).
 */
async function historyHolders(
	transaction: SqlExecutor,
	appends: readonly PendingAppend[],
	heads: ReadonlyMap<string, Head>
): Promise<Map<string, HistoryHolder>> {
	const starts = new Set<string>();
	for (const append of appends) {
		const head = heads.get(append.ledgerId);
		const first = append.events[0];
		if (head && head.seq === 0 && head.genesis === null && first?.seq === 1) starts.add(first.hash);
	}
	const holders = new Map<string, HistoryHolder>();
	if (starts.size === 0) return holders;
	const rows = await transaction.query<{ id: string; learner_id: string; genesis_hash: string }>(
		'SELECT id, learner_id, genesis_hash FROM ledgers WHERE genesis_hash = ANY($1::text[])',
		[[...starts]]
	);
	for (const row of rows)
		holders.set(row.genesis_hash, { ledgerId: row.id, learnerId: row.learner_id });
	return holders;
}

/**
 * A ledger's first append whose history (its seq 1) another ledger already holds: the same
 * learner sending it again under a new id (its browser lost the id: answered with the id to
 * continue), or a history moved into a fresh ledger — laundered after a rewrite, or another
 * learner's — which is refused and recorded in `ledger_copies` for the instructor. Null when the
 * append does not start a history someone holds.
 */
async function checkHistoryHeld(
	transaction: SqlExecutor,
	append: PendingAppend,
	head: Head,
	holders: ReadonlyMap<string, HistoryHolder>
): Promise<AppendOutcome | null> {
	const first = append.events[0];
	if (head.learnerId !== append.learnerId || head.seq !== 0 || first?.seq !== 1) return null;
	const holder = holders.get(first.hash);
	if (!holder || holder.ledgerId === append.ledgerId) return null;
	const stored = await transaction.query<{ seq: number; hash: string }>(
		'SELECT seq, hash FROM ledger_events WHERE ledger_id = $1 AND seq <= $2 ORDER BY seq',
		[holder.ledgerId, append.events.at(-1)?.seq ?? 1]
	);
	const storedHashes = new Map(stored.map((row) => [Number(row.seq), row.hash]));
	const differs = append.events.find(
		(event) => storedHashes.has(event.seq) && storedHashes.get(event.seq) !== event.hash
	);
	const sameLearner = holder.learnerId === append.learnerId;
	if (sameLearner && !differs) {
		return { ok: false, reason: 'held', ledger: holder.ledgerId };
	}
	const kind = differs ? 'rewrite' : 'copy';
	const fromSeq = differs ? differs.seq : Math.min(append.events.at(-1)?.seq ?? 1, stored.length);
	await transaction.query(
		`INSERT INTO ledger_copies (ledger_id, learner_id, original_ledger_id, original_learner_id,
			kind, from_seq, received_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		[
			append.ledgerId,
			append.learnerId,
			holder.ledgerId,
			holder.learnerId,
			kind,
			fromSeq,
			append.receivedAt
		]
	);
	return {
		ok: false,
		reason: 'copy',
		kind,
		fromSeq,
		sameLearner,
		originalLedger: holder.ledgerId
	};
}
