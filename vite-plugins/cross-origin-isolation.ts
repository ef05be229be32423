import type { Connect, Plugin } from 'vite';

/**
 * The three headers that make a page cross-origin isolated (needed for WebContainer and
 * SharedArrayBuffer). server.js repeats them for production; a test keeps both lists equal.
 */
export const crossOriginIsolationHeaders: Readonly<Record<string, string>> = Object.freeze({
	'Cross-Origin-Opener-Policy': 'same-origin',
	'Cross-Origin-Embedder-Policy': 'require-corp',
	'Cross-Origin-Resource-Policy': 'same-origin'
});

export const setCrossOriginIsolationHeaders: Connect.NextHandleFunction = (
	_request,
	response,
	next
) => {
	for (const [name, value] of Object.entries(crossOriginIsolationHeaders)) {
		response.setHeader(name, value);
	}
	next();
};

/**
 * `server.headers`/`preview.headers` never reach `/_app/immutable/*` or worker scripts, and Chromium
 * refuses a worker script without COEP. Registering the middleware directly in the hooks (not in a
 * returned post-hook) puts it ahead of Vite's and SvelteKit's own middleware, so it must stay before
 * `sveltekit()` in the plugin list.
 */
export function crossOriginIsolation(): Plugin {
	return {
		name: 'threadline:cross-origin-isolation',
		configureServer(server) {
			server.middlewares.use(setCrossOriginIsolationHeaders);
		},
		configurePreviewServer(server) {
			server.middlewares.use(setCrossOriginIsolationHeaders);
		}
	};
}
