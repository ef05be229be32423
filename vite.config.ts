import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';
import { crossOriginIsolation } from './vite-plugins/cross-origin-isolation.js';

export default defineConfig({
	// Cross-origin isolation first: its middleware must run before SvelteKit's.
	plugins: [crossOriginIsolation(), sveltekit()],
	test: {
		environment: 'node',
		include: ['{hooks,sandbox,bin,app,bench,vite-plugins}/**/*.test.ts'],
		// Scenario and fixture workspaces contain learners' test files, not ours.
		exclude: ['**/fixtures/**', '**/node_modules/**', 'public/scenarios/**'],
		testTimeout: 30_000
	}
});
