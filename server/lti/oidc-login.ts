import { randomBytes } from 'node:crypto';
import { findPlatform, type LtiConfig } from './lti-config.js';
import type { LtiStore } from './lti-store.js';

/** How long a login waits for its launch. */
export const loginLifetimeMs = 10 * 60 * 1000;

export type LoginOutcome = { ok: true; redirect: string } | { ok: false; message: string };

const parameter = (parameters: URLSearchParams, name: string, max = 4096): string | null => {
	const value = parameters.get(name);
	return value && value.length <= max ? value : null;
};

/**
 * OIDC third-party login initiation (LTI 1.3 core, 5.1.1): the platform names itself and the
 * user; the tool stores a fresh state and nonce (single use, ten minutes) and sends the browser
 * to the platform's auth endpoint, which answers the launch URL with a signed id_token.
 */
export async function initiateLogin(
	config: LtiConfig,
	store: LtiStore,
	parameters: URLSearchParams,
	now: Date
): Promise<LoginOutcome> {
	const issuer = parameter(parameters, 'iss');
	const loginHint = parameter(parameters, 'login_hint');
	const targetLinkUri = parameter(parameters, 'target_link_uri');
	if (!issuer || !loginHint || !targetLinkUri) {
		return { ok: false, message: 'This login is missing iss, login_hint or target_link_uri.' };
	}
	const platform = findPlatform(config, issuer, parameter(parameters, 'client_id'));
	if (!platform) {
		return {
			ok: false,
			message: `No LMS registered with Threadline matches issuer ${issuer}${parameters.get('client_id') ? ` and client_id ${parameters.get('client_id')}` : ' (or several do: the LMS must send client_id)'}.`
		};
	}
	const deploymentId = parameters.get('lti_deployment_id');
	if (deploymentId !== null && !platform.deploymentIds.includes(deploymentId)) {
		return { ok: false, message: `Deployment ${deploymentId} is not registered with Threadline.` };
	}
	let target: URL;
	try {
		target = new URL(targetLinkUri);
	} catch {
		return { ok: false, message: 'target_link_uri is not a URL.' };
	}
	if (target.origin !== config.toolUrl) {
		return { ok: false, message: 'target_link_uri does not point at this Threadline.' };
	}
	const state = randomBytes(32).toString('base64url');
	const nonce = randomBytes(32).toString('base64url');
	await store.saveLogin({
		state,
		nonce,
		issuer: platform.issuer,
		clientId: platform.clientId,
		expiresAt: new Date(now.getTime() + loginLifetimeMs)
	});
	const redirect = new URL(platform.authLoginUrl);
	const query: Record<string, string> = {
		scope: 'openid',
		response_type: 'id_token',
		response_mode: 'form_post',
		prompt: 'none',
		client_id: platform.clientId,
		redirect_uri: `${config.toolUrl}/api/lti/launch`,
		login_hint: loginHint,
		state,
		nonce
	};
	const messageHint = parameter(parameters, 'lti_message_hint');
	if (messageHint) query.lti_message_hint = messageHint;
	for (const [name, value] of Object.entries(query)) redirect.searchParams.set(name, value);
	return { ok: true, redirect: redirect.toString() };
}
