import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membershipStorageKey as ideMembershipKey } from '../../app/lib/class/class-membership.js';
import { ClassService } from '../class-service.js';
import { instructorToken, testConfig } from '../testing/class-api-suite.js';
import { parsePlatforms } from './lti-config.js';
import { LtiTool, membershipStorageKey } from './lti-tool.js';
import { TestPlatform, type LaunchPlan } from './testing/test-platform.js';
import { startToolNodeServer } from './testing/tool-node-server.js';

const learnerRole = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';
const instructorRole = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
const scenarios = async () => [
	{ id: 'jwt-auth', title: 'JWT migration' },
	{ id: 'other-scenario', title: 'Another one' }
];

/** The hidden inputs of a form page, and its action. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
	const unescape = (value: string) =>
		value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
	const action = unescape(/<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? '');
	const fields: Record<string, string> = {};
	for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
		fields[unescape(match[1] ?? '')] = unescape(match[2] ?? '');
	}
	return { action, fields };
}

describe('LTI 1.3 end to end against a local platform (real HTTP, real signatures)', () => {
	let folder: string;
	let service: ClassService;
	let tool: LtiTool | null = null;
	let toolServer: Awaited<ReturnType<typeof startToolNodeServer>>;
	let platform: TestPlatform;
	let clockOffset = 0;

	beforeAll(async () => {
		folder = mkdtempSync(join(tmpdir(), 'threadline-lti-'));
		service = await ClassService.open(testConfig(folder, null), { rehearsalMilliseconds: 0 });
		toolServer = await startToolNodeServer(() => tool, scenarios);
		platform = new TestPlatform({ url: toolServer.url });
		await platform.start();
		tool = await LtiTool.open(
			{
				toolUrl: toolServer.url,
				platforms: parsePlatforms(JSON.stringify([platform.registration()]))
			},
			service,
			{ now: () => new Date(Date.now() + clockOffset) }
		);
	}, 180_000);

	afterAll(async () => {
		await toolServer?.close();
		await platform?.close();
		await service?.close();
		rmSync(folder, { recursive: true, force: true });
	});

	const count = async (table: string) =>
		Number(
			(await service.store.database.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]
				?.n
		);

	/** Login initiation → the platform's auth endpoint → the id_token form (not yet posted). */
	async function loginForm(
		plan: LaunchPlan
	): Promise<{ action: string; fields: Record<string, string> }> {
		platform.plan = plan;
		const login = new URL(`${toolServer.url}/api/lti/login`);
		login.searchParams.set('iss', platform.issuer);
		login.searchParams.set('login_hint', plan.subject);
		login.searchParams.set('target_link_uri', `${toolServer.url}/api/lti/launch`);
		login.searchParams.set('client_id', platform.clientId);
		const started = await fetch(login, { redirect: 'manual' });
		expect(started.status).toBe(302);
		const location = started.headers.get('location') ?? '';
		expect(location.startsWith(`${platform.url}/auth?`)).toBe(true);
		const auth = await fetch(location);
		expect(auth.status).toBe(200);
		return formOf(await auth.text());
	}

	const post = (action: string, fields: Record<string, string>) =>
		fetch(action, {
			method: 'POST',
			redirect: 'manual',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(fields)
		});

	async function launch(plan: LaunchPlan): Promise<Response> {
		const form = await loginForm(plan);
		return post(form.action, form.fields);
	}

	const handoff = async (response: Response) => {
		const html = await response.text();
		const data = /const d=(\{.*?\});localStorage/.exec(html)?.[1];
		expect(data, html).toBeTruthy();
		return JSON.parse(data ?? '{}') as {
			key: string;
			membership: { token: string; classId: string; name: string };
			destination: string;
		};
	};

	const sendScore = (body: Record<string, unknown>) =>
		fetch(`${toolServer.url}/api/lti/scores`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${instructorToken}` },
			body: JSON.stringify(body)
		});

	let learnerId = '';

	it('keeps the membership where the IDE reads it', () => {
		expect(membershipStorageKey).toBe(ideMembershipKey);
	});

	it('publishes the tool JWKS (public parts only)', async () => {
		const body = (await (await fetch(`${toolServer.url}/api/lti/jwks`)).json()) as {
			keys: Record<string, unknown>[];
		};
		expect(body.keys).toHaveLength(1);
		expect(body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
		expect(body.keys[0]?.d).toBeUndefined();
	});

	it('deep linking: the instructor picks a scenario, the platform verifies the signed response and gets a line item', async () => {
		const picker = await launch({
			subject: 'teacher-1',
			messageType: 'LtiDeepLinkingRequest',
			roles: [instructorRole]
		});
		expect(picker.status).toBe(200);
		const pickerHtml = await picker.text();
		expect(pickerHtml).toContain('value="jwt-auth"');
		const session = /name="session" value="([^"]+)"/.exec(pickerHtml)?.[1] ?? '';
		const chosen = await post(`${toolServer.url}/api/lti/deep-link`, {
			session,
			scenario: 'jwt-auth'
		});
		expect(chosen.status).toBe(200);
		const back = formOf(await chosen.text());
		expect(back.action).toBe(`${platform.url}/deep-link-return`);
		const returned = await post(back.action, back.fields);
		expect(returned.status, await returned.clone().text()).toBe(200);
		const payload = platform.deepLinkResponses[0] ?? {};
		expect(payload['https://purl.imsglobal.org/spec/lti/claim/message_type']).toBe(
			'LtiDeepLinkingResponse'
		);
		expect(payload['https://purl.imsglobal.org/spec/lti-dl/claim/data']).toBe(
			'platform-opaque-data'
		);
		const [item] = payload['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'] as Record<
			string,
			unknown
		>[];
		expect(item).toMatchObject({
			type: 'ltiResourceLink',
			custom: { scenario: 'jwt-auth' },
			lineItem: { resourceId: 'jwt-auth' }
		});
		expect(platform.lineItems.map((entry) => entry.resourceId)).toEqual(['jwt-auth']);
		// The selection is single use.
		const again = await post(`${toolServer.url}/api/lti/deep-link`, {
			session,
			scenario: 'jwt-auth'
		});
		expect(again.status).toBe(410);
	});

	it('a learner launch creates the learner without a class code and hands the browser its token', async () => {
		const before = await count('learners');
		const lineitem = platform.lineItems[0]?.id;
		const response = await launch({
			subject: 'student-1',
			name: 'Ada Learner',
			custom: { scenario: 'jwt-auth' },
			lineitem
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('cache-control')).toBe('no-store');
		const { key, membership, destination } = await handoff(response);
		expect(key).toBe('threadline-class-membership');
		expect(destination).toBe('/?scenario=jwt-auth');
		expect(membership.name).toBe('Ada Learner');
		expect(await count('learners')).toBe(before + 1);
		// The token is a real learner token of the class: it may ask for a ledger.
		const issued = await service.issueLedger(
			membership.token,
			{ scenario: 'jwt-auth' },
			'127.0.0.1'
		);
		expect(issued.status).toBe(201);
		learnerId =
			(
				await service.store.learnerByTokenHash(
					(await import('../tokens.js')).tokenHash(membership.token)
				)
			)?.id ?? '';
		expect(learnerId).not.toBe('');
		// A second launch is the same learner with a fresh token; the old one stops working.
		const again = await handoff(
			await launch({ subject: 'student-1', custom: { scenario: 'jwt-auth' }, lineitem })
		);
		expect(await count('learners')).toBe(before + 1);
		expect((await service.issueLedger(again.membership.token, {}, '127.0.0.1')).status).toBe(201);
		expect((await service.issueLedger(membership.token, {}, '127.0.0.1')).status).toBe(403);
	});

	it('an instructor launch fills the roster through NRPS and opens /grade', async () => {
		platform.members = [
			{ user_id: 'student-1', name: 'Ada Learner', roles: [learnerRole] },
			{ user_id: 'student-2', name: 'Bo Learner', roles: [learnerRole] },
			{ user_id: 'student-gone', name: 'Gone', roles: [learnerRole], status: 'Inactive' },
			{ user_id: 'teacher-1', name: 'Teacher', roles: [instructorRole] }
		];
		const response = await launch({
			subject: 'teacher-1',
			roles: [instructorRole],
			custom: { scenario: 'jwt-auth' }
		});
		expect(response.status).toBe(303);
		expect(response.headers.get('location')).toBe('/grade');
		expect(
			await tool?.store.rosterSize(platform.issuer, platform.clientId, platform.contextId)
		).toBe(2);
		expect(
			await tool?.store.learnerOfUser(platform.issuer, platform.clientId, 'student-2')
		).toBeTruthy();
		expect(
			await tool?.store.learnerOfUser(platform.issuer, platform.clientId, 'teacher-1')
		).toBeNull();
	});

	it('a score from /grade reaches the platform with the AGS fields', async () => {
		const response = await sendScore({
			learner: learnerId,
			scenario: 'jwt-auth',
			score_given: 7,
			score_maximum: 10,
			pending_manual: false,
			comment: 'verified: chain intact'
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toMatchObject({ status: 'sent', attempts: 1 });
		const recorded = platform.scores.at(-1);
		expect(recorded?.contentType).toBe('application/vnd.ims.lis.v1.score+json');
		expect(recorded?.lineitem).toBe(platform.lineItems[0]?.id);
		expect(recorded?.body).toMatchObject({
			userId: 'student-1',
			scoreGiven: 7,
			scoreMaximum: 10,
			comment: 'verified: chain intact',
			activityProgress: 'Completed',
			gradingProgress: 'FullyGraded'
		});
		expect(platform.clientAssertions.length).toBeGreaterThan(0);
		// /grade names the witnessed ledger: the server finds its learner and checks its scenario.
		const issued = await service.issueLedger(
			(await service.admitLearner('Ada Learner', learnerId)).token,
			{ scenario: 'jwt-auth' },
			'127.0.0.1'
		);
		const ledger = (issued.body as { certificate: { ledger: string } }).certificate.ledger;
		const byLedger = await sendScore({
			ledger,
			scenario: 'jwt-auth',
			score_given: 8,
			score_maximum: 10,
			comment: 'by ledger'
		});
		expect(byLedger.status).toBe(200);
		expect(platform.scores.at(-1)?.body).toMatchObject({ userId: 'student-1', scoreGiven: 8 });
		const wrongScenario = await sendScore({
			ledger,
			scenario: 'other-scenario',
			score_given: 1,
			score_maximum: 1
		});
		expect(wrongScenario.status).toBe(409);
		const noLedger = await sendScore({
			ledger: 'no-such-ledger-000',
			scenario: 'jwt-auth',
			score_given: 1,
			score_maximum: 1
		});
		expect(noLedger.status).toBe(404);
		const manual = await sendScore({
			learner: learnerId,
			scenario: 'jwt-auth',
			score_given: 5,
			score_maximum: 10,
			pending_manual: true,
			comment: 'manual criterion'
		});
		expect(manual.status).toBe(200);
		expect(platform.scores.at(-1)?.body.gradingProgress).toBe('PendingManual');
	});

	it('a rostered learner who never launched gets a line item created through AGS for another scenario', async () => {
		const other = await tool?.store.learnerOfUser(platform.issuer, platform.clientId, 'student-2');
		const response = await sendScore({
			learner: other,
			scenario: 'other-scenario',
			score_given: 1,
			score_maximum: 1,
			comment: 'ok'
		});
		expect(response.status).toBe(200);
		expect(platform.lineItems.some((item) => item.resourceId === 'other-scenario')).toBe(true);
		expect(platform.scores.at(-1)?.body.userId).toBe('student-2');
	});

	it('refuses scores without the instructor token and for learners not from the LMS', async () => {
		const stranger = await fetch(`${toolServer.url}/api/lti/scores`, {
			method: 'POST',
			body: '{}'
		});
		expect(stranger.status).toBe(403);
		const joined = await service.admitLearner('Not from LMS', null);
		const response = await sendScore({
			learner: joined.learner.id,
			scenario: 'jwt-auth',
			score_given: 1,
			score_maximum: 1
		});
		expect(response.status).toBe(404);
	});

	describe('bad launches get a plain error page and create nothing', () => {
		const cases: [string, LaunchPlan][] = [
			['a bad signature', { subject: 'mallory-1', foreignKey: true }],
			['an unknown deployment', { subject: 'mallory-2', deploymentId: 'deployment-unknown' }],
			['an expired token', { subject: 'mallory-3', expiresIn: -600 }],
			['a wrong audience', { subject: 'mallory-4', audience: 'another-tool' }],
			[
				'several audiences without azp',
				{ subject: 'mallory-5', audience: ['threadline-client', 'another-tool'] }
			],
			['a nonce of another login', { subject: 'mallory-6', nonce: 'not-the-login-nonce' }]
		];
		for (const [name, plan] of cases) {
			it(name, async () => {
				const learners = await count('learners');
				const users = await count('lti_users');
				const response = await launch({ ...plan, custom: { scenario: 'jwt-auth' } });
				expect(response.status).toBe(401);
				expect(response.headers.get('content-type')).toContain('text/html');
				const html = await response.text();
				expect(html).toContain('Threadline could not open this link');
				expect(html).not.toContain('localStorage');
				expect(await count('learners')).toBe(learners);
				expect(await count('lti_users')).toBe(users);
			});
		}

		it('a replayed launch (the same form twice, or its id_token under a fresh login)', async () => {
			const form = await loginForm({ subject: 'replay-1', custom: { scenario: 'jwt-auth' } });
			expect((await post(form.action, form.fields)).status).toBe(200);
			const learners = await count('learners');
			const replay = await post(form.action, form.fields);
			expect(replay.status).toBe(401);
			expect(await replay.text()).toContain('already used');
			const fresh = await loginForm({ subject: 'replay-1', custom: { scenario: 'jwt-auth' } });
			const replayed = await post(fresh.action, {
				...fresh.fields,
				id_token: form.fields.id_token ?? ''
			});
			expect(replayed.status).toBe(401);
			expect(await replayed.text()).toContain('nonce');
			expect(await count('learners')).toBe(learners);
		});

		it('a launch naming a scenario Threadline lacks', async () => {
			const learners = await count('learners');
			const response = await launch({
				subject: 'mallory-7',
				custom: { scenario: 'no-such-scenario' }
			});
			expect(response.status).toBe(404);
			expect(await count('learners')).toBe(learners);
		});
	});

	it('a failed score post is retried and lands', async () => {
		const received = platform.scores.length;
		platform.scoreFailures = 1;
		const response = await sendScore({
			learner: learnerId,
			scenario: 'jwt-auth',
			score_given: 9,
			score_maximum: 10,
			comment: 'retry'
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toMatchObject({ status: 'sent', attempts: 2 });
		expect(platform.scores.length).toBe(received + 1);
	}, 30_000);

	it('a score the platform keeps refusing shows as failed, stays queued, and is sent by a later retry', async () => {
		const received = platform.scores.length;
		platform.scoreFailures = 1000;
		const response = await sendScore({
			learner: learnerId,
			scenario: 'jwt-auth',
			score_given: 10,
			score_maximum: 10,
			comment: 'later'
		});
		expect(response.status).toBe(202);
		const failed = (await response.json()) as {
			id: number;
			status: string;
			attempts: number;
			last_error: string;
		};
		expect(failed).toMatchObject({ status: 'failed', attempts: 3 });
		expect(failed.last_error).toContain('500');
		const listed = (await (
			await fetch(`${toolServer.url}/api/lti/scores`, {
				headers: { authorization: `Bearer ${instructorToken}` }
			})
		).json()) as { scores: { id: number; status: string }[] };
		expect(listed.scores.find((score) => score.id === failed.id)?.status).toBe('failed');
		expect(platform.scores.length).toBe(received);
		// Not due yet: the backoff holds it.
		platform.scoreFailures = 0;
		expect(await tool?.grades.retryDue()).toBe(0);
		clockOffset = 10 * 60 * 1000;
		expect(await tool?.grades.retryDue()).toBe(1);
		clockOffset = 0;
		expect((await tool?.store.score(failed.id))?.status).toBe('sent');
		expect(platform.scores.at(-1)?.body.scoreGiven).toBe(10);
	}, 30_000);
});
