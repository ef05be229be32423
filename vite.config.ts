import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';
import { crossOriginIsolation } from './vite-plugins/cross-origin-isolation.js';
import { monacoContributionsFromEntryOnly } from './vite-plugins/monaco-contributions.js';

export default defineConfig({
	// Cross-origin isolation first: its middleware must run before SvelteKit's.
	plugins: [crossOriginIsolation(), monacoContributionsFromEntryOnly(), sveltekit()],
	resolve: {
		alias: [
			// monaco-yaml's worker imports a path that Monaco 0.57's exports map no longer provides.
			{
				find: /^monaco-editor\/esm\/vs\/editor\/editor\.worker\.js$/,
				replacement: 'monaco-editor/editor/editor.worker.js'
			}
		]
	},
	// Module workers: same-origin, bundled, allowed under COEP require-corp.
	worker: { format: 'es' },
	test: {
		environment: 'node',
		include: ['{hooks,sandbox,bin,app,bench,vite-plugins,server}/**/*.test.ts'],
		// Scenario and fixture workspaces contain learners' test files, not ours.
		exclude: ['**/fixtures/**', '**/node_modules/**', 'public/scenarios/**'],
		testTimeout: 30_000
	}
});
