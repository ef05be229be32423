import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox.js';
import { createLocalSandbox as createLocalSandboxWithoutReview } from '../local-sandbox.js';
import { MemoryWorkspaceFiles } from '../memory-workspace-files.js';
import { committingEverything } from '../../contract/committing-sandbox.js';

// These tests are about what commands do: every change is committed (see committing-sandbox.ts).
const createLocalSandbox = async (
	...parameters: Parameters<typeof createLocalSandboxWithoutReview>
) => committingEverything(await createLocalSandboxWithoutReview(...parameters));

/** What only the offline runtime does (real Node has npm and the network; see the conformance suite for the rest). */

const fixtures = fileURLToPath(new URL('./offline-fixtures/', import.meta.url));

function filesOf(root: string): Record<string, string> {
	const files: Record<string, string> = {};
	const visit = (at: string) => {
		for (const name of readdirSync(at)) {
			const path = join(at, name);
			if (statSync(path).isDirectory()) visit(path);
			else files[relative(root, path)] = readFileSync(path, 'utf8');
		}
	};
	visit(root);
	return files;
}

describe('the offline Node runtime', () => {
	let sandbox: Sandbox;
	let files: MemoryWorkspaceFiles;
	const run = (command: string) => sandbox.exec(command, { timeoutMs: 30_000 });

	beforeAll(async () => {
		files = new MemoryWorkspaceFiles({
			...filesOf(fixtures),
			'package.json': JSON.stringify({
				name: 'demo',
				version: '1.0.0',
				type: 'module',
				scripts: {
					test: 'node --test',
					pretest: 'echo before-tests',
					build: 'vitest run',
					hello: 'node hello.ts',
					failing: 'node -e "process.exit(7)"'
				}
			}),
			'hello.ts': 'const who: string = process.argv[2] ?? "world";\nconsole.log(`hello ${who}`);\n',
			'math.test.ts':
				"import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('adds', () => assert.equal(1 + 1, 2));\ntest('breaks', () => assert.equal(1 + 1, 3, 'one plus one is two'));\n",
			'src/ok.test.mjs': "import { test } from 'node:test';\ntest('fine', () => {});\n",
			'src/stack.ts':
				'type Point = { x: number };\n\n\nexport function fail(point: Point): never {\n\tthrow new Error(`bad point ${point.x}`);\n}\nfail({ x: 1 });\n',
			'src/component.tsx':
				'const React = { createElement: (tag: string, props: unknown, ...children: unknown[]) => ({ tag, children }) };\nconsole.log(JSON.stringify(<b>{"bold"}</b>));\n',
			'writer.mjs':
				"import { writeFileSync, mkdirSync } from 'node:fs';\nmkdirSync('out', { recursive: true });\nwriteFileSync('out/result.txt', 'written by node\\n');\nconsole.log('done');\n",
			'escape.mjs':
				"import { writeFileSync } from 'node:fs';\ntry { writeFileSync('/etc/passwd', 'x'); } catch (error) { console.log(error.code); }\ntry { writeFileSync('../outside.txt', 'x'); } catch (error) { console.log(error.code); }\n"
		});
		sandbox = await createLocalSandbox({ files });
	});

	afterAll(async () => {
		await sandbox.dispose();
	});

	it('names npm packages as unavailable offline, and unavailable Node modules too, without crashing', async () => {
		const express = await run(
			`node -e "import('express').catch((error) => console.log(error.message))"`
		);
		expect(express.output).toMatch(
			/Cannot find package 'express'.*packages from npm are not available offline; use the WebContainer sandbox/
		);
		const required = await run(`node -e "require('lodash')"`);
		expect(required.exitCode).toBe(1);
		expect(required.output).toMatch(/packages from npm are not available offline/);
		const worker = await run(`node -e "require('worker_threads')"`);
		expect(worker.output).toMatch(/'worker_threads' is not available in the offline runtime/);
	});

	it('loads http and child_process, but never opens a socket or starts a process', async () => {
		const http = await run(
			`node -e "const http = require('node:http'); console.log(http.STATUS_CODES[404]); try { http.createServer(); } catch (error) { console.log(error.code); }"`
		);
		expect(http.output).toBe('Not Found\nERR_OFFLINE\n');
		const child = await run(
			`node -e "const { spawnSync, spawn } = require('child_process'); console.log(spawnSync('node', ['-v']).error.code); spawn('ls').on('error', (error) => console.log('async', error.code))"`
		);
		expect(child.output).toBe('ENOSYS\nasync ENOSYS\n');
	});

	it("runs node:test's mock timers, and fails the running test on an uncaught timer error", async () => {
		await files.write(
			'timers.test.mjs',
			new TextEncoder().encode(
				[
					"import { test } from 'node:test';",
					"test('ticks', (t) => { t.mock.timers.enable({ apis: ['setTimeout', 'Date'] }); let fired = 0; setTimeout(() => fired++, 50); t.mock.timers.tick(49); t.assert.equal(fired, 0); t.mock.timers.tick(1); t.assert.equal(fired, 1); t.assert.equal(Date.now(), 50); });",
					"test('restored after the test', (t) => { t.assert.notEqual(Date.now(), 50); });",
					"test('throws later', (t, done) => { setTimeout(() => { throw new Error('late'); }, 1); });",
					"test('still runs', () => {});"
				].join('\n')
			)
		);
		const result = await run('node --test timers.test.mjs');
		// The other tests count the workspace's test files.
		await files.delete('timers.test.mjs');
		expect(result.output).toMatch(/^ok 1 - ticks$/m);
		expect(result.output).toMatch(/^ok 2 - restored after the test$/m);
		expect(result.output).toMatch(
			/^not ok 3 - throws later\n(.*\n)*?\s+failureType: 'uncaughtException'\n\s+error: \|-\n\s+late$/m
		);
		expect(result.output).toMatch(/^ok 4 - still runs$/m);
		expect(result.output).toMatch(/^# pass 3\n# fail 1$/m);
		expect(result.exitCode).toBe(1);
	});

	it('resolves workspace packages by name, with their exports conditions', async () => {
		const result = await run('node workspace-package.mjs');
		expect(result).toMatchObject({ exitCode: 0, output: 'esm extra\n' });
		const required = await run(`node -e "console.log(require('local-lib').kind)"`);
		expect(required.output).toBe('cjs\n');
	});

	it('runs TypeScript and TSX, with stack traces on the TypeScript lines', async () => {
		expect((await run('node hello.ts Ada')).output).toBe('hello Ada\n');
		expect((await run('npx tsx hello.ts')).output).toBe('hello world\n');
		const stack = await run('node src/stack.ts');
		expect(stack.exitCode).toBe(1);
		expect(stack.output).toMatch(
			/^Error: bad point 1\n\s+at fail \(\/workspace\/src\/stack\.ts:5:/
		);
		expect((await run('node src/component.tsx')).output).toBe('{"tag":"b","children":["bold"]}\n');
	});

	it('writes through the shell: the command reports every file node wrote', async () => {
		const result = await run('node writer.mjs');
		expect(result.output).toBe('done\n');
		expect(result.changes.map((change) => `${change.type} ${change.path}`)).toEqual([
			'created out/result.txt'
		]);
		expect(new TextDecoder().decode(await files.read('out/result.txt'))).toBe('written by node\n');
	});

	it('refuses writes outside the workspace and /tmp', async () => {
		const result = await run('node escape.mjs');
		expect(result.output).toBe('EACCES\nEACCES\n');
		expect(result.changes).toEqual([]);
	});

	it('node --test finds test files, prints TAP with the failing assertion, and exits 1', async () => {
		const result = await run('node --test');
		expect(result.exitCode).toBe(1);
		expect(result.output).toMatch(/^not ok 2 - breaks$/m);
		expect(result.output).toMatch(/one plus one is two/);
		expect(result.output).toMatch(/^ok 3 - fine$/m);
		expect(result.output).toMatch(/^# tests 3\n# suites 0\n# pass 2\n# fail 1$/m);
		const folder = await run('node --test src');
		expect(folder.exitCode).toBe(0);
		expect(folder.output).toMatch(/^# tests 1$/m);
		expect((await run('node --test nowhere')).output).toMatch(
			/could not find \/workspace\/nowhere/
		);
	});

	it('npm runs scripts with their pre-scripts and arguments, and says what it cannot do', async () => {
		const hello = await run('npm run hello -- Grace');
		expect(hello.exitCode).toBe(0);
		expect(hello.output).toContain('> node hello.ts Grace\n');
		expect(hello.output).toContain('hello Grace\n');
		const test = await run('npm test');
		expect(test.output).toContain('before-tests');
		expect(test.exitCode).toBe(1);
		const failing = await run('npm run failing');
		expect(failing.exitCode).toBe(7);
		const vitest = await run('npm run build');
		expect(vitest.exitCode).toBe(1);
		expect(vitest.output).toMatch(/`vitest` is not available in the offline sandbox/);
		const install = await run('npm install express');
		expect(install.exitCode).toBe(1);
		expect(install.output).toMatch(/npm install needs the npm registry.*WebContainer sandbox/);
		expect((await run('npm run nothing')).output).toMatch(/Missing script: "nothing"/);
		expect((await run('npx cowsay hi')).output).toMatch(/cowsay is not available offline/);
		expect((await run('tsc --noEmit')).output).toMatch(
			/tsc is not available in the offline sandbox/
		);
	});
});
