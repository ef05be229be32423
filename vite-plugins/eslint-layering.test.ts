import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// Lints snippets as if they lived in the layers, so a loosened eslint.config.js fails here.
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

let eslint: ESLint;

beforeAll(() => {
	eslint = new ESLint({ cwd: repositoryRoot, overrideConfigFile: 'eslint.config.js' });
});

async function lint(code: string, filePath: string): Promise<Linter.LintMessage[]> {
	const [result] = await eslint.lintText(code, { filePath });
	if (result === undefined) throw new Error(`ESLint returned no result for ${filePath}`);
	return result.messages;
}

function ruleIds(messages: Linter.LintMessage[]): (string | null)[] {
	return messages.map((message) => message.ruleId);
}

describe('hooks/ layering', () => {
	it.each([
		['../sandbox/x.js', 'sandbox/'],
		['../../sandbox/local/local-sandbox.js', 'sandbox/'],
		['../app/lib/state.js', 'app/'],
		['$lib/state.js', 'app/'],
		['$app/environment', 'Svelte'],
		['svelte', 'Svelte'],
		['svelte/store', 'Svelte'],
		['node:fs', 'Node built-ins'],
		['node:fs/promises', 'Node built-ins'],
		['fs', 'Node built-ins'],
		['path', 'Node built-ins'],
		['child_process', 'Node built-ins']
	])('rejects an import of %s', async (source, reason) => {
		const messages = await lint(
			`import * as dependency from '${source}';\nvoid dependency;\n`,
			'hooks/x.ts'
		);
		expect(ruleIds(messages)).toEqual(['no-restricted-imports']);
		expect(messages[0]?.message).toContain('hooks/ is pure');
		expect(messages[0]?.message).toContain(reason);
	});

	it('rejects a type-only import of sandbox/ too', async () => {
		const messages = await lint(
			"import type { Sandbox } from '../sandbox/sandbox.js';\nexport type Alias = Sandbox;\n",
			'hooks/x.ts'
		);
		expect(ruleIds(messages)).toEqual(['no-restricted-imports']);
	});

	it('rejects a re-export from sandbox/ and a dynamic import of a Node built-in', async () => {
		const messages = await lint(
			"export * from '../sandbox/x.js';\nexport const load = () => import('node:fs');\n",
			'hooks/x.ts'
		);
		expect(ruleIds(messages)).toEqual(['no-restricted-imports', 'no-restricted-syntax']);
	});

	it.each(['window', 'document', 'indexedDB', 'localStorage', 'fetch', 'process', 'navigator'])(
		'rejects the global %s with a port hint',
		async (name) => {
			const messages = await lint(`export const value = ${name};\n`, 'hooks/x.ts');
			expect(ruleIds(messages)).toEqual(['no-restricted-globals']);
			expect(messages[0]?.message).toContain('Inject a port');
		}
	);

	it.each(['setTimeout', 'setInterval', 'clearTimeout', 'requestAnimationFrame'])(
		'rejects the timer %s with a scheduler hint',
		async (name) => {
			const messages = await lint(`${name}(() => undefined, 10);\n`, 'hooks/x.ts');
			expect(ruleIds(messages)).toEqual(['no-restricted-globals']);
			expect(messages[0]?.message).toContain(
				`hooks/ is pure: it must run unchanged in a browser, a Worker and Node. Inject a scheduler/clock port instead of \`${name}\`.`
			);
		}
	);

	it('rejects reaching the same globals through globalThis', async () => {
		const messages = await lint(
			"export const load = () => globalThis.fetch('/x');\nglobalThis.setTimeout(() => undefined);\n",
			'hooks/x.ts'
		);
		expect(ruleIds(messages)).toEqual(['no-restricted-properties', 'no-restricted-properties']);
	});

	it('rejects the banned globals in plain .js files in hooks/ as well', async () => {
		const messages = await lint('export const value = window;\n', 'hooks/x.js');
		expect(ruleIds(messages)).toContain('no-restricted-globals');
	});

	it('accepts pure code: own modules, packages, universal globals, globalThis.crypto', async () => {
		const code = [
			"import { parse } from 'yaml';",
			"import type { ToolError } from '../errors/tool-error.js';",
			"import { toolError } from '../errors/tool-error.js';",
			'export async function digest(text: string): Promise<ArrayBuffer> {',
			'\treturn globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));',
			'}',
			'export const parsed: unknown = parse("a: 1");',
			'export const error: ToolError = toolError("invalid_input", "m", "s");',
			'export const url = new URL("https://example.test/");',
			''
		].join('\n');
		expect(await lint(code, 'hooks/hashing/x.ts')).toEqual([]);
	});

	it('lets tests of hooks/ use Node, but not import sandbox/', async () => {
		const nodeTest = [
			"import { readFileSync } from 'node:fs';",
			"import { it } from 'vitest';",
			"it('reads', () => { readFileSync(process.cwd()); setTimeout(() => undefined); });",
			''
		].join('\n');
		expect(await lint(nodeTest, 'hooks/x.test.ts')).toEqual([]);

		const layeringTest =
			"import { it } from 'vitest';\nimport '../sandbox/x.js';\nit('x', () => {});\n";
		expect(ruleIds(await lint(layeringTest, 'hooks/x.test.ts'))).toEqual(['no-restricted-imports']);
	});
});

describe('sandbox/ layering', () => {
	it('rejects a value import from hooks/', async () => {
		const messages = await lint(
			"import { toolError } from '../hooks/errors/tool-error.js';\nexport const value = toolError;\n",
			'sandbox/x.ts'
		);
		expect(ruleIds(messages)).toEqual(['no-restricted-imports']);
		expect(messages[0]?.message).toContain('only types from hooks/');
	});

	it('rejects a mixed import that carries one value', async () => {
		const messages = await lint(
			"import { type ToolError, toolError } from '../../hooks/errors/tool-error.js';\nexport const value: ToolError = toolError('invalid_input', 'm', 's');\n",
			'sandbox/local/x.ts'
		);
		expect(ruleIds(messages)).toEqual(['no-restricted-imports']);
	});

	it('accepts type-only imports and re-exports from hooks/', async () => {
		const code = [
			"import type { SandboxFileSystem } from '../hooks/tools/sandbox-ports.js';",
			"import { type ToolError } from '../hooks/errors/tool-error.js';",
			"export type { Decision } from '../hooks/pipeline/decision.js';",
			'export type Both = SandboxFileSystem | ToolError;',
			''
		].join('\n');
		expect(await lint(code, 'sandbox/x.ts')).toEqual([]);
	});

	it('rejects imports from app/', async () => {
		const messages = await lint(
			"import { state } from '../app/lib/state.js';\nimport { other } from '$lib/other.js';\nexport const value = [state, other];\n",
			'sandbox/x.ts'
		);
		expect(ruleIds(messages)).toEqual(['no-restricted-imports', 'no-restricted-imports']);
		expect(messages[0]?.message).toContain('sandbox/ must not import from app/');
	});

	it('may use browser APIs', async () => {
		const code = 'export const start = () => setTimeout(() => fetch("/x"), 10);\n';
		expect(await lint(code, 'sandbox/x.ts')).toEqual([]);
	});
});

describe('bin/ layering', () => {
	it('may import hooks/, sandbox/ and Node built-ins', async () => {
		const code = [
			"import { readFile } from 'node:fs/promises';",
			"import { toolError } from '../../hooks/errors/tool-error.js';",
			"import { createLocalSandbox } from '../../sandbox/local/local-sandbox.js';",
			'export const all = [readFile, toolError, createLocalSandbox, process.argv];',
			''
		].join('\n');
		expect(await lint(code, 'bin/cli/x.ts')).toEqual([]);
	});

	it('rejects app/ and Svelte imports', async () => {
		const code = [
			"import { state } from '../../app/lib/state.js';",
			"import { browser } from '$app/environment';",
			'export const all = [state, browser];',
			''
		].join('\n');
		const messages = await lint(code, 'bin/cli/x.ts');
		expect(ruleIds(messages)).toEqual(['no-restricted-imports', 'no-restricted-imports']);
		expect(messages[0]?.message).toContain('bin/ must not import from app/');
	});
});

describe('app/', () => {
	it('may import hooks/ and sandbox/ values', async () => {
		const code = [
			"import { toolError } from '../../hooks/errors/tool-error.js';",
			"import { createSandbox } from '../../sandbox/create-sandbox.js';",
			'export const both = [toolError, createSandbox, window];',
			''
		].join('\n');
		expect(await lint(code, 'app/lib/x.ts')).toEqual([]);
	});
});

describe('server/ stays out of client code', () => {
	it.each([
		['app/lib/class/x.ts', '../../../server/class-service.js'],
		['app/routes/+page.svelte.ts', '../../server/tokens.js'],
		['app/routes/api/class/key/helper.ts', '../../../../../server/class-runtime.js'],
		['app/routes/api/chat/+page.server.ts', '../../../../server/class-runtime.js'],
		['sandbox/local/x.ts', '../../server/storage/class-store.js'],
		['hooks/ledger/x.ts', '../../server/witness/receipt.js'],
		['vite-plugins/x.ts', '../server/tokens.js']
	])('rejects %s importing %s', async (filePath, source) => {
		const messages = await lint(
			`import * as dependency from '${source}';\nvoid dependency;\n`,
			filePath
		);
		expect(ruleIds(messages)).toContain('no-restricted-imports');
		expect(messages.map((message) => message.message).join('\n')).toContain('server/ is Node-only');
	});

	it.each([
		['app/routes/api/class/key/+server.ts', '../../../../../server/class-runtime.js'],
		['app/routes/api/chat/+server.ts', '../../../../server/class-runtime.js'],
		['app/hooks.server.ts', '../server/class-runtime.js'],
		['bin/cli/x.ts', '../../server/witness/receipt.js'],
		['app/lib/class/x.test.ts', '../../../server/class-service.js'],
		['server/x.ts', './storage/class-store.js']
	])('allows %s importing %s', async (filePath, source) => {
		const messages = await lint(
			`import * as dependency from '${source}';\nvoid dependency;\n`,
			filePath
		);
		expect(messages.filter((message) => message.ruleId === 'no-restricted-imports')).toEqual([]);
	});

	it('does not confuse packages named …/server with our folder', async () => {
		const messages = await lint(
			"import * as dependency from 'svelte/server';\nvoid dependency;\n",
			'app/lib/x.ts'
		);
		expect(messages.filter((message) => message.ruleId === 'no-restricted-imports')).toEqual([]);
	});
});
