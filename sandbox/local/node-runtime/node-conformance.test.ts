import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox.js';
import { createLocalSandbox } from '../local-sandbox.js';
import { MemoryWorkspaceFiles } from '../memory-workspace-files.js';

/**
 * The conformance suite: small Node programs (conformance/) run by real Node (in a child
 * process; TypeScript through tsx) and by the offline runtime, outputs compared after the
 * normalisation below (timings, paths and stack frames differ by nature). Each program is one
 * test; the pass rate is printed at the end (THREADLINE_CONFORMANCE {json}).
 */

const folder = fileURLToPath(new URL('./conformance/', import.meta.url));
const programs = readdirSync(folder)
	.filter((name) => statSync(join(folder, name)).isFile())
	.sort();

// The programs run from a temporary copy, where `--import tsx` would not resolve.
const tsxLoader = new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

interface Run {
	stdout: string;
	stderr: string;
	exitCode: number;
}

function runRealNode(cwd: string, program: string): Promise<Run> {
	const args = program.endsWith('.ts') ? ['--import', tsxLoader, program] : [program];
	const testArgs = program.includes('.test.') ? ['--test-reporter=tap', ...args] : args;
	return new Promise((resolve) => {
		execFile(
			process.execPath,
			testArgs,
			{ cwd, timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } },
			(error, stdout, stderr) => {
				const exitCode = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
				resolve({ stdout, stderr, exitCode });
			}
		);
	});
}

/** What must match: stdout without timings and paths, the exit code, the error's first line. */
function normalise(run: Run, root: string) {
	const lines = run.stdout
		.split('\n')
		.map((line) => line.split(root).join('<root>'))
		.filter(
			(line) => !/^\s*(duration_ms|location|stack|failureType|type:|exitCode|\.\.\.|---)/.test(line)
		)
		.filter((line) => !/^\s+\S+ \(.*:\d+:\d+\)$|^\s+(async )?\S+ \((node:|native)/.test(line));
	const tapLines = lines.filter((line) =>
		/^\s*(# Subtest:|ok |not ok |1\.\.\d+|# (tests|suites|pass|fail|cancelled|skipped|todo) \d+)/.test(
			line
		)
	);
	const otherLines = lines.filter(
		(line) =>
			!tapLines.includes(line) &&
			!/^\s*(TAP version|error:|code:|name:|expected:|actual:|operator:|# duration_ms)/.test(
				line
			) &&
			!/^\s{4,}/.test(line)
	);
	const errorLine = /^(\w*Error)(\s\[\w+\])?: (.*)$/m.exec(run.stderr);
	return {
		tap: tapLines,
		output: otherLines.join('\n').trim(),
		exitCode: run.exitCode,
		error: errorLine ? `${errorLine[1]}: ${errorLine[3]}` : null
	};
}

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

describe('conformance with real Node', () => {
	let sandbox: Sandbox;
	let realRoot: string;
	const results: Record<string, boolean> = {};

	beforeAll(async () => {
		realRoot = mkdtempSync(join(tmpdir(), 'threadline-conformance-'));
		cpSync(folder, realRoot, { recursive: true });
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles(filesOf(folder)) });
	});

	afterAll(async () => {
		await sandbox.dispose();
		rmSync(realRoot, { recursive: true, force: true });
		const passed = Object.values(results).filter(Boolean).length;
		console.log(
			`THREADLINE_CONFORMANCE ${JSON.stringify({ programs: programs.length, passed, pass_rate: passed / Math.max(1, programs.length), results })}`
		);
	});

	for (const program of programs) {
		it(`${program} behaves as in Node`, async () => {
			const real = await runRealNode(realRoot, program);
			const offline = await sandbox.exec(`node ${program}`, { timeoutMs: 30_000 });
			const offlineRun = splitOutput(offline.output, offline.exitCode);
			results[program] = false;
			const expected = normalise(real, realRoot);
			const actual = normalise(offlineRun, '/workspace');
			expect(actual).toEqual(expected);
			results[program] = true;
		}, 60_000);
	}
});

/**
 * The sandbox returns stdout then stderr as one text; the error line is found in it the same
 * way, and node's own trailing error block (after the program's stdout) is not compared as
 * output.
 */
function splitOutput(output: string, exitCode: number): Run {
	const errorStart = exitCode === 0 ? -1 : output.search(/^\w*Error(\s\[\w+\])?: /m);
	if (errorStart === -1) return { stdout: output, stderr: '', exitCode };
	return { stdout: output.slice(0, errorStart), stderr: output.slice(errorStart), exitCode };
}
