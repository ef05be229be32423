import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerLocalSandbox as createWorkerLocalSandboxWithoutReview } from '../browser/worker-local-sandbox.js';
import type { LineShellSession, Sandbox } from '../sandbox.js';
import { createInProcessShellWorker } from '../worker/in-process-shell-worker.js';
import {
	createLocalSandbox as createLocalSandboxWithoutReview,
	type LocalSandboxOptions
} from './local-sandbox.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';
import { committingEverything } from '../contract/committing-sandbox.js';

// These tests are about what commands do: every change is committed (see committing-sandbox.ts).
const createWorkerLocalSandbox = async (
	...parameters: Parameters<typeof createWorkerLocalSandboxWithoutReview>
) => committingEverything(await createWorkerLocalSandboxWithoutReview(...parameters));

const createLocalSandbox = async (
	...parameters: Parameters<typeof createLocalSandboxWithoutReview>
) => committingEverything(await createLocalSandboxWithoutReview(...parameters));

const backends: [string, (options: LocalSandboxOptions) => Promise<Sandbox>][] = [
	['in this thread', (options) => createLocalSandbox(options)],
	[
		'in a (simulated) Worker',
		(options) =>
			createWorkerLocalSandbox({ ...options, createWorker: () => createInProcessShellWorker() })
	]
];

describe.each(backends)('the local terminal session %s', (_name, createSandbox) => {
	let sandbox: Sandbox | undefined;

	afterEach(async () => {
		await sandbox?.dispose();
		sandbox = undefined;
	});

	async function openSession(
		initial: Record<string, string> = {},
		options: Partial<LocalSandboxOptions> = {}
	): Promise<{ session: LineShellSession; run: (line: string) => Promise<string> }> {
		sandbox = await createSandbox({ files: new MemoryWorkspaceFiles(initial), ...options });
		const session = await sandbox.openShell({ cols: 80, rows: 24 });
		if (session.mode !== 'line') throw new Error('expected a line session');
		const run = async (line: string) => {
			let output = '';
			await session.run(line, { onOutput: (chunk) => (output += chunk) });
			return output;
		};
		return { session, run };
	}

	it('keeps the working folder between lines', async () => {
		const { session, run } = await openSession({ 'src/app.ts': 'x', 'top.txt': 't' });
		expect(session.cwd).toBe('');
		expect(await run('cd src')).toBe('');
		expect(session.cwd).toBe('src');
		expect(await run('ls')).toBe('app.ts\n');
		expect(await run('pwd')).toBe('/workspace/src\n');
		await run('cd ..');
		expect(session.cwd).toBe('');
		expect(await run('ls')).toBe('src\ntop.txt\n');
	});

	it('keeps variables between lines', async () => {
		const { run } = await openSession();
		await run('export A=1');
		expect(await run('echo $A')).toBe('1\n');
		await run('B=two; unset A');
		expect(await run('echo "[$A][$B]"')).toBe('[][two]\n');
		expect(await run('echo $HOME')).toBe('/workspace\n');
	});

	it('stays at /workspace when cd climbs above it, as in a chroot', async () => {
		const { session, run } = await openSession({ 'src/a.ts': 'a' });
		await run('cd src');
		expect(await run('cd ../../..')).toBe('');
		expect(session.cwd).toBe('');
		expect(await run('pwd')).toBe('/workspace\n');
	});

	it('refuses to stay in a folder outside the workspace', async () => {
		const { session, run } = await openSession({ 'src/a.ts': 'a' });
		await run('cd src');
		expect(await run('cd /tmp')).toBe(
			'cd: the terminal stays inside /workspace (/tmp is outside it)\n'
		);
		expect(session.cwd).toBe('src');
		// Within one line, the rest of the filesystem is still reachable.
		expect(await run('cd /tmp && pwd')).toMatch(/^\/tmp\n/);
	});

	it('falls back to the root when its folder was removed', async () => {
		const { session, run } = await openSession({ 'src/a.ts': 'a' });
		await run('cd src');
		await sandbox?.fs.rm('src', { recursive: true });
		expect(await run('pwd')).toBe(
			'/workspace\nbash: the folder /workspace/src no longer exists; back in /workspace\n'
		);
		expect(session.cwd).toBe('');
	});

	it('reports the changes each line made and tells watchers', async () => {
		const { session } = await openSession({ 'src/a.ts': 'a' });
		const events: string[] = [];
		sandbox?.fs.watch((event) => events.push(`${event.type} ${event.path}`));
		await session.run('cd src');
		const result = await session.run('echo made > new.txt && rm a.ts');
		expect(result).toMatchObject({ exitCode: 0, interrupted: false });
		expect(result.changes.map((change) => [change.path, change.type])).toEqual([
			['src/a.ts', 'deleted'],
			['src/new.txt', 'created']
		]);
		expect(events).toEqual(['deleted src/a.ts', 'created src/new.txt']);
	});

	it('returns the exit code of the line', async () => {
		const { session } = await openSession();
		expect((await session.run('false')).exitCode).toBe(1);
		expect((await session.run('exit 7')).exitCode).toBe(7);
	});

	it('stops a line on Ctrl+C with exit code 130 and keeps the session usable', async () => {
		const { session, run } = await openSession();
		await run('cd /workspace && export KEPT=yes');
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 100);
		const started = Date.now();
		const result = await session.run('echo before > before.txt; sleep 20; echo after > after.txt', {
			signal: controller.signal
		});
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(result.exitCode).toBe(130);
		expect(result.interrupted).toBe(true);
		expect(result.changes.map((change) => change.path)).toEqual(['before.txt']);
		expect(await sandbox?.fs.stat('after.txt')).toBeNull();
		expect(await run('echo $KEPT')).toBe('yes\n');
	});

	it('stops a line at its time limit with exit code 124 and says so', async () => {
		const { session } = await openSession({}, { shellTimeoutMs: 200 });
		let output = '';
		const result = await session.run('sleep 10', { onOutput: (chunk) => (output += chunk) });
		expect(result).toMatchObject({ exitCode: 124, interrupted: true });
		expect(output).toMatch(/time limit of a terminal command/);
	});

	it('gives each session its own folder', async () => {
		const { session } = await openSession({ 'a/x': 'x', 'b/y': 'y' });
		const other = await sandbox!.openShell({ cols: 80, rows: 24 });
		await session.run('cd a');
		if (other.mode !== 'line') throw new Error('expected a line session');
		await other.run('cd b');
		expect([session.cwd, other.cwd]).toEqual(['a', 'b']);
	});

	it('stops its running line when closed, and refuses lines afterwards', async () => {
		const { session } = await openSession();
		const running = session.run('sleep 20');
		await new Promise((resolve) => setTimeout(resolve, 50));
		session.dispose();
		expect((await running).interrupted).toBe(true);
		await expect(session.run('echo')).rejects.toThrow(/closed/);
	});

	it('keeps going when the output callback throws', async () => {
		const { session } = await openSession();
		const result = await session.run('echo x > x.txt; echo shown', {
			onOutput: () => {
				throw new Error('broken terminal');
			}
		});
		expect(result.changes.map((change) => change.path)).toEqual(['x.txt']);
	});

	it('checks its size argument and refuses to open after dispose', async () => {
		sandbox = await createSandbox({ files: new MemoryWorkspaceFiles() });
		await expect(sandbox.openShell(undefined as never)).rejects.toThrow(/size/);
		await sandbox.dispose();
		await expect(sandbox.openShell({ cols: 80, rows: 24 })).rejects.toThrow(/disposed/);
	});
});

describe('the terminal’s history', () => {
	it('history lists the lines typed, numbered; history N the last N; history -c clears', async () => {
		const sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles() });
		try {
			const session = await sandbox.openShell({ cols: 80, rows: 24 });
			if (session.mode !== 'line') throw new Error('the local terminal is line-based');
			const run = async (line: string) => {
				let output = '';
				const result = await session.run(line, { onOutput: (chunk) => (output += chunk) });
				return { ...result, output };
			};
			await run('echo one');
			await run('   ');
			await run('ls');
			expect((await run('history')).output).toBe('    1  echo one\n    2  ls\n    3  history\n');
			expect((await run('history 2')).output).toBe('    3  history\n    4  history 2\n');
			expect((await run('history -c')).exitCode).toBe(0);
			expect((await run('history')).output).toBe('    1  history\n');
			// Anything more than a bare `history` runs in the shell as usual.
			expect((await run('echo history')).output).toBe('history\n');
		} finally {
			await sandbox.dispose();
		}
	});
});
