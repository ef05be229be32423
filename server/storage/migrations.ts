import type { SqlDatabase } from './sql-database.js';

/**
 * Versioned schema migrations, applied in order at start. Append new versions; never edit an
 * applied one. The same SQL runs on PGlite and PostgreSQL.
 */
export const migrations: readonly { version: number; name: string; sql: string }[] = [
	{
		version: 1,
		name: 'learners, ledgers, events, forks, tool calls',
		sql: `
			CREATE TABLE class_settings (
				name text PRIMARY KEY,
				value text NOT NULL
			);
			CREATE TABLE learners (
				id text PRIMARY KEY,
				token_hash text NOT NULL UNIQUE,
				name text NOT NULL,
				joined_at timestamptz NOT NULL DEFAULT now()
			);
			CREATE TABLE ledgers (
				id text PRIMARY KEY,
				learner_id text NOT NULL REFERENCES learners (id),
				head_seq integer NOT NULL,
				head_hash text NOT NULL,
				mutations integer NOT NULL DEFAULT 0,
				blocked integer NOT NULL DEFAULT 0,
				created_at timestamptz NOT NULL DEFAULT now(),
				updated_at timestamptz NOT NULL DEFAULT now()
			);
			CREATE INDEX ledgers_by_learner ON ledgers (learner_id);
			CREATE TABLE ledger_events (
				ledger_id text NOT NULL REFERENCES ledgers (id),
				seq integer NOT NULL,
				hash text NOT NULL,
				body text NOT NULL,
				received_at timestamptz NOT NULL,
				PRIMARY KEY (ledger_id, seq)
			);
			CREATE TABLE ledger_forks (
				id bigserial PRIMARY KEY,
				ledger_id text NOT NULL REFERENCES ledgers (id),
				learner_id text NOT NULL REFERENCES learners (id),
				stored_seq integer NOT NULL,
				stored_hash text NOT NULL,
				offered_seq integer NOT NULL,
				offered_prev_hash text NOT NULL,
				reason text NOT NULL,
				received_at timestamptz NOT NULL DEFAULT now()
			);
			CREATE INDEX ledger_forks_by_ledger ON ledger_forks (ledger_id);
			CREATE TABLE model_tool_calls (
				learner_id text NOT NULL REFERENCES learners (id),
				tool_call_id text NOT NULL,
				tool_name text NOT NULL,
				arguments_hash text NOT NULL,
				model_id text NOT NULL,
				recorded_at timestamptz NOT NULL DEFAULT now(),
				PRIMARY KEY (learner_id, tool_call_id)
			);
		`
	},
	{
		version: 2,
		name: 'events without a per-row foreign key check',
		// The foreign key on ledger_events ran a lookup of the ledger for every inserted event: in
		// the embedded database (one wasm thread) that was a third of an append's cost under load.
		// Events are only ever inserted by appendBatchInTransaction, after the statement that
		// creates and locks their ledger in the same transaction, and ledgers are never deleted.
		sql: `ALTER TABLE ledger_events DROP CONSTRAINT IF EXISTS ledger_events_ledger_id_fkey`
	},
	{
		version: 3,
		name: 'a ledger is bound to its first event, learner and scenario; copied histories recorded',
		// genesis_hash: the hash of the ledger's seq 1, set by its first append and never again.
		// Unique: one history (every later hash covers it) lives in one ledger of one learner, so a
		// history sent again under a fresh id (laundered, or another learner's) is caught by the
		// index even when two instances race. NULL for ledgers created before this migration.
		// issued_at: set when the server issued the ledger before its first event (a birth
		// certificate, POST /api/class/ledgers); its first append must then carry that certificate.
		sql: `
			ALTER TABLE ledgers ADD COLUMN genesis_hash text;
			ALTER TABLE ledgers ADD COLUMN scenario text;
			ALTER TABLE ledgers ADD COLUMN issued_at timestamptz;
			CREATE UNIQUE INDEX ledgers_by_genesis ON ledgers (genesis_hash);
			CREATE TABLE ledger_copies (
				id bigserial PRIMARY KEY,
				ledger_id text NOT NULL,
				learner_id text NOT NULL,
				original_ledger_id text NOT NULL,
				original_learner_id text NOT NULL,
				kind text NOT NULL,
				from_seq integer NOT NULL,
				received_at timestamptz NOT NULL DEFAULT now()
			);
			CREATE INDEX ledger_copies_by_ledger ON ledger_copies (ledger_id);
			CREATE INDEX ledger_copies_by_original ON ledger_copies (original_ledger_id)
		`
	},
	{
		version: 4,
		name: 'storage used per learner (quotas)',
		// One row per learner, locked and moved by the append's transaction (storage-quota.ts):
		// quotas are checked against it without summing the learner's events, and one learner's
		// lock never makes another learner wait. bytes = the UTF-8 bytes of the stored event lines,
		// plus 256 per refused append recorded in ledger_forks (storage-quota.ts,
		// refusalRecordBytes); filled here for the learners already stored.
		sql: `
			CREATE TABLE learner_usage (
				learner_id text PRIMARY KEY REFERENCES learners (id),
				bytes bigint NOT NULL DEFAULT 0,
				ledgers integer NOT NULL DEFAULT 0
			);
			INSERT INTO learner_usage (learner_id, bytes, ledgers)
			SELECT p.id,
				coalesce((SELECT sum(octet_length(e.body)) FROM ledgers l
					JOIN ledger_events e ON e.ledger_id = l.id WHERE l.learner_id = p.id), 0)
				+ 256 * (SELECT count(*) FROM ledger_forks f WHERE f.learner_id = p.id),
				(SELECT count(*) FROM ledgers l WHERE l.learner_id = p.id)
			FROM learners p
		`
	},
	{
		version: 5,
		name: 'LTI 1.3: logins, platform users, contexts, line items, deep links, queued scores',
		// lti_logins: one row per OIDC login initiation (state, nonce), deleted by the launch that
		// uses it, so a state or nonce works once. lti_users maps a platform user (issuer, client,
		// sub) to one learner. lti_scores is the queue of scores for the platform: a row is kept
		// (pending, failed or sent) so a post that fails is retried and never lost.
		sql: `
			CREATE TABLE lti_logins (
				state text PRIMARY KEY,
				nonce text NOT NULL,
				issuer text NOT NULL,
				client_id text NOT NULL,
				expires_at timestamptz NOT NULL
			);
			CREATE TABLE lti_users (
				issuer text NOT NULL,
				client_id text NOT NULL,
				subject text NOT NULL,
				learner_id text NOT NULL REFERENCES learners (id),
				PRIMARY KEY (issuer, client_id, subject)
			);
			CREATE UNIQUE INDEX lti_users_by_learner ON lti_users (learner_id);
			CREATE TABLE lti_contexts (
				issuer text NOT NULL,
				client_id text NOT NULL,
				context_id text NOT NULL,
				deployment_id text NOT NULL,
				title text NOT NULL DEFAULT '',
				memberships_url text,
				lineitems_url text,
				scopes text NOT NULL DEFAULT '',
				updated_at timestamptz NOT NULL DEFAULT now(),
				PRIMARY KEY (issuer, client_id, context_id)
			);
			CREATE TABLE lti_enrolments (
				issuer text NOT NULL,
				client_id text NOT NULL,
				context_id text NOT NULL,
				learner_id text NOT NULL REFERENCES learners (id),
				updated_at timestamptz NOT NULL DEFAULT now(),
				PRIMARY KEY (issuer, client_id, context_id, learner_id)
			);
			CREATE TABLE lti_line_items (
				issuer text NOT NULL,
				client_id text NOT NULL,
				context_id text NOT NULL,
				scenario text NOT NULL,
				lineitem_url text NOT NULL,
				PRIMARY KEY (issuer, client_id, context_id, scenario)
			);
			CREATE TABLE lti_deep_links (
				id text PRIMARY KEY,
				issuer text NOT NULL,
				client_id text NOT NULL,
				deployment_id text NOT NULL,
				return_url text NOT NULL,
				data text,
				expires_at timestamptz NOT NULL
			);
			CREATE TABLE lti_scores (
				id bigserial PRIMARY KEY,
				learner_id text NOT NULL REFERENCES learners (id),
				scenario text NOT NULL,
				issuer text NOT NULL,
				client_id text NOT NULL,
				context_id text NOT NULL,
				lineitem_url text NOT NULL,
				body text NOT NULL,
				status text NOT NULL,
				attempts integer NOT NULL DEFAULT 0,
				last_error text,
				next_attempt_at timestamptz NOT NULL DEFAULT now(),
				created_at timestamptz NOT NULL DEFAULT now(),
				sent_at timestamptz
			);
			CREATE INDEX lti_scores_due ON lti_scores (status, next_attempt_at);
			CREATE INDEX lti_scores_by_learner ON lti_scores (learner_id, scenario)
		`
	},
	{
		version: 6,
		name: 'the class log: one Merkle tree of every stored event (leaves and frontier)',
		// log_state's one row is created by the first append (storage/class-log.ts). Events
		// stored before this version are not leaves of the log (their receipts have no log part).
		sql: `
			CREATE TABLE log_leaves (
				index bigint PRIMARY KEY,
				ledger_id text NOT NULL,
				seq integer NOT NULL,
				leaf_hash text NOT NULL
			);
			CREATE TABLE log_state (
				id integer PRIMARY KEY CHECK (id = 1),
				size bigint NOT NULL,
				frontier text NOT NULL
			)
		`
	}
];

/** Any constant: instances starting together take turns to migrate. */
const migrationLockKey = 7_013_013;

/** Brings the schema to the newest version; safe when several instances start at once. */
export async function migrate(database: SqlDatabase): Promise<number> {
	return database.transaction(async (transaction) => {
		await transaction.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
		await transaction.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
			version integer PRIMARY KEY,
			name text NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now()
		)`);
		const applied = await transaction.query<{ version: number }>(
			'SELECT version FROM schema_migrations'
		);
		const done = new Set(applied.map((row) => Number(row.version)));
		const newest = Math.max(0, ...migrations.map((migration) => migration.version));
		const unknown = [...done].filter((version) => version > newest);
		if (unknown.length > 0) {
			throw new Error(
				`the class database has schema version ${Math.max(...unknown)}, newer than this app knows (${newest}): upgrade the app`
			);
		}
		for (const migration of migrations) {
			if (done.has(migration.version)) continue;
			for (const statement of migration.sql.split(';').map((text) => text.trim())) {
				if (statement) await transaction.query(statement);
			}
			await transaction.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
				migration.version,
				migration.name
			]);
		}
		return newest;
	});
}
