import type { ClassService } from '../class-service.js';
import { secretsEqual, bearerToken } from '../tokens.js';
import { AssignmentGrades, type ScoreRequest } from './assignment-grades.js';
import { deepLinkResponse, openDeepLink } from './deep-linking.js';
import { findPlatform, type LtiConfig } from './lti-config.js';
import { autoPostPage, errorPage, membershipHandoffPage, scenarioPickerPage } from './lti-html.js';
import { LtiStore, type QueuedScore } from './lti-store.js';
import { isInstructor, PlatformKeySets, verifyLaunch, type VerifiedLaunch } from './launch.js';
import { syncRoster } from './names-roles.js';
import { initiateLogin } from './oidc-login.js';
import { PlatformTokens } from './platform-token.js';
import { loadOrCreateToolKey, type ToolKey } from './tool-key.js';

/** Where the IDE keeps its class membership (app/lib/class/class-membership.ts; a test compares). */
export const membershipStorageKey = 'threadline-class-membership';

export type LtiRoute = 'login' | 'launch' | 'jwks' | 'deep-link' | 'scores';

export type ScenarioList = () => Promise<readonly { id: string; title: string }[]>;

const scenarioPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
const maxFormBytes = 96 * 1024;

/**
 * The LTI 1.3 tool: one Request in, one Response out, for the SvelteKit routes under
 * app/routes/api/lti/ and the tests' plain node:http server. Learners it admits are the class
 * server's learners; scores go through the persisted queue of AssignmentGrades.
 */
export class LtiTool {
	readonly store: LtiStore;
	readonly tokens: PlatformTokens;
	readonly grades: AssignmentGrades;
	readonly #keySets = new PlatformKeySets();

	private constructor(
		readonly config: LtiConfig,
		readonly classService: ClassService,
		readonly toolKey: ToolKey,
		private readonly fetcher: typeof fetch,
		private readonly now: () => Date
	) {
		this.store = new LtiStore(classService.store.database);
		this.tokens = new PlatformTokens(toolKey, fetcher, () => now().getTime());
		this.grades = new AssignmentGrades(config, this.store, this.tokens, fetcher, now);
	}

	static async open(
		config: LtiConfig,
		classService: ClassService,
		options: { fetcher?: typeof fetch; now?: () => Date } = {}
	): Promise<LtiTool> {
		const toolKey = await loadOrCreateToolKey(classService.config.dataDirectory);
		return new LtiTool(
			config,
			classService,
			toolKey,
			options.fetcher ?? fetch,
			options.now ?? (() => new Date())
		);
	}

	async handle(request: Request, route: LtiRoute, scenarios: ScenarioList): Promise<Response> {
		const method = request.method.toUpperCase();
		try {
			switch (route) {
				case 'jwks':
					return Response.json(
						{ keys: [this.toolKey.publicJwk] },
						{ headers: { 'cache-control': 'max-age=300' } }
					);
				case 'login': {
					const parameters =
						method === 'POST' ? await readForm(request) : new URL(request.url).searchParams;
					if (!parameters) return errorPage('This login request is not a form.');
					const outcome = await initiateLogin(this.config, this.store, parameters, this.now());
					if (!outcome.ok) return errorPage(outcome.message);
					return new Response(null, {
						status: 302,
						headers: { location: outcome.redirect, 'cache-control': 'no-store' }
					});
				}
				case 'launch': {
					if (method !== 'POST')
						return errorPage('Open Threadline from your LMS: a launch is a form post.', 405);
					const form = await readForm(request);
					if (!form) return errorPage('This launch is not a form post.');
					const verified = await verifyLaunch(
						this.config,
						this.store,
						this.#keySets,
						{ idToken: form.get('id_token'), state: form.get('state') },
						this.now()
					);
					if (!verified.ok) return errorPage(verified.message, 401);
					return await this.#launched(verified.launch, scenarios);
				}
				case 'deep-link': {
					if (method !== 'POST')
						return errorPage('Pick a scenario from the page your LMS opened.', 405);
					const form = await readForm(request);
					return await this.#deepLinkChosen(
						form?.get('session') ?? null,
						form?.get('scenario') ?? null,
						scenarios
					);
				}
				case 'scores':
					return await this.#scores(request, method);
			}
		} catch (error) {
			console.error(`LTI ${route}: ${(error as Error).message}`);
			return errorPage('Threadline could not finish this request; try again in a moment.', 500);
		}
	}

	async #launched(launch: VerifiedLaunch, scenarios: ScenarioList): Promise<Response> {
		const platform = launch.platform;
		if (launch.messageType === 'LtiDeepLinkingRequest') {
			if (!isInstructor(launch.roles))
				return errorPage('Only an instructor can add Threadline content.', 403);
			const list = await scenarios();
			if (list.length === 0) return errorPage('This Threadline has no scenarios to offer.', 503);
			return scenarioPickerPage(await openDeepLink(this.store, launch, this.now()), list);
		}
		const target = URL.canParse(launch.targetLinkUri) ? new URL(launch.targetLinkUri) : null;
		const scenario = launch.custom.scenario ?? target?.searchParams.get('scenario') ?? null;
		if (scenario !== null) {
			const known = await scenarios().catch(() => null);
			if (
				!scenarioPattern.test(scenario) ||
				(known && !known.some((entry) => entry.id === scenario))
			) {
				return errorPage(`This link names a scenario Threadline does not have (${scenario}).`, 404);
			}
		}
		const contextId = launch.context?.id ?? `link:${launch.resourceLinkId}`;
		await this.store.saveContext({
			issuer: platform.issuer,
			clientId: platform.clientId,
			contextId,
			deploymentId: launch.deploymentId,
			title: launch.context?.title ?? '',
			membershipsUrl: launch.namesRolesUrl,
			lineitemsUrl: launch.ags.lineitemsUrl,
			scopes: launch.ags.scopes
		});
		if (scenario && launch.ags.lineitemUrl) {
			await this.store.saveLineItem(
				platform.issuer,
				platform.clientId,
				contextId,
				scenario,
				launch.ags.lineitemUrl
			);
		}
		if (isInstructor(launch.roles) && !launch.roles.some((role) => /#Learner$/.test(role))) {
			const context = await this.store.context(platform.issuer, platform.clientId, contextId);
			if (context?.membershipsUrl) {
				await syncRoster(this.store, this.tokens, platform, context, this.fetcher).catch(
					(error: unknown) =>
						console.warn(`LTI roster of ${contextId}: ${(error as Error).message}`)
				);
			}
			return new Response(null, {
				status: 303,
				headers: { location: '/grade', 'cache-control': 'no-store' }
			});
		}
		const user = { issuer: platform.issuer, clientId: platform.clientId, subject: launch.subject };
		const existing = await this.store.learnerOfUser(user.issuer, user.clientId, user.subject);
		let admitted = await this.classService.admitLearner(launch.name, existing);
		if (!existing) {
			await this.store.linkUser(user, admitted.learner.id);
			const winner = await this.store.learnerOfUser(user.issuer, user.clientId, user.subject);
			// Two first launches at once: the one linked first is the learner; the other browser
			// gets a token for that learner too.
			if (winner && winner !== admitted.learner.id)
				admitted = await this.classService.admitLearner(launch.name, winner);
		}
		await this.store.enrol(platform.issuer, platform.clientId, contextId, admitted.learner.id);
		return membershipHandoffPage(
			membershipStorageKey,
			{
				token: admitted.token,
				classId: admitted.class,
				name: admitted.learner.name,
				joinedAt: this.now().toISOString()
			},
			scenario ? `/?scenario=${encodeURIComponent(scenario)}` : '/'
		);
	}

	async #deepLinkChosen(
		session: string | null,
		scenarioId: string | null,
		scenarios: ScenarioList
	): Promise<Response> {
		if (!session || !scenarioId || session.length > 100) return errorPage('Pick a scenario first.');
		const list = await scenarios();
		const scenario = list.find((entry) => entry.id === scenarioId);
		if (!scenario) return errorPage(`Threadline has no scenario ${scenarioId}.`, 404);
		const link = await this.store.takeDeepLink(session, this.now());
		if (!link)
			return errorPage(
				'This selection expired or was already sent. Start again from your LMS.',
				410
			);
		const platform = findPlatform(this.config, link.issuer, link.clientId);
		if (!platform) return errorPage('This LMS is no longer registered with Threadline.', 409);
		const jwt = await deepLinkResponse(
			this.config,
			this.toolKey,
			platform,
			link,
			scenario,
			this.now()
		);
		return autoPostPage(link.returnUrl, { JWT: jwt });
	}

	async #scores(request: Request, method: string): Promise<Response> {
		const token = bearerToken(request.headers.get('authorization'));
		if (!token || !secretsEqual(token, this.classService.config.instructorToken)) {
			return Response.json(
				{ error: 'only the instructor token may send or read LMS grades' },
				{ status: 403 }
			);
		}
		if (method === 'GET') {
			return Response.json({ scores: (await this.store.latestScores()).map(scoreView) });
		}
		if (method !== 'POST') return Response.json({ error: 'use GET or POST' }, { status: 405 });
		const text = await request.text();
		if (text.length > 64 * 1024) return Response.json({ error: 'body too large' }, { status: 413 });
		let body: Record<string, unknown>;
		try {
			body = JSON.parse(text) as Record<string, unknown>;
		} catch {
			return Response.json({ error: 'send JSON' }, { status: 400 });
		}
		// /grade names the witnessed ledger it graded: its learner and scenario are the server's own.
		let learnerId = typeof body.learner === 'string' ? body.learner : '';
		if (typeof body.ledger === 'string') {
			const ledger = await this.classService.store.ledger(body.ledger);
			if (!ledger)
				return Response.json({ error: 'the class server holds no such ledger' }, { status: 404 });
			if (ledger.scenario !== null && ledger.scenario !== body.scenario) {
				return Response.json(
					{ error: `that ledger is for scenario ${ledger.scenario}, not ${String(body.scenario)}` },
					{ status: 409 }
				);
			}
			learnerId = ledger.learner.id;
		}
		const scoreRequest: ScoreRequest = {
			learnerId,
			scenario: String(body.scenario ?? ''),
			scoreGiven: Number(body.score_given),
			scoreMaximum: Number(body.score_maximum),
			pendingManual: body.pending_manual === true,
			comment: typeof body.comment === 'string' ? body.comment : ''
		};
		if (!scoreRequest.learnerId || !scenarioPattern.test(scoreRequest.scenario)) {
			return Response.json(
				{
					error:
						'send {ledger or learner, scenario, score_given, score_maximum, pending_manual, comment}'
				},
				{ status: 400 }
			);
		}
		const outcome = await this.grades.submit(scoreRequest);
		if (!outcome.ok) return Response.json({ error: outcome.message }, { status: outcome.status });
		return Response.json(scoreView(outcome.score), {
			status: outcome.score.status === 'sent' ? 200 : 202
		});
	}
}

function scoreView(score: QueuedScore) {
	const body = JSON.parse(score.body) as {
		scoreGiven?: number;
		scoreMaximum?: number;
		gradingProgress?: string;
	};
	return {
		id: score.id,
		learner: score.learnerId,
		scenario: score.scenario,
		status: score.status,
		attempts: score.attempts,
		last_error: score.lastError,
		score_given: body.scoreGiven,
		score_maximum: body.scoreMaximum,
		grading_progress: body.gradingProgress,
		created_at: score.createdAt,
		sent_at: score.sentAt
	};
}

async function readForm(request: Request): Promise<URLSearchParams | null> {
	const type = request.headers.get('content-type') ?? '';
	// The second: server.js renames an LMS's cross-site form post past SvelteKit's CSRF check.
	if (
		!type.startsWith('application/x-www-form-urlencoded') &&
		!type.startsWith('application/x-threadline-lti-form')
	) {
		return null;
	}
	const text = await request.text();
	if (text.length > maxFormBytes) return null;
	return new URLSearchParams(text);
}
