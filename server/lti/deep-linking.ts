import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { LtiConfig, LtiPlatform } from './lti-config.js';
import type { LtiStore } from './lti-store.js';
import type { ToolKey } from './tool-key.js';
import { ltiClaims, type VerifiedLaunch } from './launch.js';

export const deepLinkLifetimeMs = 30 * 60 * 1000;
/** What a scenario's line item is out of: /grade scales the rubric's score to it. */
export const defaultScoreMaximum = 100;

/** Keeps a verified Deep Linking request (single use) until the instructor picks a scenario. */
export async function openDeepLink(
	store: LtiStore,
	launch: VerifiedLaunch,
	now: Date
): Promise<string> {
	const id = randomBytes(24).toString('base64url');
	await store.saveDeepLink({
		id,
		issuer: launch.platform.issuer,
		clientId: launch.platform.clientId,
		deploymentId: launch.deploymentId,
		returnUrl: launch.deepLinking?.returnUrl ?? '',
		data: launch.deepLinking?.data ?? null,
		expiresAt: new Date(now.getTime() + deepLinkLifetimeMs)
	});
	return id;
}

/**
 * The Deep Linking response (LTI-DL 2.0, 4.2): a JWT signed with the tool's key carrying one
 * ltiResourceLink for the scenario, with a line item (so the platform creates the gradebook
 * column) and the scenario as a custom parameter the launch reads.
 */
export async function deepLinkResponse(
	config: LtiConfig,
	toolKey: ToolKey,
	platform: LtiPlatform,
	session: { deploymentId: string; data: string | null },
	scenario: { id: string; title: string },
	now: Date
): Promise<string> {
	const seconds = Math.floor(now.getTime() / 1000);
	const claims: Record<string, unknown> = {
		nonce: randomBytes(16).toString('base64url'),
		[ltiClaims.messageType]: 'LtiDeepLinkingResponse',
		[ltiClaims.version]: '1.3.0',
		[ltiClaims.deploymentId]: session.deploymentId,
		'https://purl.imsglobal.org/spec/lti-dl/claim/content_items': [
			{
				type: 'ltiResourceLink',
				title: scenario.title,
				url: `${config.toolUrl}/api/lti/launch?scenario=${encodeURIComponent(scenario.id)}`,
				custom: { scenario: scenario.id },
				lineItem: {
					scoreMaximum: defaultScoreMaximum,
					label: scenario.title,
					resourceId: scenario.id,
					tag: 'threadline'
				}
			}
		]
	};
	if (session.data !== null)
		claims['https://purl.imsglobal.org/spec/lti-dl/claim/data'] = session.data;
	return new SignJWT(claims)
		.setProtectedHeader({ alg: 'RS256', kid: toolKey.kid, typ: 'JWT' })
		.setIssuer(platform.clientId)
		.setAudience(platform.issuer)
		.setIssuedAt(seconds)
		.setExpirationTime(seconds + 600)
		.sign(toolKey.privateKey);
}
