import { readFileSync } from 'node:fs';

/** One LMS registration: what the platform told the admin when Threadline was registered. */
export interface LtiPlatform {
	issuer: string;
	clientId: string;
	deploymentIds: readonly string[];
	authLoginUrl: string;
	authTokenUrl: string;
	keysetUrl: string;
	/** The `aud` of client assertions when the platform wants one other than its token URL. */
	authTokenAudience?: string;
}

export interface LtiConfig {
	/** Threadline's public origin as the LMS reaches it, e.g. https://threadline.example.edu */
	toolUrl: string;
	platforms: readonly LtiPlatform[];
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https only, except loopback (the test platform, a local Moodle). */
function checkedUrl(value: unknown, what: string): string {
	if (typeof value !== 'string') throw new Error(`${what} must be a URL`);
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new Error(`${what} is not a URL: ${value}`);
	}
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHosts.has(url.hostname))) {
		throw new Error(`${what} must use https (http only on loopback): ${value}`);
	}
	return url.toString();
}

function checkedText(value: unknown, what: string): string {
	if (typeof value !== 'string' || !value.trim() || value.length > 1000) {
		throw new Error(`${what} must be a non-empty string`);
	}
	return value.trim();
}

/** Parses and checks the platforms' JSON (an array, or one object). */
export function parsePlatforms(text: string): LtiPlatform[] {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		throw new Error('THREADLINE_LTI_PLATFORMS is not valid JSON');
	}
	const list = Array.isArray(parsed) ? parsed : [parsed];
	if (list.length === 0) throw new Error('THREADLINE_LTI_PLATFORMS lists no platform');
	const platforms = list.map((entry: unknown, index) => {
		if (typeof entry !== 'object' || entry === null) {
			throw new Error(`platform ${index + 1} is not an object`);
		}
		const raw = entry as Record<string, unknown>;
		const where = `platform ${index + 1}`;
		const deploymentIds = raw.deployment_ids;
		if (
			!Array.isArray(deploymentIds) ||
			deploymentIds.length === 0 ||
			deploymentIds.some((id) => typeof id !== 'string' || !id)
		) {
			throw new Error(`${where}: deployment_ids must be a non-empty array of strings`);
		}
		return {
			issuer: checkedText(raw.issuer, `${where}: issuer`),
			clientId: checkedText(raw.client_id, `${where}: client_id`),
			deploymentIds: deploymentIds as string[],
			authLoginUrl: checkedUrl(raw.auth_login_url, `${where}: auth_login_url`),
			authTokenUrl: checkedUrl(raw.auth_token_url, `${where}: auth_token_url`),
			keysetUrl: checkedUrl(raw.keyset_url, `${where}: keyset_url`),
			authTokenAudience:
				raw.auth_token_audience === undefined
					? undefined
					: checkedText(raw.auth_token_audience, `${where}: auth_token_audience`)
		};
	});
	const seen = new Set<string>();
	for (const platform of platforms) {
		const key = `${platform.issuer}\n${platform.clientId}`;
		if (seen.has(key)) {
			throw new Error(
				`two platforms share issuer ${platform.issuer} and client_id ${platform.clientId}`
			);
		}
		seen.add(key);
	}
	return platforms;
}

/**
 * LTI settings from the environment, or null when LTI is off. THREADLINE_LTI_PLATFORMS holds the
 * platforms' JSON itself or the path of a file with it; THREADLINE_LTI_TOOL_URL is Threadline's
 * public origin. Half a configuration is refused with a sentence.
 */
export function ltiConfigFromEnvironment(
	environment: Record<string, string | undefined>,
	readFile: (path: string) => string = (path) => readFileSync(path, 'utf8')
): LtiConfig | null {
	const platformsSetting = environment.THREADLINE_LTI_PLATFORMS?.trim();
	const toolSetting = environment.THREADLINE_LTI_TOOL_URL?.trim();
	if (!platformsSetting && !toolSetting) return null;
	if (!platformsSetting || !toolSetting) {
		throw new Error('LTI needs both THREADLINE_LTI_PLATFORMS and THREADLINE_LTI_TOOL_URL');
	}
	const text = /^[[{]/.test(platformsSetting) ? platformsSetting : readFile(platformsSetting);
	const toolUrl = new URL(checkedUrl(toolSetting, 'THREADLINE_LTI_TOOL_URL')).origin;
	return { toolUrl, platforms: parsePlatforms(text) };
}

/** The registration a launch or login names; several platforms may share an issuer (Canvas). */
export function findPlatform(
	config: LtiConfig,
	issuer: string,
	clientId: string | null
): LtiPlatform | null {
	const matching = config.platforms.filter(
		(platform) =>
			platform.issuer === issuer && (clientId === null || platform.clientId === clientId)
	);
	return matching.length === 1 ? (matching[0] ?? null) : null;
}
