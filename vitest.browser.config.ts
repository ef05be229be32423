import { svelte } from '@sveltejs/vite-plugin-svelte';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import { chromiumArguments, chromiumExecutablePath } from './e2e/chromium.js';
import { setCrossOriginIsolationHeaders } from './vite-plugins/cross-origin-isolation.js';

/**
 * Vitest browser mode in Debian's Chromium for what only a real browser proves: the shell Worker
 * (terminated on a runaway loop), IndexedDB, and QuickJS's wasm loading through Vite under the
 * IDE's cross-origin isolation (COEP require-corp, so every asset must be same-origin).
 *
 *   npx vitest run --config vitest.browser.config.ts --project browser         the tests
 *   npx vitest run --config vitest.browser.config.ts --project browser-bench   the figures
 *
 * Files are named `*.browser.spec.ts` / `*.browser-bench.ts` so the Node run (vite.config.ts,
 * `**\/*.test.ts`) never picks them up.
 */
/**
 * The IDE's headers on every response of the test server, Vitest's own pages included (its
 * middleware answers them before a plain plugin's would run), so the tests see the IDE's rules.
 */
function crossOriginIsolatedTestServer(): Plugin {
	return {
		name: 'threadline:cross-origin-isolated-test-server',
		enforce: 'pre',
		configureServer(server) {
			server.middlewares.use(setCrossOriginIsolationHeaders);
		}
	};
}

export default defineConfig({
	plugins: [crossOriginIsolatedTestServer()],
	optimizeDeps: {
		// Found up front, so the optimizer never reloads the page halfway through a run when the
		// Worker first imports them.
		include: [
			'just-bash',
			'idb',
			'quickjs-emscripten-core',
			'@jitl/quickjs-wasmfile-release-sync',
			'@jitl/quickjs-wasmfile-release-sync/emscripten-module',
			// Loaded lazily by the Worker's runtime, search and verify: listed for the same reason.
			'sucrase',
			're2js',
			'fflate',
			// The governance components' dependencies (Monaco and its YAML worker included): one
			// discovered mid-run makes Vite re-optimize, and the page then fails to fetch the old
			// chunks ("Failed to fetch dynamically imported module").
			'monaco-editor',
			'monaco-yaml',
			'monaco-yaml/yaml.worker.js',
			'marked',
			'dompurify',
			'yaml',
			'zod',
			'minimatch',
			'diff',
			'acorn',
			'@sveltejs/acorn-typescript',
			// The approval diff's contrast check (approval-diff.browser.spec.ts).
			'axe-core'
		]
	},
	worker: { format: 'es' },
	test: {
		testTimeout: 60_000,
		browser: {
			enabled: true,
			headless: true,
			// These tests have nothing to see; failure screenshots would only litter the tree.
			screenshotFailures: false,
			provider: playwright({
				launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArguments }
			}),
			instances: [{ browser: 'chromium' }]
		},
		projects: [
			{
				extends: true,
				test: {
					name: 'browser',
					include: [
						'sandbox/**/*.browser.spec.ts',
						'app/lib/ledger/**/*.browser.spec.ts',
						'app/lib/markdown/**/*.browser.spec.ts'
					]
				}
			},
			{
				// The governance components (approval modal, settings, intents and trace panels),
				// compiled by the Svelte plugin and rendered in Chromium with real Monaco.
				extends: true,
				plugins: [svelte()],
				resolve: {
					conditions: ['browser'],
					alias: [
						{
							find: /^monaco-editor\/esm\/vs\/editor\/editor\.worker\.js$/,
							replacement: 'monaco-editor/editor/editor.worker.js'
						}
					]
				},
				test: {
					name: 'browser-components',
					include: [
						'app/lib/governance-ui/**/*.browser.spec.ts',
						'app/lib/governance-panels/**/*.browser.spec.ts'
					]
				}
			},
			{
				extends: true,
				test: {
					name: 'browser-bench',
					include: ['sandbox/**/*.browser-bench.ts', 'app/lib/ledger/**/*.browser-bench.ts'],
					// One bench file at a time: run side by side on 2 cores, each figure measured the
					// others' load (a 1,000-file restore took 765 ms beside the 100k verify, 469 ms alone).
					fileParallelism: false
				}
			}
		]
	}
});
