import { appendBatchInTransaction, type PendingAppend } from './append-batch.js';
import type { AppendOutcome } from './class-store.js';
import type { SqlExecutor } from './sql-database.js';

/** How much the class server stores for one learner, and for the whole class. */
export interface StorageQuotas {
	/** UTF-8 bytes of stored event lines (plus `refusalRecordBytes` per recorded refusal). */
	learnerMaxBytes: number;
	/** Ledgers one learner may start. */
	learnerMaxLedgers: number;
	/** Bytes of every learner together (the sum of their usage). */
	classMaxBytes: number;
}

export const unlimitedQuotas: StorageQuotas = {
	learnerMaxBytes: Number.POSITIVE_INFINITY,
	learnerMaxLedgers: Number.POSITIVE_INFINITY,
	classMaxBytes: Number.POSITIVE_INFINITY
};

/** Which quota an append would pass. */
export type QuotaKind = 'learner_bytes' | 'learner_ledgers' | 'class_bytes';

/** An append refused before anything of it was stored: storing it would pass a quota. */
export interface QuotaRefusal {
	ok: false;
	reason: 'quota';
	quota: QuotaKind;
	/** The quota, what is used of it, and what this append would have added. */
	limit: number;
	used: number;
	needed: number;
}

/**
 * What a refused append costs when it is recorded (a row in `ledger_forks`, or the copies the
 * identity check records): charged like stored bytes, so a learner cannot fill the disk with
 * refusals either. Migration 4 uses the same number for the learners it fills in.
 */
export const refusalRecordBytes = 256;

/** Refusals the store records a row for: a fork (`ledger_forks`), a copied history (`ledger_copies`). */
const recordedRefusals: ReadonlySet<string> = new Set(['fork', 'copy']);

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

interface Usage {
	bytes: number;
	ledgers: number;
}

/**
 * The group commit within quotas: locks the usage row of each learner of the batch (in learner
 * order, before any ledger lock: no deadlock between instances), refuses each append that could
 * pass a quota, runs the others through `appendBatch`, then charges each learner what was really
 * stored. One learner's lock never makes another wait; the class's total is read (not locked),
 * so instances appending at the same moment can pass the class quota by at most their batches.
 *
 * An append is admitted against an upper bound of what it can store: its events past the head
 * stored before this batch (a fork stores none of them, a retry fewer), plus one refusal record,
 * plus its ledger when the ledger is new. What is charged afterwards is exact, so a learner's
 * usage never passes a learner quota.
 */
export async function appendBatchWithinQuotas(
	transaction: SqlExecutor,
	appends: readonly PendingAppend[],
	quotas: StorageQuotas,
	appendBatch: typeof appendBatchInTransaction = appendBatchInTransaction
): Promise<(AppendOutcome | QuotaRefusal)[]> {
	const learners = [...new Set(appends.map((append) => append.learnerId))].sort();
	const { usage, stored, classBytes } = await admissionState(transaction, learners, [
		...new Set(appends.map((append) => append.ledgerId))
	]);

	const planned = new Map<string, Usage>(learners.map((id) => [id, { bytes: 0, ledgers: 0 }]));
	const plannedNew = new Map<string, string>();
	let plannedClassBytes = 0;
	const outcomes: (AppendOutcome | QuotaRefusal | null)[] = [];
	const admitted: PendingAppend[] = [];
	for (const append of appends) {
		const ledger = stored.get(append.ledgerId);
		const owner = ledger?.owner ?? plannedNew.get(append.ledgerId);
		if (owner !== undefined && owner !== append.learnerId) {
			// Another learner's ledger: refused as foreign, nothing stored.
			outcomes.push(null);
			admitted.push(append);
			continue;
		}
		const used = usage.get(append.learnerId) ?? { bytes: 0, ledgers: 0 };
		const plan = planned.get(append.learnerId) ?? { bytes: 0, ledgers: 0 };
		const isNew = owner === undefined;
		const headSeq = ledger?.headSeq ?? 0;
		let needed = refusalRecordBytes;
		for (const event of append.events) if (event.seq > headSeq) needed += utf8Bytes(event.line);
		const refusal = (quota: QuotaKind, limit: number, usedNow: number): QuotaRefusal => ({
			ok: false,
			reason: 'quota',
			quota,
			limit,
			used: usedNow,
			needed: quota === 'learner_ledgers' ? 1 : needed
		});
		if (isNew && used.ledgers + plan.ledgers + 1 > quotas.learnerMaxLedgers) {
			outcomes.push(
				refusal('learner_ledgers', quotas.learnerMaxLedgers, used.ledgers + plan.ledgers)
			);
		} else if (used.bytes + plan.bytes + needed > quotas.learnerMaxBytes) {
			outcomes.push(refusal('learner_bytes', quotas.learnerMaxBytes, used.bytes + plan.bytes));
		} else if (classBytes + plannedClassBytes + needed > quotas.classMaxBytes) {
			outcomes.push(refusal('class_bytes', quotas.classMaxBytes, classBytes + plannedClassBytes));
		} else {
			plan.bytes += needed;
			plannedClassBytes += needed;
			if (isNew) {
				plan.ledgers++;
				plannedNew.set(append.ledgerId, append.learnerId);
			}
			outcomes.push(null);
			admitted.push(append);
		}
	}

	const results = admitted.length > 0 ? await appendBatch(transaction, admitted) : [];
	const charges = new Map<string, Usage>();
	const charge = (learnerId: string, bytes: number) => {
		const entry = charges.get(learnerId) ?? { bytes: 0, ledgers: 0 };
		entry.bytes += bytes;
		charges.set(learnerId, entry);
	};
	admitted.forEach((append, index) => {
		const outcome = results[index];
		if (!outcome) return;
		if (outcome.ok) {
			// The stored events are the last `stored` of the append (those past the head).
			for (const event of append.events.slice(append.events.length - outcome.stored))
				charge(append.learnerId, utf8Bytes(event.line));
		} else if (recordedRefusals.has(outcome.reason)) {
			charge(append.learnerId, refusalRecordBytes);
		}
	});
	if (plannedNew.size > 0) {
		// The new ledgers this transaction really created (a race can give an id to another learner).
		const created = await transaction.query<{ id: string; learner_id: string }>(
			'SELECT id, learner_id FROM ledgers WHERE id = ANY($1::text[])',
			[[...plannedNew.keys()]]
		);
		for (const row of created) {
			if (plannedNew.get(row.id) !== row.learner_id) continue;
			charge(row.learner_id, 0);
			(charges.get(row.learner_id) as Usage).ledgers++;
		}
	}
	const moved = [...charges].filter(([, entry]) => entry.bytes > 0 || entry.ledgers > 0);
	if (moved.length > 0) {
		await transaction.query(
			`UPDATE learner_usage AS u SET bytes = u.bytes + v.bytes, ledgers = u.ledgers + v.ledgers
			FROM unnest($1::text[], $2::bigint[], $3::integer[]) AS v(learner_id, bytes, ledgers)
			WHERE u.learner_id = v.learner_id`,
			[
				moved.map(([learnerId]) => learnerId),
				moved.map(([, entry]) => entry.bytes),
				moved.map(([, entry]) => entry.ledgers)
			]
		);
	}

	let next = 0;
	return outcomes.map((outcome) => outcome ?? (results[next++] as AppendOutcome));
}

interface AdmissionState {
	usage: Map<string, Usage>;
	/** The batch's ledgers the store holds: owner and head. */
	stored: Map<string, { owner: string; headSeq: number }>;
	classBytes: number;
}

/**
 * Locks the usage rows of `learners` (sorted) and reads what admission needs, in one statement
 * on the common path (each statement costs about a round trip in the embedded database). The
 * ledgers and the class total are read at the statement's start; a row lock that waited gets the
 * row as the other transaction committed it. When any learner's row changed while this waited
 * (a transaction of the same learner on another instance), or had no row yet, the ledgers are
 * read again now that the locks are held: what that transaction stored is then seen.
 */
async function admissionState(
	transaction: SqlExecutor,
	learners: readonly string[],
	ledgerIds: readonly string[]
): Promise<AdmissionState> {
	const rows = await transaction.query<{
		kind: 'learner' | 'ledger' | 'class';
		id: string | null;
		owner: string | null;
		amount: string | number;
		count: number | null;
		current: boolean | null;
	}>(
		`WITH locked AS MATERIALIZED (
			SELECT learner_id, bytes, ledgers FROM learner_usage WHERE learner_id = ANY($1::text[])
			ORDER BY learner_id FOR UPDATE
		)
		SELECT 'learner' AS kind, k.learner_id AS id, NULL::text AS owner, k.bytes AS amount,
			k.ledgers AS count, (k.bytes = s.bytes AND k.ledgers = s.ledgers) AS current
		FROM locked k JOIN learner_usage s ON s.learner_id = k.learner_id
		UNION ALL SELECT 'ledger', id, learner_id, head_seq::bigint, NULL, NULL
		FROM ledgers WHERE id = ANY($2::text[])
		UNION ALL SELECT 'class', NULL, NULL, coalesce(sum(bytes), 0)::bigint, NULL, NULL
		FROM learner_usage`,
		[learners, ledgerIds]
	);
	const state: AdmissionState = { usage: new Map(), stored: new Map(), classBytes: 0 };
	let current = true;
	for (const row of rows) {
		if (row.kind === 'learner') {
			state.usage.set(String(row.id), { bytes: Number(row.amount), ledgers: Number(row.count) });
			if (row.current !== true) current = false;
		} else if (row.kind === 'ledger') {
			state.stored.set(String(row.id), { owner: String(row.owner), headSeq: Number(row.amount) });
		} else state.classBytes = Number(row.amount);
	}
	const missing = learners.filter((id) => !state.usage.has(id));
	if (missing.length > 0) {
		for (const [id, usage] of await createUsage(transaction, missing)) state.usage.set(id, usage);
		current = false;
	}
	if (current) return state;
	const again = await transaction.query<{
		id: string | null;
		learner_id: string | null;
		head_seq: number | null;
		total: string | number | null;
	}>(
		`SELECT id, learner_id, head_seq, NULL::bigint AS total FROM ledgers WHERE id = ANY($1::text[])
		UNION ALL SELECT NULL, NULL, NULL, coalesce(sum(bytes), 0)::bigint FROM learner_usage`,
		[ledgerIds]
	);
	state.stored.clear();
	for (const row of again) {
		if (row.id === null) state.classBytes = Number(row.total ?? 0);
		else state.stored.set(row.id, { owner: String(row.learner_id), headSeq: Number(row.head_seq) });
	}
	return state;
}

/**
 * Usage rows for learners without one (new, or written by an older app version sharing the
 * database), computed from what the store holds, then locked.
 */
async function createUsage(
	transaction: SqlExecutor,
	learners: readonly string[]
): Promise<Map<string, Usage>> {
	await transaction.query(
		`INSERT INTO learner_usage (learner_id, bytes, ledgers)
		SELECT t.id,
			coalesce((SELECT sum(octet_length(e.body)) FROM ledgers l
				JOIN ledger_events e ON e.ledger_id = l.id WHERE l.learner_id = t.id), 0)
			+ $2::bigint * (SELECT count(*) FROM ledger_forks f WHERE f.learner_id = t.id),
			(SELECT count(*) FROM ledgers l WHERE l.learner_id = t.id)
		FROM unnest($1::text[]) AS t(id) ORDER BY t.id
		ON CONFLICT (learner_id) DO NOTHING`,
		[learners, refusalRecordBytes]
	);
	const rows = await transaction.query<{
		learner_id: string;
		bytes: string | number;
		ledgers: number;
	}>(
		`SELECT learner_id, bytes, ledgers FROM learner_usage WHERE learner_id = ANY($1::text[])
		ORDER BY learner_id FOR UPDATE`,
		[learners]
	);
	return new Map(
		rows.map((row) => [row.learner_id, { bytes: Number(row.bytes), ledgers: Number(row.ledgers) }])
	);
}

/** The usage the store holds for a learner (tests, the instructor's listing). */
export async function learnerUsage(database: SqlExecutor, learnerId: string): Promise<Usage> {
	const rows = await database.query<{ bytes: string | number; ledgers: number }>(
		'SELECT bytes, ledgers FROM learner_usage WHERE learner_id = $1',
		[learnerId]
	);
	return { bytes: Number(rows[0]?.bytes ?? 0), ledgers: Number(rows[0]?.ledgers ?? 0) };
}

/**
 * Reserves one more ledger for a learner (a ledger issued before its first append): locks the
 * learner's usage row, refuses past the ledger quota, counts it. In the caller's transaction.
 */
export async function reserveLedger(
	transaction: SqlExecutor,
	learnerId: string,
	quotas: StorageQuotas
): Promise<QuotaRefusal | null> {
	const { usage } = await admissionState(transaction, [learnerId], []);
	const used = usage.get(learnerId) ?? { bytes: 0, ledgers: 0 };
	if (used.ledgers + 1 > quotas.learnerMaxLedgers) {
		return {
			ok: false,
			reason: 'quota',
			quota: 'learner_ledgers',
			limit: quotas.learnerMaxLedgers,
			used: used.ledgers,
			needed: 1
		};
	}
	await transaction.query('UPDATE learner_usage SET ledgers = ledgers + 1 WHERE learner_id = $1', [
		learnerId
	]);
	return null;
}
