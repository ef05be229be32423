import { genesisHash } from '../../hooks/ledger/ledger-event.js';
import type { PendingAppend } from './append-batch.js';
import type { LogPosition } from './class-log.js';
import type { SqlDatabase } from './sql-database.js';
import {
	appendBatchWithinQuotas,
	reserveLedger,
	unlimitedQuotas,
	type QuotaRefusal,
	type StorageQuotas
} from './storage-quota.js';

export interface Learner {
	id: string;
	name: string;
}

/** One event as the store keeps it: its links and its canonical line (as in audit.jsonl). */
export interface StoredEvent {
	seq: number;
	prev_hash: string;
	hash: string;
	/** The canonical JSON line. */
	line: string;
	type: string;
	/** For tool decisions: deny/allow/ask. */
	decision?: string;
	/** Seq 1 only: the ledger its birth certificate names (`class_ledger.certificate.ledger`), if any. */
	birthLedger?: string;
}

export type AppendOutcome =
	/** Storing it would pass a storage quota: nothing of it was stored (storage-quota.ts). */
	| QuotaRefusal
	| {
			ok: true;
			seq: number;
			headHash: string;
			stored: number;
			/** The hash of the ledger's seq 1 (null for a ledger stored before ledgers were bound). */
			genesis: string | null;
			scenario: string | null;
			/** The head event's place in the class log, when this append stored events (class-log.ts). */
			log?: LogPosition;
	  }
	| { ok: false; reason: 'foreign' }
	/** The same learner's ledger `ledger` already holds this history: continue that one. */
	| { ok: false; reason: 'held'; ledger: string }
	/** A history another ledger holds, sent again under a fresh id: refused, recorded in ledger_copies. */
	| {
			ok: false;
			reason: 'copy';
			kind: 'copy' | 'rewrite';
			/** rewrite: the first seq that differs; copy: how far the offered events match. */
			fromSeq: number;
			sameLearner: boolean;
			originalLedger: string;
	  }
	| {
			ok: false;
			reason: 'fork';
			storedSeq: number;
			storedHash: string;
			message: string;
	  };

export interface LedgerSummary {
	ledger: string;
	learner: Learner;
	/** What the learner's IDE named at the ledger's first append; null before that (or older ledgers). */
	scenario: string | null;
	/** The hash of seq 1: the history this ledger is bound to. */
	genesis_hash: string | null;
	/** Histories sent into this ledger that another ledger already held (refused, see `copies`). */
	copies: number;
	/**
	 * A later ledger of the same learner for the same scenario exists: this one was left behind
	 * (a reset, another browser, or a history made again).
	 */
	abandoned: boolean;
	events: number;
	head_seq: number;
	head_hash: string;
	mutations: number;
	blocked: number;
	forks: number;
	model_tool_calls: number;
	created_at: string;
	updated_at: string;
}

export interface ForkRecord {
	stored_seq: number;
	stored_hash: string;
	offered_seq: number;
	offered_prev_hash: string;
	reason: string;
	received_at: string;
}

/** A history sent into a fresh ledger that another ledger already held (refused). */
export interface CopyRecord {
	/** The ledger it was sent into, and by whom. */
	ledger: string;
	learner: Learner;
	/** The ledger (and learner) that held it first. */
	original_ledger: string;
	original_learner: Learner;
	/** `rewrite`: it differs from the held history from `from_seq`; `copy`: the same events. */
	kind: 'copy' | 'rewrite';
	from_seq: number;
	received_at: string;
}

interface CopyRow {
	ledger_id: string;
	learner_id: string;
	learner_name: string;
	original_ledger_id: string;
	original_learner_id: string;
	original_learner_name: string;
	kind: string;
	from_seq: number;
	received_at: Date | string;
}

export interface ToolCallDigest {
	tool_call_id: string;
	tool_name: string;
	arguments_hash: string;
	model_id: string;
	recorded_at: string;
}

interface LedgerRow {
	id: string;
	learner_id: string;
	learner_name: string;
	head_seq: number;
	head_hash: string;
	mutations: number;
	blocked: number;
	forks: number | string;
	model_tool_calls: number | string;
	scenario: string | null;
	genesis_hash: string | null;
	copies: number | string;
	abandoned: boolean;
	created_at: Date | string;
	updated_at: Date | string;
}

const iso = (value: Date | string): string =>
	value instanceof Date ? value.toISOString() : new Date(value).toISOString();

const ledgerSelect = `
	SELECT l.id, l.learner_id, p.name AS learner_name, l.head_seq, l.head_hash, l.mutations,
		l.blocked, l.created_at, l.updated_at, l.scenario, l.genesis_hash,
		(SELECT count(*) FROM ledger_copies c WHERE c.ledger_id = l.id) AS copies,
		EXISTS (SELECT 1 FROM ledgers n WHERE n.learner_id = l.learner_id
			AND n.scenario IS NOT DISTINCT FROM l.scenario AND n.head_seq > 0
			AND (n.created_at, n.id) > (l.created_at, l.id)) AS abandoned,
		(SELECT count(*) FROM ledger_forks f WHERE f.ledger_id = l.id) AS forks,
		(SELECT count(*) FROM model_tool_calls t WHERE t.learner_id = l.learner_id) AS model_tool_calls
	FROM ledgers l JOIN learners p ON p.id = l.learner_id`;

function summary(row: LedgerRow): LedgerSummary {
	return {
		ledger: row.id,
		learner: { id: row.learner_id, name: row.learner_name },
		scenario: row.scenario,
		genesis_hash: row.genesis_hash,
		copies: Number(row.copies),
		abandoned: Boolean(row.abandoned),
		events: Number(row.head_seq),
		head_seq: Number(row.head_seq),
		head_hash: row.head_hash,
		mutations: Number(row.mutations),
		blocked: Number(row.blocked),
		forks: Number(row.forks),
		model_tool_calls: Number(row.model_tool_calls),
		created_at: iso(row.created_at),
		updated_at: iso(row.updated_at)
	};
}

/**
 * Everything the class server keeps, behind one interface over either backend: learners (token
 * hashes, never tokens), ledgers and their events, refused appends (forks) and the model's tool
 * call digests.
 */
export class ClassStore {
	constructor(
		readonly database: SqlDatabase,
		/** Checked and charged in each append's transaction (storage-quota.ts). */
		readonly quotas: StorageQuotas = unlimitedQuotas
	) {}

	get kind(): SqlDatabase['kind'] {
		return this.database.kind;
	}

	/** Stores `value` under `name` unless a value is there already; returns the stored value. */
	async settleSetting(name: string, value: string): Promise<string> {
		await this.database.query(
			'INSERT INTO class_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
			[name, value]
		);
		const rows = await this.database.query<{ value: string }>(
			'SELECT value FROM class_settings WHERE name = $1',
			[name]
		);
		return rows[0]?.value ?? value;
	}

	async createLearner(learner: Learner, tokenHash: string): Promise<void> {
		await this.database.query('INSERT INTO learners (id, token_hash, name) VALUES ($1, $2, $3)', [
			learner.id,
			tokenHash,
			learner.name
		]);
	}

	/**
	 * Gives a learner a new token (LTI launches: the store keeps only hashes, so a learner coming
	 * back from the LMS gets a fresh token and the previous one stops working).
	 */
	async replaceLearnerToken(learnerId: string, tokenHash: string): Promise<void> {
		await this.database.query('UPDATE learners SET token_hash = $2 WHERE id = $1', [
			learnerId,
			tokenHash
		]);
	}

	async learnerByTokenHash(tokenHash: string): Promise<Learner | null> {
		const rows = await this.database.query<Learner>(
			'SELECT id, name FROM learners WHERE token_hash = $1',
			[tokenHash]
		);
		return rows[0] ?? null;
	}

	/**
	 * Appends a consecutive, already hash-checked run of events to a ledger, in one transaction
	 * holding the ledger's row lock. The first learner to append a ledger id owns it. Events the
	 * store already holds unchanged are skipped (a retried batch); events that do not extend the
	 * stored head are refused and the refusal is recorded as a fork.
	 */
	/**
	 * Appends a run of events to a ledger (see server/CONTEXT.md, "Appends are serialised per
	 * ledger"). Appends that arrive together share one transaction (group commit): the embedded
	 * database is one wasm thread, and one commit per request — with its write-ahead-log write —
	 * saturated it at 400 appends/s. Each append keeps its own checks and row lock; if the shared
	 * transaction fails, each of its appends is retried alone, so one bad append cannot fail others.
	 */
	appendEvents(
		ledgerId: string,
		learnerId: string,
		events: readonly StoredEvent[],
		receivedAt: string,
		scenario: string | null = null
	): Promise<AppendOutcome> {
		return new Promise<AppendOutcome>((resolve, reject) => {
			this.#appendQueue.push({
				ledgerId,
				learnerId,
				events,
				receivedAt,
				scenario,
				resolve,
				reject
			});
			if (!this.#draining) void this.#drainAppends();
		});
	}

	readonly #appendQueue: QueuedAppend[] = [];
	#draining = false;

	async #drainAppends(): Promise<void> {
		this.#draining = true;
		try {
			while (this.#appendQueue.length > 0) {
				// One turn of the event loop first: requests already read by then join this batch
				// (the embedded database blocks the thread while it works, so they pile up meanwhile).
				await new Promise((resolve) => setImmediate(resolve));
				// Locks taken in ledger-id order (stable, so one ledger's appends keep their order): two
				// instances sharing PostgreSQL then cannot deadlock on each other's batches.
				const batch = this.#appendQueue
					.splice(0, maximumAppendsPerCommit)
					.sort((left, right) =>
						left.ledgerId < right.ledgerId ? -1 : left.ledgerId > right.ledgerId ? 1 : 0
					);
				try {
					const outcomes = await this.database.transaction((transaction) =>
						appendBatchWithinQuotas(transaction, batch, this.quotas)
					);
					batch.forEach((append, index) => append.resolve(outcomes[index] as AppendOutcome));
				} catch {
					// Each append alone, once: one bad append cannot fail the others, and a history
					// another instance bound at the same moment (the unique genesis index) is then
					// seen as held instead of failing the append.
					for (const append of batch) {
						await this.database
							.transaction((transaction) =>
								appendBatchWithinQuotas(transaction, [append], this.quotas)
							)
							.then((outcomes) => append.resolve(outcomes[0] as AppendOutcome), append.reject);
					}
				}
			}
		} finally {
			this.#draining = false;
		}
	}

	/**
	 * Rehearses the group commit on made-up ledgers, all rolled back (append-rehearsal.ts), where
	 * the database can (the embedded one); the number of batches rehearsed.
	 */
	async rehearseAppends(milliseconds: number): Promise<number> {
		if (!this.database.rehearseAppends || milliseconds <= 0) return 0;
		return this.database.rehearseAppends(milliseconds);
	}

	async listLedgers(): Promise<LedgerSummary[]> {
		const rows = await this.database.query<LedgerRow>(
			`${ledgerSelect} ORDER BY p.name, l.created_at, l.id`
		);
		return rows.map(summary);
	}

	async ledger(ledgerId: string): Promise<LedgerSummary | null> {
		const rows = await this.database.query<LedgerRow>(`${ledgerSelect} WHERE l.id = $1`, [
			ledgerId
		]);
		return rows[0] ? summary(rows[0]) : null;
	}

	/** The stored canonical lines of a ledger, in seq order. */
	async ledgerLines(ledgerId: string): Promise<string[]> {
		const rows = await this.database.query<{ body: string }>(
			'SELECT body FROM ledger_events WHERE ledger_id = $1 ORDER BY seq',
			[ledgerId]
		);
		return rows.map((row) => row.body);
	}

	/**
	 * Issues a new ledger to a learner before its first event (its birth certificate is signed
	 * by the service): the row exists from now on with its scenario and time, counted in the
	 * learner's ledger quota; its first append must carry the certificate (append-batch.ts).
	 */
	async issueLedger(
		ledgerId: string,
		learnerId: string,
		scenario: string | null,
		issuedAt: string
	): Promise<QuotaRefusal | null> {
		return this.database.transaction(async (transaction) => {
			const refused = await reserveLedger(transaction, learnerId, this.quotas);
			if (refused) return refused;
			await transaction.query(
				`INSERT INTO ledgers (id, learner_id, head_seq, head_hash, scenario, issued_at, created_at, updated_at)
				VALUES ($1, $2, 0, $3, $4, $5, $5, $5)`,
				[ledgerId, learnerId, genesisHash, scenario, issuedAt]
			);
			return null;
		});
	}

	/** Histories sent into `ledgerId` that another ledger held, and sent from this one elsewhere. */
	async copies(ledgerId: string): Promise<CopyRecord[]> {
		const rows = await this.database.query<CopyRow>(
			`SELECT c.ledger_id, c.learner_id, p.name AS learner_name, c.original_ledger_id,
				c.original_learner_id, o.name AS original_learner_name, c.kind, c.from_seq, c.received_at
			FROM ledger_copies c
			JOIN learners p ON p.id = c.learner_id
			JOIN learners o ON o.id = c.original_learner_id
			WHERE c.ledger_id = $1 OR c.original_ledger_id = $1 ORDER BY c.id`,
			[ledgerId]
		);
		return rows.map((row) => ({
			ledger: row.ledger_id,
			learner: { id: row.learner_id, name: row.learner_name },
			original_ledger: row.original_ledger_id,
			original_learner: { id: row.original_learner_id, name: row.original_learner_name },
			kind: row.kind === 'rewrite' ? 'rewrite' : 'copy',
			from_seq: Number(row.from_seq),
			received_at: iso(row.received_at)
		}));
	}

	/** Every ledger of a learner (abandoned ones included), oldest first. */
	async ledgersOfLearner(learnerId: string): Promise<LedgerSummary[]> {
		const rows = await this.database.query<LedgerRow>(
			`${ledgerSelect} WHERE l.learner_id = $1 ORDER BY l.created_at, l.id`,
			[learnerId]
		);
		return rows.map(summary);
	}

	async forks(ledgerId: string): Promise<ForkRecord[]> {
		const rows = await this.database.query<ForkRecord & { received_at: Date | string }>(
			`SELECT stored_seq, stored_hash, offered_seq, offered_prev_hash, reason, received_at
			FROM ledger_forks WHERE ledger_id = $1 ORDER BY id`,
			[ledgerId]
		);
		return rows.map((row) => ({ ...row, received_at: iso(row.received_at) }));
	}

	/** Records the model's tool calls (digests only); a call id seen before keeps its first digest. */
	async recordToolCalls(
		learnerId: string,
		modelId: string,
		calls: readonly { tool_call_id: string; tool_name: string; arguments_hash: string }[]
	): Promise<void> {
		for (const call of calls) {
			await this.database.query(
				`INSERT INTO model_tool_calls (learner_id, tool_call_id, tool_name, arguments_hash, model_id)
				VALUES ($1, $2, $3, $4, $5) ON CONFLICT (learner_id, tool_call_id) DO NOTHING`,
				[learnerId, call.tool_call_id, call.tool_name, call.arguments_hash, modelId]
			);
		}
	}

	async toolCallsOfLearner(learnerId: string): Promise<ToolCallDigest[]> {
		const rows = await this.database.query<ToolCallDigest & { recorded_at: Date | string }>(
			`SELECT tool_call_id, tool_name, arguments_hash, model_id, recorded_at
			FROM model_tool_calls WHERE learner_id = $1 ORDER BY recorded_at, tool_call_id`,
			[learnerId]
		);
		return rows.map((row) => ({ ...row, recorded_at: iso(row.recorded_at) }));
	}

	close(): Promise<void> {
		return this.database.close();
	}
}

/** How many queued appends share one transaction at most (bounds the time a batch holds locks). */
const maximumAppendsPerCommit = 64;

interface QueuedAppend extends PendingAppend {
	resolve: (outcome: AppendOutcome) => void;
	reject: (error: unknown) => void;
}
