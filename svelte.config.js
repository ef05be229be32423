import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
	preprocess: vitePreprocess(),
	kit: {
		adapter: adapter(),
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
