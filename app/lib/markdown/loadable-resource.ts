/**
 * Whether rendered markdown may make the browser load `url` by itself (an image's `src`): only
 * from this page's own origin, or from data the page already holds (`data:`, and `blob:` URLs
 * this origin made). Anything else is a request to a server the scenario's author chose, which
 * tells that server who opened the brief and when (a tracking pixel), or carries what the page
 * knows out in the URL (a model asked to show an image).
 *
 * The URL is resolved exactly as the browser will resolve it (WHATWG URL parser, against the
 * page's base URL), so spellings like `//host`, `\\host`, `HTTPS://host` or surrounding
 * whitespace are judged by where they really point.
 */
export function isLoadableResource(url: string, baseUrl: string | undefined): boolean {
	if (baseUrl === undefined) return false;
	let base: URL;
	let resolved: URL;
	try {
		base = new URL(baseUrl);
		resolved = new URL(url, base);
	} catch {
		return false;
	}
	switch (resolved.protocol) {
		case 'data:':
			return true;
		case 'blob:':
		case 'http:':
		case 'https:':
			// A blob: URL's origin is the origin that made it.
			return resolved.origin !== 'null' && resolved.origin === base.origin;
		default:
			return false;
	}
}

/** The host a URL names, for a placeholder ("an image from evil.example"); null when none. */
export function hostOf(url: string, baseUrl: string | undefined): string | null {
	try {
		const host = new URL(url, baseUrl).host;
		return host === '' ? null : host;
	} catch {
		return null;
	}
}
