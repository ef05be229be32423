import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import {
	calculateJwkThumbprint,
	createRemoteJWKSet,
	exportJWK,
	generateKeyPair,
	jwtVerify,
	SignJWT,
	type CryptoKey,
	type JWK,
	type JWTPayload
} from 'jose';

/** What the next id_token says, and how the test wants it spoiled. */
export interface LaunchPlan {
	subject: string;
	name?: string;
	messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
	roles?: string[];
	custom?: Record<string, string>;
	contextId?: string;
	deploymentId?: string;
	/** Seconds added to now for exp (negative: expired). */
	expiresIn?: number;
	audience?: string | string[];
	azp?: string;
	/** Sign with a key the platform does not publish (same kid). */
	foreignKey?: boolean;
	nonce?: string;
	lineitem?: string;
}

export interface RecordedScore {
	lineitem: string;
	contentType: string;
	body: Record<string, unknown>;
}

export interface LineItem {
	id: string;
	label: string;
	scoreMaximum: number;
	resourceId?: string;
	tag?: string;
}

const readBody = (incoming: IncomingMessage) =>
	new Promise<string>((resolve, reject) => {
		const chunks: Buffer[] = [];
		incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
		incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		incoming.on('error', reject);
	});

const escape = (value: string) => value.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A small LTI 1.3 platform for the tests, on node:http and jose: its own RSA key and JWKS, an
 * OIDC auth endpoint answering a login with a signed id_token (form_post), an OAuth 2 token
 * endpoint that verifies the tool's client assertion against the tool's JWKS, NRPS, AGS line
 * items and scores (recorded), and a Deep Linking return that verifies the tool's response.
 */
export class TestPlatform {
	url = '';
	readonly clientId = 'threadline-client';
	readonly deploymentId = 'deployment-1';
	readonly contextId = 'course-101';
	plan: LaunchPlan = { subject: 'user-1' };
	members: { user_id: string; name: string; roles: string[]; status?: string }[] = [];
	readonly lineItems: LineItem[] = [];
	readonly scores: RecordedScore[] = [];
	readonly deepLinkResponses: JWTPayload[] = [];
	readonly clientAssertions: JWTPayload[] = [];
	/** Score posts to answer 500 before accepting. */
	scoreFailures = 0;
	readonly #tokens = new Map<string, string[]>();
	#server: Server | null = null;
	#key!: CryptoKey;
	#foreignKey!: CryptoKey;
	#jwk!: JWK;
	#toolKeys!: ReturnType<typeof createRemoteJWKSet>;

	constructor(private readonly tool: { url: string }) {}

	get issuer(): string {
		return this.url;
	}

	/** The registration Threadline is configured with (THREADLINE_LTI_PLATFORMS). */
	registration() {
		return {
			issuer: this.issuer,
			client_id: this.clientId,
			deployment_ids: [this.deploymentId],
			auth_login_url: `${this.url}/auth`,
			auth_token_url: `${this.url}/token`,
			keyset_url: `${this.url}/jwks`
		};
	}

	async start(): Promise<void> {
		const pair = await generateKeyPair('RS256', { extractable: true });
		this.#key = pair.privateKey;
		this.#foreignKey = (await generateKeyPair('RS256')).privateKey;
		const jwk = await exportJWK(pair.publicKey);
		this.#jwk = { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
		this.#toolKeys = createRemoteJWKSet(new URL(`${this.tool.url}/api/lti/jwks`));
		this.#server = createServer((incoming, outgoing) => {
			this.#route(incoming).then(
				({ status, type, body, headers }) => {
					outgoing.writeHead(status, { 'content-type': type, ...headers }).end(body);
				},
				(error: unknown) => outgoing.writeHead(500).end(String(error))
			);
		});
		await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
		const address = this.#server.address();
		this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
	}

	async close(): Promise<void> {
		const server = this.#server;
		if (!server) return;
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	/** A signed id_token for `plan` (also used directly by tests that replay one). */
	async idToken(plan: LaunchPlan, nonce: string): Promise<string> {
		const seconds = Math.floor(Date.now() / 1000);
		const claim = (name: string) => `https://purl.imsglobal.org/spec/lti/claim/${name}`;
		const messageType = plan.messageType ?? 'LtiResourceLinkRequest';
		const payload: Record<string, unknown> = {
			nonce: plan.nonce ?? nonce,
			name: plan.name ?? `Name of ${plan.subject}`,
			[claim('message_type')]: messageType,
			[claim('version')]: '1.3.0',
			[claim('deployment_id')]: plan.deploymentId ?? this.deploymentId,
			[claim('target_link_uri')]: `${this.tool.url}/api/lti/launch`,
			[claim('roles')]: plan.roles ?? ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
			[claim('context')]: { id: plan.contextId ?? this.contextId, title: 'Secure agents 101' },
			[claim('custom')]: plan.custom ?? {},
			'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': {
				context_memberships_url: `${this.url}/nrps/${plan.contextId ?? this.contextId}`,
				service_versions: ['2.0']
			},
			'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
				scope: [
					'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
					'https://purl.imsglobal.org/spec/lti-ags/scope/score'
				],
				lineitems: `${this.url}/lineitems`,
				...(plan.lineitem ? { lineitem: plan.lineitem } : {})
			}
		};
		if (messageType === 'LtiResourceLinkRequest') {
			payload[claim('resource_link')] = { id: `link-${plan.custom?.scenario ?? 'none'}` };
		} else {
			payload['https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings'] = {
				deep_link_return_url: `${this.url}/deep-link-return`,
				accept_types: ['ltiResourceLink'],
				data: 'platform-opaque-data'
			};
		}
		if (plan.azp) payload.azp = plan.azp;
		return new SignJWT(payload)
			.setProtectedHeader({ alg: 'RS256', kid: this.#jwk.kid as string, typ: 'JWT' })
			.setIssuer(this.issuer)
			.setSubject(plan.subject)
			.setAudience(plan.audience ?? this.clientId)
			.setIssuedAt(seconds)
			.setExpirationTime(seconds + (plan.expiresIn ?? 300))
			.sign(plan.foreignKey ? this.#foreignKey : this.#key);
	}

	async #route(
		incoming: IncomingMessage
	): Promise<{ status: number; type: string; body: string; headers?: Record<string, string> }> {
		const url = new URL(incoming.url ?? '/', this.url);
		const json = (status: number, value: unknown, type = 'application/json') => ({
			status,
			type,
			body: JSON.stringify(value)
		});
		if (url.pathname === '/jwks') return json(200, { keys: [this.#jwk] });
		if (url.pathname === '/auth') {
			const state = url.searchParams.get('state') ?? '';
			const nonce = url.searchParams.get('nonce') ?? '';
			if (
				url.searchParams.get('redirect_uri') !== `${this.tool.url}/api/lti/launch` ||
				url.searchParams.get('client_id') !== this.clientId ||
				url.searchParams.get('response_mode') !== 'form_post' ||
				url.searchParams.get('scope') !== 'openid'
			) {
				return json(400, { error: 'invalid_request' });
			}
			const idToken = await this.idToken(this.plan, nonce);
			return {
				status: 200,
				type: 'text/html',
				body: `<form method="post" action="${escape(`${this.tool.url}/api/lti/launch`)}"><input type="hidden" name="id_token" value="${escape(idToken)}"><input type="hidden" name="state" value="${escape(state)}"></form>`
			};
		}
		if (url.pathname === '/token' && incoming.method === 'POST') {
			const form = new URLSearchParams(await readBody(incoming));
			try {
				if (form.get('grant_type') !== 'client_credentials') throw new Error('grant_type');
				const { payload } = await jwtVerify(form.get('client_assertion') ?? '', this.#toolKeys, {
					issuer: this.clientId,
					subject: this.clientId,
					audience: `${this.url}/token`,
					requiredClaims: ['jti', 'exp', 'iat']
				});
				this.clientAssertions.push(payload);
			} catch (error) {
				return json(401, { error: 'invalid_client', detail: (error as Error).message });
			}
			const token = randomBytes(16).toString('hex');
			this.#tokens.set(token, (form.get('scope') ?? '').split(' '));
			return json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
		}
		if (url.pathname === '/deep-link-return' && incoming.method === 'POST') {
			const form = new URLSearchParams(await readBody(incoming));
			try {
				const { payload } = await jwtVerify(form.get('JWT') ?? '', this.#toolKeys, {
					issuer: this.clientId,
					audience: this.issuer
				});
				this.deepLinkResponses.push(payload);
				const items = payload['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'] as {
					lineItem?: { label: string; scoreMaximum: number; resourceId?: string; tag?: string };
				}[];
				for (const item of items) {
					if (item.lineItem)
						this.lineItems.push({ id: `${this.url}/lineitems/${randomUUID()}`, ...item.lineItem });
				}
				return json(200, { ok: true });
			} catch (error) {
				return json(400, { error: (error as Error).message });
			}
		}
		const scopes = this.#tokens.get(
			/^Bearer (\S+)$/.exec(incoming.headers.authorization ?? '')?.[1] ?? ''
		);
		if (!scopes) return json(401, { error: 'no valid access token' });
		if (url.pathname.startsWith('/nrps/')) {
			if (
				!scopes.includes(
					'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly'
				)
			) {
				return json(403, { error: 'scope' });
			}
			return json(
				200,
				{ id: url.toString(), context: { id: this.contextId }, members: this.members },
				'application/vnd.ims.lti-nrps.v2.membershipcontainer+json'
			);
		}
		if (url.pathname === '/lineitems') {
			if (incoming.method === 'POST') {
				const item = JSON.parse(await readBody(incoming)) as Omit<LineItem, 'id'>;
				const created = { ...item, id: `${this.url}/lineitems/${randomUUID()}` };
				this.lineItems.push(created);
				return json(201, created);
			}
			const resourceId = url.searchParams.get('resource_id');
			return json(
				200,
				this.lineItems.filter((item) => !resourceId || item.resourceId === resourceId)
			);
		}
		const scoreMatch = /^\/lineitems\/([^/]+)\/scores$/.exec(url.pathname);
		if (scoreMatch && incoming.method === 'POST') {
			if (!scopes.includes('https://purl.imsglobal.org/spec/lti-ags/scope/score'))
				return json(403, { error: 'scope' });
			const lineitem = `${this.url}/lineitems/${scoreMatch[1]}`;
			if (!this.lineItems.some((item) => item.id === lineitem))
				return json(404, { error: 'no such line item' });
			const body = await readBody(incoming);
			if (this.scoreFailures > 0) {
				this.scoreFailures--;
				return json(500, { error: 'the gradebook is down' });
			}
			this.scores.push({
				lineitem,
				contentType: incoming.headers['content-type'] ?? '',
				body: JSON.parse(body) as Record<string, unknown>
			});
			return json(200, {});
		}
		return json(404, { error: 'not found' });
	}
}
