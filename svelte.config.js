import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/**
 * The Content-Security-Policy of every page (dev, preview and production: SvelteKit sends it as a
 * header with a nonce for its inline start-up script; a prerendered page would carry it as a
 * meta tag with the script's hash). Defence in depth behind sanitized markdown: a scenario's
 * brief or a model's answer cannot load anything from another origin (a tracking pixel, a
 * stylesheet, a font, a frame), nor run a script that is not ours.
 *
 * - Scripts and workers come from this origin only; `'wasm-unsafe-eval'` lets QuickJS and other
 *   WebAssembly compile, never `eval` (zod then parses without compiling its schemas to code).
 * - Styles may be inline: Monaco, xterm and Svelte set them at run time. Their `url()`s are still
 *   bound by img-src and font-src.
 * - connect-src stays open: people bring their own model provider (OpenAI, Anthropic, Google,
 *   OpenRouter, any OpenAI-compatible base URL, Ollama on http://localhost or the local network),
 *   remote scenarios come from any https host, and the class server may live elsewhere.
 * - Frames: WebContainer boots in an iframe from StackBlitz.
 *
 * `public/_headers` repeats the directives that need no script hash for static hosts (a test
 * keeps them equal).
 *
 * @type {NonNullable<import('@sveltejs/kit').KitConfig['csp']>['directives']}
 */
export const contentSecurityPolicy = {
	'default-src': ['self'],
	'script-src': ['self', 'wasm-unsafe-eval'],
	'worker-src': ['self', 'blob:'],
	'style-src': ['self', 'unsafe-inline'],
	'img-src': ['self', 'data:', 'blob:'],
	'media-src': ['self', 'data:', 'blob:'],
	'font-src': ['self', 'data:'],
	'connect-src': ['self', 'https:', 'wss:', 'http:', 'ws:', 'data:', 'blob:'],
	'frame-src': [
		'self',
		'blob:',
		'https://stackblitz.com',
		'https://*.stackblitz.com',
		'https://*.staticblitz.com',
		'https://*.webcontainer-api.io',
		'https://*.webcontainer.io'
	],
	'manifest-src': ['self'],
	'object-src': ['none'],
	'base-uri': ['self'],
	'form-action': ['self'],
	'frame-ancestors': ['self']
};

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		adapter: adapter(),
		csp: { mode: 'auto', directives: contentSecurityPolicy },
		files: {
			src: 'app',
			assets: 'public',
			lib: 'app/lib',
			routes: 'app/routes',
			appTemplate: 'app/app.html',
			hooks: { server: 'app/hooks.server', client: 'app/hooks.client', universal: 'app/hooks' },
			serviceWorker: 'app/service-worker',
			params: 'app/params'
		},
		typescript: {
			// The generated tsconfig only covers app/; type-check every layer and the tooling too, so
			// `npm run check` and `tsc -p tsconfig.json` see hooks/, sandbox/, bin/ and the configs.
			config(tsconfig) {
				tsconfig.include.push(
					'../hooks/**/*.ts',
					'../sandbox/**/*.ts',
					'../bin/**/*.ts',
					'../bin/**/*.js',
					'../bench/**/*.ts',
					'../e2e/**/*.ts',
					'../vite-plugins/**/*.ts',
					'../playwright.config.ts',
					'../svelte.config.js',
					'../eslint.config.js',
					'../server.js'
				);
			}
		}
	}
};

export default config;
