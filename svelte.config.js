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
		}
	}
};

export default config;
