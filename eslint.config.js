import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

// The import direction of DESIGN.md is enforced here and must not be relaxed:
//   app → hooks, sandbox;  sandbox → hooks (types only);  hooks → nothing of ours.
// vite-plugins/eslint-layering.test.ts proves each rule below still fires.

const testFiles = ['**/*.test.ts', '**/*.test.js', 'e2e/**'];

const hooksPure = 'hooks/ is pure: it must run unchanged in a browser, a Worker and Node.';

/** Globals that only exist in some runtimes; hooks/ reaches them through injected ports. */
const timerGlobals = [
	'setTimeout',
	'setInterval',
	'clearTimeout',
	'clearInterval',
	'setImmediate',
	'clearImmediate',
	'requestAnimationFrame',
	'cancelAnimationFrame',
	'requestIdleCallback',
	'cancelIdleCallback'
];
const environmentGlobals = [
	'window',
	'document',
	'self',
	'global',
	'location',
	'navigator',
	'indexedDB',
	'localStorage',
	'sessionStorage',
	'fetch',
	'XMLHttpRequest',
	'WebSocket',
	'process',
	'Buffer',
	'require',
	'__dirname',
	'__filename'
];

const restrictedHooksGlobals = [
	...timerGlobals.map((name) => ({
		name,
		message: `${hooksPure} Inject a scheduler/clock port instead of \`${name}\`.`
	})),
	...environmentGlobals.map((name) => ({
		name,
		message: `${hooksPure} Inject a port (hooks/pipeline/ports.ts) instead of \`${name}\`.`
	}))
];

// `globalThis.fetch(...)` would slip past no-restricted-globals.
const restrictedHooksProperties = restrictedHooksGlobals.map(({ name, message }) => ({
	object: 'globalThis',
	property: name,
	message
}));

/** Globals every runtime of hooks/ has (browser, Worker, Node): the shared set minus the banned. */
const bannedGlobalNames = new Set([...timerGlobals, ...environmentGlobals]);
const universalGlobals = Object.fromEntries(
	Object.entries(globals['shared-node-browser']).filter(([name]) => !bannedGlobalNames.has(name))
);

const nodeBuiltins = builtinModules.filter(
	(name) => !name.startsWith('_') && !name.startsWith('node:')
);

// server/ is the class server's Node-only code (database, signing key, tokens): it must never
// reach a client bundle. Only SvelteKit endpoints (app/routes/api/**/+server.ts), app/hooks.server.ts, server.js, bin/
// and tests may import it; everything else sees this pattern.
const serverOnlyPattern = {
	regex: '^(\\.{1,2}/)+server(/|$)',
	message:
		'server/ is Node-only (database, signing key, tokens) and must stay out of client code: import it only from app/routes/api/**/+server.ts, server.js, bin/ or tests.'
};

const appGroup = {
	group: ['**/app', '**/app/**', '$lib', '$lib/**'],
	message:
		'Only app/ composes the layers: nothing may import from app/ (or $lib, which is app/lib).'
};

/**
 * @param {{ allowNodeBuiltins: boolean }} options tests of hooks/ run in Node and may read fixtures
 * @returns {import('eslint').Linter.RuleEntry}
 */
function hooksImportRestrictions({ allowNodeBuiltins }) {
	const nodeMessage = `${hooksPure} No Node built-ins: take the capability as an injected port.`;
	return [
		'error',
		{
			paths: allowNodeBuiltins ? [] : nodeBuiltins.map((name) => ({ name, message: nodeMessage })),
			patterns: [
				{ ...appGroup, message: `${hooksPure} It must not import from app/ or $lib.` },
				{
					group: ['**/sandbox', '**/sandbox/**'],
					message: `${hooksPure} It must not import from sandbox/; sandbox/ depends on hooks/, not the reverse.`
				},
				{
					group: ['$app', '$app/**', 'svelte', 'svelte/**', '@sveltejs/**'],
					message: `${hooksPure} No Svelte or SvelteKit: keep framework code in app/.`
				},
				...(allowNodeBuiltins ? [] : [{ regex: '^node:', message: nodeMessage }]),
				serverOnlyPattern
			]
		}
	];
}

// esquery regexes cannot contain '/', so subpaths (fs/promises) match through their base name.
const topLevelNodeBuiltins = nodeBuiltins.filter((name) => !name.includes('/'));
const dynamicNodeImport = {
	selector: `ImportExpression[source.value=/^(node:|(${topLevelNodeBuiltins.join('|')})($|[^\\w-]))/]`,
	message: `${hooksPure} No Node built-ins, not even through import().`
};

export default defineConfig([
	globalIgnores([
		'build/',
		'.svelte-kit/',
		'node_modules/',
		'test-results/',
		'playwright-report/',
		'coverage/',
		'bench/results/',
		// Scenario files are learner material served as-is, not our source.
		'public/scenarios/'
	]),

	js.configs.recommended,
	tseslint.configs.recommended,
	// In eslint-plugin-svelte 3 `recommended` is the flat config (same object as 'flat/recommended').
	svelte.configs.recommended,

	{
		files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
		languageOptions: {
			parserOptions: {
				parser: tseslint.parser,
				extraFileExtensions: ['.svelte'],
				svelteConfig
			}
		}
	},

	{
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }
			]
		}
	},

	// Globals per layer. They merge across config objects, so hooks/ must never get a wide set.
	{
		files: ['app/**'],
		languageOptions: { globals: { ...globals.browser, ...globals.node } }
	},
	{
		files: ['sandbox/**'],
		languageOptions: { globals: { ...globals.browser, ...globals.worker } }
	},
	{
		// Node programs that the offline runtime runs (and real Node, to compare): Node's globals.
		files: [
			'sandbox/local/node-runtime/conformance/**',
			'sandbox/local/node-runtime/offline-fixtures/**'
		],
		languageOptions: { globals: globals.node },
		rules: { '@typescript-eslint/no-require-imports': 'off' }
	},
	{
		files: ['*.js', '*.ts', 'bin/**', 'bench/**', 'vite-plugins/**', ...testFiles],
		ignores: ['hooks/**'],
		languageOptions: { globals: globals.node }
	},

	{
		files: ['hooks/**'],
		languageOptions: { globals: universalGlobals },
		rules: {
			'no-restricted-imports': hooksImportRestrictions({ allowNodeBuiltins: false }),
			'no-restricted-globals': ['error', ...restrictedHooksGlobals],
			'no-restricted-properties': ['error', ...restrictedHooksProperties],
			'no-restricted-syntax': ['error', dynamicNodeImport]
		}
	},
	{
		// Tests of hooks/ run in Node: Node globals and built-ins are fine, the layering is not relaxed.
		files: ['hooks/**/*.test.ts', 'hooks/**/*.test.js'],
		languageOptions: { globals: { ...universalGlobals, ...globals.node } },
		rules: {
			'no-restricted-imports': hooksImportRestrictions({ allowNodeBuiltins: true }),
			'no-restricted-globals': 'off',
			'no-restricted-properties': 'off',
			'no-restricted-syntax': 'off'
		}
	},

	{
		// The CLI runs in plain Node: the Svelte app and SvelteKit's virtual modules do not exist there.
		files: ['bin/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							...appGroup,
							message:
								'bin/ must not import from app/ (or $lib): the CLI composes hooks/ and sandbox/.'
						},
						{
							group: ['$app', '$app/**', 'svelte', 'svelte/**'],
							message: 'bin/ runs in plain Node: no Svelte or SvelteKit modules.'
						}
					]
				}
			]
		}
	},

	{
		files: ['sandbox/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							group: ['**/hooks', '**/hooks/**'],
							allowTypeImports: true,
							message:
								'sandbox/ may import only types from hooks/ (`import type`); runtime logic belongs in hooks/ or app/.'
						},
						{
							...appGroup,
							message: 'sandbox/ must not import from app/ (or $lib, which is app/lib).'
						},
						serverOnlyPattern
					]
				}
			]
		}
	},

	{
		// app/ is client code except its endpoints: only those may reach server/.
		files: ['app/**', 'vite-plugins/**'],
		ignores: ['app/routes/api/**/+server.ts', 'app/hooks.server.ts', ...testFiles],
		rules: {
			'no-restricted-imports': ['error', { patterns: [serverOnlyPattern] }]
		}
	}
]);
