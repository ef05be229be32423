import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../sandbox.js';
import { createLocalSandbox as createLocalSandboxWithoutReview } from './local-sandbox.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';
import { nodeCommandHelp, parseNodeArguments } from './node-command.js';
import { committingEverything } from '../contract/committing-sandbox.js';

// These tests are about what commands do: every change is committed (see committing-sandbox.ts).
const createLocalSandbox = async (
	...parameters: Parameters<typeof createLocalSandboxWithoutReview>
) => committingEverything(await createLocalSandboxWithoutReview(...parameters));

describe('parseNodeArguments', () => {
	it('reads -e, -p, a file, stdin and the informational options', () => {
		expect(parseNodeArguments(['-e', 'code', 'a'])).toEqual({
			kind: 'run',
			mode: 'eval',
			script: 'code',
			scriptArguments: ['a']
		});
		expect(parseNodeArguments(['--print=1+1'])).toMatchObject({ mode: 'print', script: '1+1' });
		expect(parseNodeArguments(['app.js', '-e', 'x'])).toEqual({
			kind: 'run',
			mode: 'file',
			script: 'app.js',
			scriptArguments: ['-e', 'x']
		});
		expect(parseNodeArguments([])).toMatchObject({ mode: 'stdin' });
		expect(parseNodeArguments(['-'])).toMatchObject({ mode: 'stdin' });
		expect(parseNodeArguments(['--', '-odd.js'])).toMatchObject({
			mode: 'file',
			script: '-odd.js'
		});
		expect(parseNodeArguments(['--help'])).toEqual({ kind: 'help' });
		expect(parseNodeArguments(['-v'])).toEqual({ kind: 'version' });
	});

	it('says what is wrong with a bad command line', () => {
		expect(parseNodeArguments(['-e'])).toEqual({
			kind: 'error',
			message: 'node: -e requires an argument'
		});
		expect(parseNodeArguments(['--inspect', 'app.js'])).toMatchObject({
			kind: 'error',
			message: expect.stringMatching(/bad option: --inspect/)
		});
	});
});

describe('the node command (QuickJS)', () => {
	let sandbox: Sandbox;
	const run = (command: string) => sandbox.exec(command);

	beforeAll(async () => {
		sandbox = await createLocalSandbox({
			files: new MemoryWorkspaceFiles({
				'scripts/hello.js':
					'#!/usr/bin/env node\nconsole.log("hello", process.argv.slice(2).join("+"));\n',
				'scripts/fail.js':
					'function explode() {\n  throw new TypeError("bad input");\n}\nexplode();\n',
				'scripts/module.mjs': "import fs from 'node:fs';\nconsole.log(fs);\n"
			}),
			nodeLimits: { timeLimitMs: 400, memoryLimitBytes: 16 * 1024 * 1024 }
		});
	});

	afterAll(async () => {
		await sandbox.dispose();
	});

	it('evaluates -e and prints with console.log', async () => {
		const result = await run('node -e "console.log(1+1)"');
		expect(result).toMatchObject({ exitCode: 0, output: '2\n', interrupted: false });
	});

	it('runs a workspace file relative to the working folder, with its arguments', async () => {
		expect((await run('node scripts/hello.js a b')).output).toBe('hello a+b\n');
		const inFolder = await sandbox.exec('node hello.js x', { cwd: 'scripts' });
		expect(inFolder.output).toBe('hello x\n');
	});

	it('sends console.error to stderr and formats values like Node', async () => {
		const result = await run(
			`node -e "console.log({ a: 1, b: 'x', c: [1, 2], d: null }, 'plain', 3n); console.error('oops %d', 4)" 2>err.txt`
		);
		expect(result.output).toBe("{ a: 1, b: 'x', c: [ 1, 2 ], d: null } plain 3n\n");
		expect(await sandbox.fs.readTextFile('err.txt')).toBe('oops 4\n');
		await sandbox.fs.rm('err.txt');
	});

	it('exits with 1 and the error on an uncaught exception', async () => {
		const result = await run('node scripts/fail.js');
		expect(result.exitCode).toBe(1);
		expect(result.output).toMatch(
			/^TypeError: bad input\n\s+at explode \(\/workspace\/scripts\/fail\.js:2/
		);
	});

	it('explains what is not available offline: npm packages, network modules', async () => {
		const required = await run(`node -e "require('express')"`);
		expect(required.exitCode).toBe(1);
		expect(required.output).toMatch(
			/packages from npm are not available offline; use the WebContainer sandbox/
		);
		expect(required.output).not.toContain('threadline:');
		const workers = await run(`node -e "require('node:worker_threads')"`);
		expect(workers.exitCode).toBe(1);
		expect(workers.output).toMatch(/node:worker_threads is not available in the offline runtime/);
		// node:http loads (libraries read its STATUS_CODES), but serves and requests nothing.
		const http = await run(`node -e "require('node:http').createServer()"`);
		expect(http.exitCode).toBe(1);
		expect(http.output).toMatch(/http\.createServer is not available in the offline sandbox/);
		const imported = await run('node scripts/module.mjs');
		expect(imported.exitCode).toBe(0);
		expect(imported.output).toMatch(/readFileSync/);
		expect((await run('node -e "fetch"')).exitCode).toBe(1);
	});

	it('ends an endless loop at its time limit', async () => {
		const started = Date.now();
		const result = await run('node -e "while(true){}"');
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(result.exitCode).toBe(124);
		expect(result.output).toMatch(/ran past its time limit/);
	});

	it('ends a script that eats memory', async () => {
		const result = await run('node -e "const a = []; for (;;) a.push(new Array(1000).fill(1))"');
		// Which limit comes first depends on the machine's speed (400 ms here); the memory limit
		// itself is tested with room to reach it in quickjs-memory-limit.test.ts.
		expect([124, 134]).toContain(result.exitCode);
		expect(result.output).toMatch(/out of memory \(limit 16 MiB\)|ran past its time limit/);
	});

	it('stops deep recursion inside the VM', async () => {
		const result = await run('node -e "function f(n) { return f(n + 1) + 1 } f(0)"');
		expect(result.exitCode).toBe(1);
		expect(result.output).toMatch(/^InternalError: stack overflow/);
		expect(result.output.split('\n').length).toBeLessThan(20);
		// The module survived: the next script runs.
		expect((await run('node -e "console.log(7)"')).output).toBe('7\n');
	});

	it('honours process.exit and process.exitCode, and stops printing at exit', async () => {
		const exit = await run(
			'node -e "console.log(1); try { process.exit(3) } catch (e) {} console.log(2)"'
		);
		expect(exit).toMatchObject({ exitCode: 3, output: '1\n' });
		expect((await run('node -e "process.exitCode = 5"')).exitCode).toBe(5);
	});

	it('prints an expression with -p, reads a script from stdin', async () => {
		expect((await run('node -p "[1, 2, 3].map((n) => n * 2)"')).output).toBe('[ 2, 4, 6 ]\n');
		expect((await run(`echo 'console.log("from stdin")' | node`)).output).toBe('from stdin\n');
	});

	it('runs promises and timers (on virtual time) after the script', async () => {
		const result = await run(
			`node -e "setTimeout(() => console.log('late'), 1000); setTimeout(() => console.log('soon'), 10); Promise.resolve().then(() => console.log('micro')); (async () => { await null; console.log('async') })(); console.log('sync')"`
		);
		expect(result.output).toBe('sync\nmicro\nasync\nsoon\nlate\n');
	});

	it('passes exported variables as process.env', async () => {
		const result = await run('export GREETING=hi; node -e "console.log(process.env.GREETING)"');
		expect(result.output).toBe('hi\n');
	});

	it('shows help and a version, and rejects unknown options', async () => {
		expect((await run('node --help')).output).toBe(nodeCommandHelp);
		expect((await run('node --version')).output).toMatch(/quickjs/i);
		const bad = await run('node --inspect x.js');
		expect(bad.exitCode).toBe(9);
		expect(bad.output).toMatch(/bad option/);
	});

	it('says clearly when the script file is missing', async () => {
		const result = await run('node missing.js');
		expect(result.exitCode).toBe(1);
		expect(result.output).toMatch(
			/cannot find module '\/workspace\/missing\.js' \(no such file: missing\.js\)/
		);
	});

	it('is listed among the commands and found by which', async () => {
		expect(sandbox.capabilities.commands).toContain('node');
		expect((await run('which node')).output).toBe('/usr/bin/node\n');
	});
});
