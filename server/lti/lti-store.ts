import type { SqlDatabase } from '../storage/sql-database.js';

/** A course (context) as the last launch described it, with its service endpoints. */
export interface LtiContext {
	issuer: string;
	clientId: string;
	contextId: string;
	deploymentId: string;
	title: string;
	membershipsUrl: string | null;
	lineitemsUrl: string | null;
	scopes: string[];
}

export type ScoreStatus = 'pending' | 'failed' | 'sent';

export interface QueuedScore {
	id: number;
	learnerId: string;
	scenario: string;
	issuer: string;
	clientId: string;
	contextId: string;
	lineitemUrl: string;
	body: string;
	status: ScoreStatus;
	attempts: number;
	lastError: string | null;
	createdAt: string;
	sentAt: string | null;
}

interface ScoreRow {
	id: string | number;
	learner_id: string;
	scenario: string;
	issuer: string;
	client_id: string;
	context_id: string;
	lineitem_url: string;
	body: string;
	status: ScoreStatus;
	attempts: number;
	last_error: string | null;
	created_at: Date | string;
	sent_at: Date | string | null;
}

const iso = (value: Date | string | null) =>
	value === null ? null : value instanceof Date ? value.toISOString() : String(value);

const scoreOf = (row: ScoreRow): QueuedScore => ({
	id: Number(row.id),
	learnerId: row.learner_id,
	scenario: row.scenario,
	issuer: row.issuer,
	clientId: row.client_id,
	contextId: row.context_id,
	lineitemUrl: row.lineitem_url,
	body: row.body,
	status: row.status,
	attempts: Number(row.attempts),
	lastError: row.last_error,
	createdAt: iso(row.created_at) ?? '',
	sentAt: iso(row.sent_at)
});

/** Every LTI query (migration 5's tables), on either backend. */
export class LtiStore {
	constructor(readonly database: SqlDatabase) {}

	async saveLogin(login: {
		state: string;
		nonce: string;
		issuer: string;
		clientId: string;
		expiresAt: Date;
	}): Promise<void> {
		await this.database.query(
			'INSERT INTO lti_logins (state, nonce, issuer, client_id, expires_at) VALUES ($1, $2, $3, $4, $5)',
			[login.state, login.nonce, login.issuer, login.clientId, login.expiresAt.toISOString()]
		);
	}

	/** Deletes and returns the login of `state` if it has not expired: a state works once. */
	async takeLogin(
		state: string,
		now: Date
	): Promise<{ nonce: string; issuer: string; clientId: string } | null> {
		const rows = await this.database.query<{
			nonce: string;
			issuer: string;
			client_id: string;
			expires_at: Date | string;
		}>('DELETE FROM lti_logins WHERE state = $1 RETURNING nonce, issuer, client_id, expires_at', [
			state
		]);
		const row = rows[0];
		if (!row || new Date(row.expires_at).getTime() <= now.getTime()) return null;
		return { nonce: row.nonce, issuer: row.issuer, clientId: row.client_id };
	}

	async forgetExpiredLogins(now: Date): Promise<void> {
		await this.database.query('DELETE FROM lti_logins WHERE expires_at <= $1', [now.toISOString()]);
		await this.database.query('DELETE FROM lti_deep_links WHERE expires_at <= $1', [
			now.toISOString()
		]);
	}

	async learnerOfUser(issuer: string, clientId: string, subject: string): Promise<string | null> {
		const rows = await this.database.query<{ learner_id: string }>(
			'SELECT learner_id FROM lti_users WHERE issuer = $1 AND client_id = $2 AND subject = $3',
			[issuer, clientId, subject]
		);
		return rows[0]?.learner_id ?? null;
	}

	async userOfLearner(
		learnerId: string
	): Promise<{ issuer: string; clientId: string; subject: string } | null> {
		const rows = await this.database.query<{ issuer: string; client_id: string; subject: string }>(
			'SELECT issuer, client_id, subject FROM lti_users WHERE learner_id = $1',
			[learnerId]
		);
		const row = rows[0];
		return row ? { issuer: row.issuer, clientId: row.client_id, subject: row.subject } : null;
	}

	/** Creates the learner row and its platform user together (one transaction). */
	async createPlatformLearner(
		user: { issuer: string; clientId: string; subject: string },
		learner: { id: string; name: string },
		tokenHash: string
	): Promise<string> {
		return this.database.transaction(async (transaction) => {
			await transaction.query('INSERT INTO learners (id, token_hash, name) VALUES ($1, $2, $3)', [
				learner.id,
				tokenHash,
				learner.name
			]);
			const rows = await transaction.query<{ learner_id: string }>(
				`INSERT INTO lti_users (issuer, client_id, subject, learner_id) VALUES ($1, $2, $3, $4)
				ON CONFLICT (issuer, client_id, subject) DO NOTHING RETURNING learner_id`,
				[user.issuer, user.clientId, user.subject, learner.id]
			);
			if (rows.length === 0) throw new Error('platform user created concurrently');
			return learner.id;
		});
	}

	async linkUser(
		user: { issuer: string; clientId: string; subject: string },
		learnerId: string
	): Promise<void> {
		await this.database.query(
			`INSERT INTO lti_users (issuer, client_id, subject, learner_id) VALUES ($1, $2, $3, $4)
			ON CONFLICT DO NOTHING`,
			[user.issuer, user.clientId, user.subject, learnerId]
		);
	}

	async saveContext(context: LtiContext): Promise<void> {
		await this.database.query(
			`INSERT INTO lti_contexts (issuer, client_id, context_id, deployment_id, title, memberships_url, lineitems_url, scopes, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
			ON CONFLICT (issuer, client_id, context_id) DO UPDATE SET deployment_id = $4, title = $5,
				memberships_url = coalesce($6, lti_contexts.memberships_url),
				lineitems_url = coalesce($7, lti_contexts.lineitems_url),
				scopes = CASE WHEN $8 = '' THEN lti_contexts.scopes ELSE $8 END, updated_at = now()`,
			[
				context.issuer,
				context.clientId,
				context.contextId,
				context.deploymentId,
				context.title,
				context.membershipsUrl,
				context.lineitemsUrl,
				context.scopes.join(' ')
			]
		);
	}

	async context(issuer: string, clientId: string, contextId: string): Promise<LtiContext | null> {
		const rows = await this.database.query<{
			deployment_id: string;
			title: string;
			memberships_url: string | null;
			lineitems_url: string | null;
			scopes: string;
		}>(
			'SELECT deployment_id, title, memberships_url, lineitems_url, scopes FROM lti_contexts WHERE issuer = $1 AND client_id = $2 AND context_id = $3',
			[issuer, clientId, contextId]
		);
		const row = rows[0];
		if (!row) return null;
		return {
			issuer,
			clientId,
			contextId,
			deploymentId: row.deployment_id,
			title: row.title,
			membershipsUrl: row.memberships_url,
			lineitemsUrl: row.lineitems_url,
			scopes: row.scopes.split(' ').filter(Boolean)
		};
	}

	async enrol(
		issuer: string,
		clientId: string,
		contextId: string,
		learnerId: string
	): Promise<void> {
		await this.database.query(
			`INSERT INTO lti_enrolments (issuer, client_id, context_id, learner_id) VALUES ($1, $2, $3, $4)
			ON CONFLICT (issuer, client_id, context_id, learner_id) DO UPDATE SET updated_at = now()`,
			[issuer, clientId, contextId, learnerId]
		);
	}

	/** The learner's courses, most recently launched or synced first. */
	async contextsOfLearner(
		learnerId: string
	): Promise<{ issuer: string; clientId: string; contextId: string }[]> {
		const rows = await this.database.query<{
			issuer: string;
			client_id: string;
			context_id: string;
		}>(
			'SELECT issuer, client_id, context_id FROM lti_enrolments WHERE learner_id = $1 ORDER BY updated_at DESC',
			[learnerId]
		);
		return rows.map((row) => ({
			issuer: row.issuer,
			clientId: row.client_id,
			contextId: row.context_id
		}));
	}

	async rosterSize(issuer: string, clientId: string, contextId: string): Promise<number> {
		const rows = await this.database.query<{ count: string | number }>(
			'SELECT count(*) AS count FROM lti_enrolments WHERE issuer = $1 AND client_id = $2 AND context_id = $3',
			[issuer, clientId, contextId]
		);
		return Number(rows[0]?.count ?? 0);
	}

	async lineItem(
		issuer: string,
		clientId: string,
		contextId: string,
		scenario: string
	): Promise<string | null> {
		const rows = await this.database.query<{ lineitem_url: string }>(
			'SELECT lineitem_url FROM lti_line_items WHERE issuer = $1 AND client_id = $2 AND context_id = $3 AND scenario = $4',
			[issuer, clientId, contextId, scenario]
		);
		return rows[0]?.lineitem_url ?? null;
	}

	async saveLineItem(
		issuer: string,
		clientId: string,
		contextId: string,
		scenario: string,
		lineitemUrl: string
	): Promise<void> {
		await this.database.query(
			`INSERT INTO lti_line_items (issuer, client_id, context_id, scenario, lineitem_url) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (issuer, client_id, context_id, scenario) DO UPDATE SET lineitem_url = $5`,
			[issuer, clientId, contextId, scenario, lineitemUrl]
		);
	}

	async saveDeepLink(link: {
		id: string;
		issuer: string;
		clientId: string;
		deploymentId: string;
		returnUrl: string;
		data: string | null;
		expiresAt: Date;
	}): Promise<void> {
		await this.database.query(
			'INSERT INTO lti_deep_links (id, issuer, client_id, deployment_id, return_url, data, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
			[
				link.id,
				link.issuer,
				link.clientId,
				link.deploymentId,
				link.returnUrl,
				link.data,
				link.expiresAt.toISOString()
			]
		);
	}

	async takeDeepLink(
		id: string,
		now: Date
	): Promise<{
		issuer: string;
		clientId: string;
		deploymentId: string;
		returnUrl: string;
		data: string | null;
	} | null> {
		const rows = await this.database.query<{
			issuer: string;
			client_id: string;
			deployment_id: string;
			return_url: string;
			data: string | null;
			expires_at: Date | string;
		}>(
			'DELETE FROM lti_deep_links WHERE id = $1 RETURNING issuer, client_id, deployment_id, return_url, data, expires_at',
			[id]
		);
		const row = rows[0];
		if (!row || new Date(row.expires_at).getTime() <= now.getTime()) return null;
		return {
			issuer: row.issuer,
			clientId: row.client_id,
			deploymentId: row.deployment_id,
			returnUrl: row.return_url,
			data: row.data
		};
	}

	async enqueueScore(score: {
		learnerId: string;
		scenario: string;
		issuer: string;
		clientId: string;
		contextId: string;
		lineitemUrl: string;
		body: string;
	}): Promise<number> {
		const rows = await this.database.query<{ id: string | number }>(
			`INSERT INTO lti_scores (learner_id, scenario, issuer, client_id, context_id, lineitem_url, body, status)
			VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending') RETURNING id`,
			[
				score.learnerId,
				score.scenario,
				score.issuer,
				score.clientId,
				score.contextId,
				score.lineitemUrl,
				score.body
			]
		);
		return Number(rows[0]?.id);
	}

	async score(id: number): Promise<QueuedScore | null> {
		const rows = await this.database.query<ScoreRow>('SELECT * FROM lti_scores WHERE id = $1', [
			id
		]);
		return rows[0] ? scoreOf(rows[0]) : null;
	}

	/** Scores not yet sent whose next attempt is due, oldest first. */
	async dueScores(now: Date, limit = 50): Promise<QueuedScore[]> {
		const rows = await this.database.query<ScoreRow>(
			`SELECT * FROM lti_scores WHERE status <> 'sent' AND next_attempt_at <= $1 ORDER BY id LIMIT $2`,
			[now.toISOString(), limit]
		);
		return rows.map(scoreOf);
	}

	async markSent(id: number, now: Date): Promise<void> {
		await this.database.query(
			`UPDATE lti_scores SET status = 'sent', attempts = attempts + 1, last_error = NULL, sent_at = $2 WHERE id = $1`,
			[id, now.toISOString()]
		);
	}

	async markAttemptFailed(
		id: number,
		status: 'pending' | 'failed',
		error: string,
		nextAttemptAt: Date
	): Promise<void> {
		await this.database.query(
			'UPDATE lti_scores SET status = $2, attempts = attempts + 1, last_error = $3, next_attempt_at = $4 WHERE id = $1',
			[id, status, error.slice(0, 500), nextAttemptAt.toISOString()]
		);
	}

	/** The newest score of each learner and scenario (what /grade shows). */
	async latestScores(): Promise<QueuedScore[]> {
		const rows = await this.database.query<ScoreRow>(
			`SELECT DISTINCT ON (learner_id, scenario) * FROM lti_scores ORDER BY learner_id, scenario, id DESC`
		);
		return rows.map(scoreOf);
	}
}
