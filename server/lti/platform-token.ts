import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { LtiPlatform } from './lti-config.js';
import type { ToolKey } from './tool-key.js';

export const scoreScope = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';
export const lineItemScope = 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem';
export const membershipScope =
	'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';

const requestTimeoutMs = 10_000;

/**
 * Access tokens for a platform's services (AGS, NRPS): OAuth 2 client_credentials, the tool
 * authenticated by a client assertion it signs with its own key (private_key_jwt). Tokens are
 * cached until a minute before they expire; `forget` drops one the platform refused.
 */
export class PlatformTokens {
	readonly #cache = new Map<string, { token: string; expiresAt: number }>();

	constructor(
		private readonly toolKey: ToolKey,
		private readonly fetcher: typeof fetch = fetch,
		private readonly now: () => number = Date.now
	) {}

	async token(platform: LtiPlatform, scopes: readonly string[]): Promise<string> {
		const key = this.#key(platform, scopes);
		const cached = this.#cache.get(key);
		if (cached && cached.expiresAt > this.now()) return cached.token;
		const seconds = Math.floor(this.now() / 1000);
		const assertion = await new SignJWT({})
			.setProtectedHeader({ alg: 'RS256', kid: this.toolKey.kid, typ: 'JWT' })
			.setIssuer(platform.clientId)
			.setSubject(platform.clientId)
			.setAudience(platform.authTokenAudience ?? platform.authTokenUrl)
			.setIssuedAt(seconds)
			.setExpirationTime(seconds + 300)
			.setJti(randomUUID())
			.sign(this.toolKey.privateKey);
		const response = await this.fetcher(platform.authTokenUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
			body: new URLSearchParams({
				grant_type: 'client_credentials',
				client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
				client_assertion: assertion,
				scope: scopes.join(' ')
			}),
			signal: AbortSignal.timeout(requestTimeoutMs)
		});
		if (!response.ok) {
			throw new Error(`the platform's token endpoint answered ${response.status}`);
		}
		const body = (await response.json().catch(() => null)) as {
			access_token?: unknown;
			expires_in?: unknown;
		} | null;
		if (typeof body?.access_token !== 'string' || !body.access_token) {
			throw new Error("the platform's token endpoint sent no access_token");
		}
		const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
		this.#cache.set(key, {
			token: body.access_token,
			expiresAt: this.now() + Math.max(0, lifetime - 60) * 1000
		});
		return body.access_token;
	}

	forget(platform: LtiPlatform, scopes: readonly string[]): void {
		this.#cache.delete(this.#key(platform, scopes));
	}

	#key(platform: LtiPlatform, scopes: readonly string[]): string {
		return `${platform.issuer}\n${platform.clientId}\n${[...scopes].sort().join(' ')}`;
	}
}

/** A service call with the platform's access token; one retry with a fresh token after a 401. */
export async function platformFetch(
	tokens: PlatformTokens,
	platform: LtiPlatform,
	scopes: readonly string[],
	url: string,
	init: RequestInit,
	fetcher: typeof fetch = fetch
): Promise<Response> {
	for (let attempt = 0; ; attempt++) {
		const token = await tokens.token(platform, scopes);
		const response = await fetcher(url, {
			...init,
			headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
			signal: AbortSignal.timeout(requestTimeoutMs)
		});
		if (response.status !== 401 || attempt > 0) return response;
		tokens.forget(platform, scopes);
	}
}
