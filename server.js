// Production server: adapter-node's handler behind the cross-origin isolation headers.
// adapter-node's own `build/index.js` cannot add headers to the static files it serves, and
// WebContainer plus module workers need COOP/COEP/CORP on every response, assets included.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { bodySizeLimitFor } from './server/body-size-limit.js';

/** Keep equal to vite-plugins/cross-origin-isolation.ts (a unit test compares them). */
export const crossOriginIsolationHeaders = Object.freeze({
	'Cross-Origin-Opener-Policy': 'same-origin',
	'Cross-Origin-Embedder-Policy': 'require-corp',
	'Cross-Origin-Resource-Policy': 'same-origin'
});

/**
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 * @typedef {(request: IncomingMessage, response: ServerResponse, next: () => void) => void} ConnectHandler
 */

/**
 * @param {ConnectHandler} handler a connect/polka style handler such as adapter-node's
 * @returns {(request: IncomingMessage, response: ServerResponse) => void}
 */
export function withCrossOriginIsolation(handler) {
	return (request, response) => {
		for (const [name, value] of Object.entries(crossOriginIsolationHeaders)) {
			response.setHeader(name, value);
		}
		handler(request, response, () => {
			response.statusCode = 404;
			response.setHeader('Content-Type', 'text/plain; charset=utf-8');
			response.end('Not found');
		});
	};
}

/** The LTI routes an LMS (or the tool's own no-referrer page) posts forms to, cross-site by design. */
const ltiFormRoutes = new Set(['/api/lti/login', '/api/lti/launch', '/api/lti/deep-link']);
/** What an LTI form post's content type becomes (server/lti/lti-tool.ts reads it as a form). */
export const ltiFormContentType = 'application/x-threadline-lti-form';

/**
 * SvelteKit refuses cross-site form posts (CSRF), and its trusted origins are fixed at build
 * time, while an LTI launch is a form post from the LMS by design. For exactly these routes the
 * form's content type is renamed, so SvelteKit lets it through to server/lti, whose protection is
 * the single-use state and the platform's signed id_token, not the Origin header.
 * @param {ConnectHandler} handler
 * @returns {ConnectHandler}
 */
export function withLtiFormPosts(handler) {
	return (request, response, next) => {
		const path = (request.url ?? '').split('?')[0] ?? '';
		const type = request.headers['content-type'] ?? '';
		if (
			request.method === 'POST' &&
			ltiFormRoutes.has(path) &&
			type.toLowerCase().startsWith('application/x-www-form-urlencoded')
		) {
			request.headers['content-type'] = ltiFormContentType;
		}
		handler(request, response, next);
	};
}

/**
 * @param {string | undefined} text
 * @returns {number}
 */
export function parsePort(text) {
	if (text === undefined || text === '') return 3000;
	const port = Number(text);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new Error(`PORT must be an integer between 0 and 65535, got "${text}"`);
	}
	return port;
}

/**
 * adapter-node refuses bodies over BODY_SIZE_LIMIT (default 512 KiB) before a route reads them,
 * below the class API's 4 MiB and /api/chat's 1 MiB: unset, it becomes the largest body one of
 * the app's routes accepts (server/body-size-limit.js), so each route's own cap answers with its
 * 413. Set, it is kept, and the class API advertises the lower of the two. Must run before the
 * handler is imported (adapter-node reads it then).
 * @param {Record<string, string | undefined>} environment
 * @returns {string}
 */
export function settleBodySizeLimit(environment) {
	if (!environment.BODY_SIZE_LIMIT?.trim()) {
		environment.BODY_SIZE_LIMIT = String(bodySizeLimitFor(environment));
	}
	return environment.BODY_SIZE_LIMIT;
}

/**
 * @param {URL} handlerUrl
 * @returns {Promise<ConnectHandler>}
 */
async function loadHandler(handlerUrl) {
	try {
		const built = await import(handlerUrl.href);
		return built.handler;
	} catch (error) {
		if (error instanceof Error && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND') {
			throw new Error('build/handler.js is missing: run `npm run build` first', { cause: error });
		}
		throw error;
	}
}

/**
 * Starts the server. Importing the handler runs app/hooks.server.ts's init, which opens class
 * mode: invalid class settings reject it with a sentence (server/class-runtime.ts).
 * @param {{ handlerUrl?: URL }} [options] the handler module (tests give their own)
 */
export async function start({
	// Built at runtime by `npm run build`; a computed URL keeps the type checker from resolving it.
	handlerUrl = new URL('./build/handler.js', import.meta.url)
} = {}) {
	settleBodySizeLimit(process.env);
	const port = parsePort(process.env.PORT);
	// Loopback by default: crossOriginIsolated needs a secure context, which plain http only is on
	// localhost. Set HOST=0.0.0.0 in a container or behind a TLS-terminating proxy.
	const host = process.env.HOST ?? '127.0.0.1';
	const server = createServer(
		withCrossOriginIsolation(withLtiFormPosts(await loadHandler(handlerUrl)))
	);
	server.listen(port, host, () => {
		console.log(`Threadline listening on http://${host}:${port}`);
	});
	for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
		process.once(signal, () => {
			server.close(() => process.exit(0));
			server.closeAllConnections();
		});
	}
}

const isEntryPoint =
	process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

/**
 * The entry point: a server that cannot start (a missing build, invalid class settings) prints
 * why and exits 1, even if something it opened would keep the process alive.
 * @param {{ handlerUrl?: URL }} [options]
 */
export function main(options) {
	return start(options).catch((error) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}

if (isEntryPoint) void main();
