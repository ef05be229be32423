import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The hostile-export suite of `threadline check` (issue 27): exports whose criteria try to
 * exhaust the grader's machine (copies in a loop, sqlite3 blobs, endless loops, huge output,
 * memory hogs, /tmp, hundreds of criteria, sleeps). The CLI runs as a child process, with small
 * bounds passed by flags so the suite is quick; its peak resident memory (VmHWM, polled from
 * /proc) and its wall time must stay within the documented bounds (SECURITY.md), and every
 * bound that is exceeded fails its criterion with a plain message. Each run prints
 * `THREADLINE_HOSTILE {json}` with what was measured.
 */

const cli = join(import.meta.dirname, '..', 'threadline.js');
const mib = 1024 * 1024;

/** The bounds the suite passes: small, so it is quick. */
const bounds = ['--timeout', '10', '--max-write-mb', '4', '--sandbox-memory-mb', '160'];

/**
 * The documented bound (SECURITY.md) for these flags: the CLI's own ~250 MB (Node, tsx, the
 * sandbox's code and QuickJS), the sandbox thread's heap (160 MiB), and what that limit does not
 * count: a command's writes (4 MiB), /tmp (64 MiB), `node`'s wasm memory (64 + 16 MiB), and the
 * export's files (small here).
 */
const peakBoundBytes = (250 + 160 + 4 + 64 + 80) * mib;

let scratch: string;
beforeAll(async () => {
	scratch = await mkdtemp(join(tmpdir(), 'threadline-hostile-'));
});
afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

interface Criterion {
	description: string;
	run: string;
}

/** A minimal export folder: the workspace files and an active_intents.yaml. */
async function hostileExport(
	name: string,
	intents: { id: string; criteria: Criterion[] }[],
	files: Record<string, Uint8Array | string> = {}
): Promise<string> {
	const folder = join(scratch, name);
	await mkdir(join(folder, '.orchestration'), { recursive: true });
	for (const [path, content] of Object.entries(files)) await writeFile(join(folder, path), content);
	await writeFile(join(folder, '.orchestration', 'audit.jsonl'), '');
	await writeFile(join(folder, '.orchestration', 'agent_trace.jsonl'), '');
	const lines = ['active_intents:'];
	for (const intent of intents) {
		lines.push(`  - id: ${intent.id}`, `    name: ${intent.id}`, '    status: IN_PROGRESS');
		lines.push('    acceptance_criteria:');
		for (const criterion of intent.criteria)
			lines.push(
				`      - description: ${JSON.stringify(criterion.description)}`,
				`        run: ${JSON.stringify(criterion.run)}`
			);
	}
	await writeFile(join(folder, '.orchestration', 'active_intents.yaml'), `${lines.join('\n')}\n`);
	return folder;
}

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
	peakBytes: number;
	wallMs: number;
}

/** Runs the CLI as a child and polls its peak resident memory until it exits. */
function runCheck(args: string[]): Promise<Run> {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(process.execPath, [cli, 'check', ...args], {
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let stdout = '';
		let stderr = '';
		let peakBytes = 0;
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const poll = async () => {
			try {
				const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
				const peak = /^VmHWM:\s+(\d+) kB/m.exec(status);
				if (peak) peakBytes = Math.max(peakBytes, Number(peak[1]) * 1024);
			} catch {
				// Gone already: the last reading stands.
			}
		};
		const timer = setInterval(() => void poll(), 25);
		child.on('error', reject);
		child.on('exit', (code) => {
			clearInterval(timer);
			resolve({ code, stdout, stderr, peakBytes, wallMs: performance.now() - started });
		});
	});
}

function report(name: string, run: Run): void {
	console.log(
		`THREADLINE_HOSTILE ${JSON.stringify({ case: name, exit: run.code, peak_mb: Math.round(run.peakBytes / mib), wall_s: Math.round(run.wallMs / 100) / 10 })}`
	);
}

interface CheckJson {
	ok: boolean;
	intents: {
		intent_id: string;
		criteria: { description: string; outcome: string; output?: string }[];
	}[];
}

const linux = process.platform === 'linux';

describe.runIf(linux)('threadline check on hostile exports', () => {
	it('keeps the grader within its bounds and fails each hostile criterion with a plain message', async () => {
		const big = new Uint8Array(mib).fill(65);
		const folder = await hostileExport(
			'hostile',
			[
				{
					id: 'COPIES',
					criteria: [
						{
							description: 'copies a 1 MB file 150 times',
							run: 'for i in $(seq 1 150); do cp big.bin copy$i.bin; done; echo done'
						}
					]
				},
				{
					id: 'SQLITE',
					criteria: [
						{
							description: 'inserts large blobs',
							run: 'sqlite3 data.db "CREATE TABLE t(b); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 3000) INSERT INTO t SELECT randomblob(1000000) FROM c;"'
						}
					]
				},
				{
					id: 'OUTPUT',
					criteria: [
						{
							description: 'prints 150 MB',
							run: 'for i in $(seq 1 150); do cat big.bin; done'
						},
						{
							description: 'doubles a string',
							run: 'x=$(cat big.bin); for i in $(seq 1 20); do x="$x$x"; done; echo ${#x}'
						}
					]
				},
				{
					id: 'LOOPS',
					criteria: [
						{ description: 'loops forever', run: 'while true; do :; done' },
						{
							description: 'a node memory hog',
							run: `node -e "const a = []; for (;;) a.push('x'.repeat(1e7) + a.length)"`
						},
						{
							description: 'fills /tmp',
							run: 'for i in $(seq 1 100); do cp big.bin /tmp/x$i; done; true'
						}
					]
				},
				{ id: 'FINE', criteria: [{ description: 'an honest check', run: 'grep -q A big.bin' }] }
			],
			{ 'big.bin': big }
		);
		const run = await runCheck([folder, '--json', ...bounds]);
		report('hostile criteria', run);
		expect(run.stderr).toBe('');
		expect(run.code).toBe(1);
		const result = JSON.parse(run.stdout) as CheckJson;
		const outcome = (id: string) =>
			result.intents.find((intent) => intent.intent_id === id)?.criteria ?? [];
		for (const criterion of outcome('COPIES')) {
			expect(criterion.outcome).toBe('failed');
			expect(criterion.output).toMatch(
				/stopped: this command wrote more than 4 MiB to the workspace, the limit for one command/
			);
		}
		expect(outcome('SQLITE')[0]?.output).toMatch(/sqlite3 is not available in the offline sandbox/);
		expect(outcome('OUTPUT').map((criterion) => criterion.outcome)).toEqual(['failed', 'failed']);
		const [loop, hog] = outcome('LOOPS');
		expect(loop?.outcome).toBe('failed');
		expect(hog?.output).toMatch(/out of memory/);
		// The honest criterion after all of them still ran, and passed: nothing else was lost.
		expect(outcome('FINE')[0]?.outcome).toBe('passed');
		expect(run.peakBytes).toBeGreaterThan(0);
		expect(run.peakBytes).toBeLessThan(peakBoundBytes);
	}, 120_000);

	it('refuses an export with more criteria than a check may run, before running any', async () => {
		const folder = await hostileExport('many', [
			{
				id: 'MANY',
				criteria: Array.from({ length: 300 }, (_, index) => ({
					description: `sleeps ${index}`,
					run: 'sleep 100000'
				}))
			}
		]);
		const run = await runCheck([folder]);
		report('300 criteria', run);
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(
			/active_intents\.yaml:\d+:\d+: too many acceptance criteria: the file has 300, at most 100 are allowed/
		);
		expect(run.wallMs).toBeLessThan(20_000);
	}, 30_000);

	it('stops at the deadline: the results so far are printed, the rest not run, exit 1', async () => {
		const folder = await hostileExport('sleeps', [
			{ id: 'QUICK', criteria: [{ description: 'quick', run: 'true' }] },
			{
				id: 'SLEEPS',
				criteria: Array.from({ length: 99 }, (_, index) => ({
					description: `sleeps ${index}`,
					run: 'sleep 100000'
				}))
			}
		]);
		const run = await runCheck([folder, ...bounds, '--timeout', '1.5', '--deadline', '5']);
		report('99 sleeps, deadline 5 s', run);
		expect(run.code).toBe(1);
		expect(run.stdout).toMatch(/PASS\s+quick/);
		expect(run.stdout).toMatch(
			/NOT RUN sleeps 98\n[^]*not run: the check's deadline \(5 s\) passed/
		);
		const summary = /FAILED: 1 passed, (\d+) failed, (\d+) not run \(the deadline passed\)/.exec(
			run.stdout
		);
		expect(summary).not.toBeNull();
		expect(Number(summary?.[1]) + Number(summary?.[2])).toBe(99);
		// The deadline holds: the sandbox's start, the 5 s and the process's own start and end.
		expect(run.wallMs).toBeLessThan(25_000);
		expect(run.peakBytes).toBeLessThan(peakBoundBytes);
	}, 40_000);
});
