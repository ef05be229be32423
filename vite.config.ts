import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	test: {
		environment: 'node',
		include: ['{hooks,sandbox,bin,app,bench}/**/*.test.ts'],
		testTimeout: 30_000
	}
});
