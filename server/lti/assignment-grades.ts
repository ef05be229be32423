import type { LtiConfig, LtiPlatform } from './lti-config.js';
import { findPlatform } from './lti-config.js';
import { defaultScoreMaximum } from './deep-linking.js';
import type { LtiStore, QueuedScore } from './lti-store.js';
import { lineItemScope, platformFetch, scoreScope, type PlatformTokens } from './platform-token.js';

/** What /grade (or the class server's grading) sends for one learner and scenario. */
export interface ScoreRequest {
	learnerId: string;
	scenario: string;
	scoreGiven: number;
	scoreMaximum: number;
	/** A rubric criterion is graded by hand: the platform shows the grade as not final. */
	pendingManual: boolean;
	/** The verify verdict, shown to the learner in the gradebook. */
	comment: string;
}

export type ScoreOutcome =
	{ ok: true; score: QueuedScore } | { ok: false; status: number; message: string };

/** Backoff between attempts: 1 s, 2 s, 4 s … capped at ten minutes. */
export const retryDelayMs = (attempts: number) =>
	Math.min(600_000, 1000 * 2 ** Math.max(0, attempts - 1));
/** After this many failed attempts a score shows as failed (it stays queued and is retried). */
export const attemptsBeforeFailed = 3;

/**
 * Assignment and Grade Services (AGS 2.0): a line item per scenario and course (from the Deep
 * Linking response or the launch's `lineitem`, else found by resource id or created), and scores
 * queued in the class database before any post, so a platform that is down loses nothing.
 */
export class AssignmentGrades {
	constructor(
		private readonly config: LtiConfig,
		private readonly store: LtiStore,
		private readonly tokens: PlatformTokens,
		private readonly fetcher: typeof fetch = fetch,
		private readonly now: () => Date = () => new Date()
	) {}

	/** The line item of a scenario in a course, found or created through the line items service. */
	async ensureLineItem(
		platform: LtiPlatform,
		contextId: string,
		scenario: string,
		label: string
	): Promise<string | null> {
		const known = await this.store.lineItem(
			platform.issuer,
			platform.clientId,
			contextId,
			scenario
		);
		if (known) return known;
		const context = await this.store.context(platform.issuer, platform.clientId, contextId);
		if (!context?.lineitemsUrl || !context.scopes.includes(lineItemScope)) return null;
		const listUrl = new URL(context.lineitemsUrl);
		listUrl.searchParams.set('resource_id', scenario);
		const listed = await platformFetch(
			this.tokens,
			platform,
			[lineItemScope],
			listUrl.toString(),
			{ headers: { accept: 'application/vnd.ims.lis.v2.lineitemcontainer+json' } },
			this.fetcher
		);
		if (listed.ok) {
			const items = (await listed.json().catch(() => [])) as {
				id?: unknown;
				resourceId?: unknown;
			}[];
			const found = Array.isArray(items)
				? items.find((item) => item.resourceId === scenario && typeof item.id === 'string')
				: undefined;
			if (found) {
				await this.store.saveLineItem(
					platform.issuer,
					platform.clientId,
					contextId,
					scenario,
					found.id as string
				);
				return found.id as string;
			}
		}
		const created = await platformFetch(
			this.tokens,
			platform,
			[lineItemScope],
			context.lineitemsUrl,
			{
				method: 'POST',
				headers: {
					'content-type': 'application/vnd.ims.lis.v2.lineitem+json',
					accept: 'application/vnd.ims.lis.v2.lineitem+json'
				},
				body: JSON.stringify({
					scoreMaximum: defaultScoreMaximum,
					label,
					resourceId: scenario,
					tag: 'threadline'
				})
			},
			this.fetcher
		);
		if (!created.ok) throw new Error(`the line items service answered ${created.status}`);
		const item = (await created.json()) as { id?: unknown };
		if (typeof item.id !== 'string') throw new Error('the line items service returned no id');
		await this.store.saveLineItem(platform.issuer, platform.clientId, contextId, scenario, item.id);
		return item.id;
	}

	/**
	 * Queues a score for the learner's most recent course with this scenario, then tries to post
	 * it now (with retries). The answer is the queued row: sent, pending or failed.
	 */
	async submit(
		request: ScoreRequest,
		inlineAttempts = attemptsBeforeFailed
	): Promise<ScoreOutcome> {
		if (
			!Number.isFinite(request.scoreGiven) ||
			!Number.isFinite(request.scoreMaximum) ||
			request.scoreMaximum <= 0 ||
			request.scoreGiven < 0 ||
			request.scoreGiven > request.scoreMaximum
		) {
			return {
				ok: false,
				status: 400,
				message: 'scoreGiven must be between 0 and scoreMaximum (above 0)'
			};
		}
		const user = await this.store.userOfLearner(request.learnerId);
		if (!user) {
			return {
				ok: false,
				status: 404,
				message: 'this learner did not come from an LMS (no LTI launch or roster)'
			};
		}
		const platform = findPlatform(this.config, user.issuer, user.clientId);
		if (!platform)
			return { ok: false, status: 409, message: 'the learner’s LMS is no longer registered' };
		let target: { contextId: string; lineitemUrl: string } | null = null;
		for (const context of await this.store.contextsOfLearner(request.learnerId)) {
			if (context.issuer !== platform.issuer || context.clientId !== platform.clientId) continue;
			const lineitemUrl = await this.ensureLineItem(
				platform,
				context.contextId,
				request.scenario,
				request.scenario
			).catch(() => null);
			if (lineitemUrl) {
				target = { contextId: context.contextId, lineitemUrl };
				break;
			}
		}
		if (!target) {
			return {
				ok: false,
				status: 409,
				message: `no LMS line item for scenario ${request.scenario} in this learner’s courses`
			};
		}
		const body = JSON.stringify({
			userId: user.subject,
			scoreGiven: request.scoreGiven,
			scoreMaximum: request.scoreMaximum,
			comment: request.comment.slice(0, 4000),
			timestamp: this.now().toISOString(),
			activityProgress: 'Completed',
			gradingProgress: request.pendingManual ? 'PendingManual' : 'FullyGraded'
		});
		const id = await this.store.enqueueScore({
			learnerId: request.learnerId,
			scenario: request.scenario,
			issuer: platform.issuer,
			clientId: platform.clientId,
			contextId: target.contextId,
			lineitemUrl: target.lineitemUrl,
			body
		});
		for (let attempt = 0; attempt < inlineAttempts; attempt++) {
			const score = await this.store.score(id);
			if (!score || score.status === 'sent') break;
			if (attempt > 0)
				await new Promise((resolve) => setTimeout(resolve, Math.min(2000, retryDelayMs(attempt))));
			await this.deliver(score);
		}
		return { ok: true, score: (await this.store.score(id)) as QueuedScore };
	}

	/** Posts every queued score that is due (the runtime calls this every 30 s). */
	async retryDue(): Promise<number> {
		let sent = 0;
		for (const score of await this.store.dueScores(this.now())) {
			if (await this.deliver(score)) sent++;
		}
		return sent;
	}

	/** One attempt: 2xx marks it sent; anything else records the error and when to try again. */
	async deliver(score: QueuedScore): Promise<boolean> {
		const platform = findPlatform(this.config, score.issuer, score.clientId);
		let problem: string;
		if (!platform) {
			problem = 'the LMS is no longer registered';
		} else {
			try {
				const response = await platformFetch(
					this.tokens,
					platform,
					[scoreScope],
					scoresUrl(score.lineitemUrl),
					{
						method: 'POST',
						headers: { 'content-type': 'application/vnd.ims.lis.v1.score+json' },
						body: score.body
					},
					this.fetcher
				);
				if (response.ok) {
					await this.store.markSent(score.id, this.now());
					return true;
				}
				problem = `the LMS answered ${response.status}`;
			} catch (error) {
				problem = (error as Error).message;
			}
		}
		const attempts = score.attempts + 1;
		await this.store.markAttemptFailed(
			score.id,
			attempts >= attemptsBeforeFailed ? 'failed' : 'pending',
			problem,
			new Date(this.now().getTime() + retryDelayMs(attempts))
		);
		return false;
	}
}

/** `<lineitem>/scores`, keeping the line item URL's query (AGS 2.0, 3.4). */
export function scoresUrl(lineitemUrl: string): string {
	const url = new URL(lineitemUrl);
	url.pathname = `${url.pathname.replace(/\/$/, '')}/scores`;
	return url.toString();
}
