/**
 * Which URLs a remote scenario may come from: https anywhere, plain http only from this machine
 * (an instructor's local server). Never credentials in the URL, never other schemes (data:,
 * blob:, file:, javascript:).
 */
export type RemoteScenarioUrlCheck = { ok: true; url: URL } | { ok: false; error: string };

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

export function checkRemoteScenarioUrl(text: string): RemoteScenarioUrlCheck {
	let url: URL;
	try {
		url = new URL(text.trim());
	} catch {
		return {
			ok: false,
			error: `"${shorten(text)}" is not a URL. Give a full https:// address of a scenario .json bundle or .zip.`
		};
	}
	if (url.username !== '' || url.password !== '') {
		return {
			ok: false,
			error:
				'The scenario URL contains a user name or password; remove them (scenarios are public files).'
		};
	}
	if (url.protocol === 'https:') return { ok: true, url };
	if (url.protocol === 'http:' && isLoopback(url.hostname)) return { ok: true, url };
	if (url.protocol === 'http:') {
		return {
			ok: false,
			error: `Scenarios load over https only (plain http is allowed for localhost): use https://${url.host}${url.pathname}${url.search}.`
		};
	}
	return {
		ok: false,
		error: `Scenarios load over https only, not ${url.protocol} URLs.`
	};
}

function isLoopback(hostname: string): boolean {
	return loopbackHosts.has(hostname) || hostname.endsWith('.localhost');
}

function shorten(text: string): string {
	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
