import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { findPlatform, type LtiConfig, type LtiPlatform } from './lti-config.js';
import type { LtiStore } from './lti-store.js';

const claim = (name: string) => `https://purl.imsglobal.org/spec/lti/claim/${name}`;
export const ltiClaims = {
	messageType: claim('message_type'),
	version: claim('version'),
	deploymentId: claim('deployment_id'),
	targetLinkUri: claim('target_link_uri'),
	resourceLink: claim('resource_link'),
	roles: claim('roles'),
	context: claim('context'),
	custom: claim('custom'),
	deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
	namesRoles: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
	endpoint: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint'
} as const;

/** A launch whose id_token passed every check. */
export interface VerifiedLaunch {
	platform: LtiPlatform;
	messageType: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
	deploymentId: string;
	subject: string;
	name: string;
	roles: string[];
	context: { id: string; title: string } | null;
	resourceLinkId: string | null;
	targetLinkUri: string;
	custom: Record<string, string>;
	deepLinking: { returnUrl: string; data: string | null } | null;
	namesRolesUrl: string | null;
	ags: { lineitemsUrl: string | null; lineitemUrl: string | null; scopes: string[] };
}

export type LaunchOutcome = { ok: true; launch: VerifiedLaunch } | { ok: false; message: string };

const fail = (message: string): LaunchOutcome => ({ ok: false, message });
const text = (value: unknown): string | null =>
	typeof value === 'string' && value.length > 0 && value.length <= 4096 ? value : null;
const object = (value: unknown): Record<string, unknown> | null =>
	typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: null;

/** The platforms' key sets, fetched on demand with a timeout and cached by jose. */
export class PlatformKeySets {
	readonly #sets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
	constructor(private readonly timeoutMs = 5_000) {}
	of(platform: LtiPlatform): ReturnType<typeof createRemoteJWKSet> {
		let set = this.#sets.get(platform.keysetUrl);
		if (!set) {
			set = createRemoteJWKSet(new URL(platform.keysetUrl), {
				timeoutDuration: this.timeoutMs,
				cooldownDuration: 30_000
			});
			this.#sets.set(platform.keysetUrl, set);
		}
		return set;
	}
}

/**
 * The launch (LTI 1.3 core 5.1.2, security framework 5.1.3): takes the login of `state` (deleted:
 * it works once), then checks the id_token: the signature against the platform's JWKS (RS256),
 * iss and aud (the registered client_id; azp when several audiences), exp and iat, the nonce of
 * that login, a registered deployment id, version 1.3.0 and a supported message type. Nothing is
 * stored here; the caller acts only on `ok`.
 */
export async function verifyLaunch(
	config: LtiConfig,
	store: LtiStore,
	keySets: PlatformKeySets,
	form: { idToken: string | null; state: string | null },
	now: Date
): Promise<LaunchOutcome> {
	if (!form.idToken || !form.state || form.idToken.length > 64 * 1024 || form.state.length > 200) {
		return fail('This launch is missing its id_token or state. Start again from your LMS.');
	}
	const login = await store.takeLogin(form.state, now);
	if (!login) {
		return fail('This launch has expired or was already used. Start again from your LMS.');
	}
	let unverified: JWTPayload;
	try {
		unverified = decodeJwt(form.idToken);
	} catch {
		return fail('The id_token is not a JWT.');
	}
	if (unverified.iss !== login.issuer) {
		return fail('The id_token comes from another platform than the login.');
	}
	const platform = findPlatform(config, login.issuer, login.clientId);
	if (!platform) return fail('This LMS is no longer registered with Threadline.');
	let payload: JWTPayload;
	try {
		({ payload } = await jwtVerify(form.idToken, keySets.of(platform), {
			issuer: platform.issuer,
			audience: platform.clientId,
			algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256'],
			requiredClaims: ['exp', 'iat', 'nonce', 'sub'],
			currentDate: now,
			clockTolerance: 60,
			maxTokenAge: '10m'
		}));
	} catch (error) {
		return fail(`The LMS's id_token was refused: ${(error as Error).message}.`);
	}
	const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
	if ((audiences.length > 1 || payload.azp !== undefined) && payload.azp !== platform.clientId) {
		return fail('The id_token names several audiences and its azp is not Threadline.');
	}
	if (payload.nonce !== login.nonce) {
		return fail('The id_token was not issued for this login (nonce).');
	}
	const deploymentId = text(payload[ltiClaims.deploymentId]);
	if (!deploymentId || !platform.deploymentIds.includes(deploymentId)) {
		return fail(`Deployment ${deploymentId ?? '(none)'} is not registered with Threadline.`);
	}
	if (payload[ltiClaims.version] !== '1.3.0') return fail('Only LTI 1.3.0 launches are supported.');
	const messageType = payload[ltiClaims.messageType];
	if (messageType !== 'LtiResourceLinkRequest' && messageType !== 'LtiDeepLinkingRequest') {
		return fail(`Threadline does not handle ${String(messageType)} messages.`);
	}
	const subject = text(payload.sub);
	if (!subject) return fail('The id_token names no user (sub).');
	const roles = Array.isArray(payload[ltiClaims.roles])
		? (payload[ltiClaims.roles] as unknown[]).filter(
				(role): role is string => typeof role === 'string'
			)
		: [];
	const resourceLink = object(payload[ltiClaims.resourceLink]);
	const resourceLinkId = text(resourceLink?.id);
	if (messageType === 'LtiResourceLinkRequest' && !resourceLinkId) {
		return fail('A resource link launch must name its resource link.');
	}
	const targetLinkUri = text(payload[ltiClaims.targetLinkUri]) ?? '';
	const contextClaim = object(payload[ltiClaims.context]);
	const contextId = text(contextClaim?.id);
	const customClaim = object(payload[ltiClaims.custom]) ?? {};
	const custom: Record<string, string> = {};
	for (const [name, value] of Object.entries(customClaim)) {
		if (typeof value === 'string') custom[name] = value;
	}
	let deepLinking: VerifiedLaunch['deepLinking'] = null;
	if (messageType === 'LtiDeepLinkingRequest') {
		const settings = object(payload[ltiClaims.deepLinkingSettings]);
		const returnUrl = text(settings?.deep_link_return_url);
		if (!returnUrl || !/^https?:\/\//.test(returnUrl)) {
			return fail('A deep linking request must carry deep_link_return_url.');
		}
		deepLinking = { returnUrl, data: text(settings?.data) };
	}
	const namesRoles = object(payload[ltiClaims.namesRoles]);
	const endpoint = object(payload[ltiClaims.endpoint]);
	const name =
		text(payload.name) ??
		([text(payload.given_name), text(payload.family_name)].filter(Boolean).join(' ') ||
			`Learner ${subject.slice(0, 8)}`);
	return {
		ok: true,
		launch: {
			platform,
			messageType,
			deploymentId,
			subject,
			name,
			roles,
			context: contextId ? { id: contextId, title: text(contextClaim?.title) ?? '' } : null,
			resourceLinkId,
			targetLinkUri,
			custom,
			deepLinking,
			namesRolesUrl: text(namesRoles?.context_memberships_url),
			ags: {
				lineitemsUrl: text(endpoint?.lineitems),
				lineitemUrl: text(endpoint?.lineitem),
				scopes: Array.isArray(endpoint?.scope)
					? (endpoint.scope as unknown[]).filter(
							(scope): scope is string => typeof scope === 'string'
						)
					: []
			}
		}
	};
}

/** LIS roles that grade and pick content (instructors, admins, content developers). */
export function isInstructor(roles: readonly string[]): boolean {
	return roles.some((role) =>
		/#(Instructor|Administrator|ContentDeveloper|TeachingAssistant)$|\/Instructor$/.test(role)
	);
}
