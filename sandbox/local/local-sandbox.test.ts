import { explanatoryProgramNames, toolchainCommandNames } from './npm/toolchain-commands.js';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCommandNames } from 'just-bash';
import { afterEach, describe, expect, it } from 'vitest';
import { describeSandboxContract } from '../contract/sandbox-contract.js';
import type { Sandbox } from '../sandbox.js';
import { DiskWorkspaceFiles } from './disk-workspace-files.js';
import {
	createLocalSandbox as createLocalSandboxWithoutReview,
	localSandboxDescription
} from './local-sandbox.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';
import { committingEverything } from '../contract/committing-sandbox.js';

// These tests are about what commands do: every change is committed (see committing-sandbox.ts).
const createLocalSandbox = async (
	...parameters: Parameters<typeof createLocalSandboxWithoutReview>
) => committingEverything(await createLocalSandboxWithoutReview(...parameters));

const temporaryFolders: string[] = [];

async function freshFolder(): Promise<string> {
	const folder = await mkdtemp(join(tmpdir(), 'threadline-sandbox-'));
	temporaryFolders.push(folder);
	return folder;
}

afterEach(async () => {
	await Promise.all(
		temporaryFolders.splice(0).map((folder) => rm(folder, { recursive: true, force: true }))
	);
});

describeSandboxContract('local over memory', () =>
	createLocalSandbox({ files: new MemoryWorkspaceFiles() })
);

describeSandboxContract('local over disk', async () =>
	createLocalSandbox({ files: new DiskWorkspaceFiles(await freshFolder()) })
);

describe('local sandbox', () => {
	let sandbox: Sandbox | undefined;
	const decoder = new TextDecoder();

	afterEach(async () => {
		await sandbox?.dispose();
		sandbox = undefined;
	});

	it('without a review commits nothing: a caller that forgets to govern loses the writes (fail closed)', async () => {
		const files = new MemoryWorkspaceFiles({ 'a.txt': 'a\n' });
		sandbox = await createLocalSandboxWithoutReview({ files });
		const result = await sandbox.exec('echo b > a.txt; mkdir made; echo c > made/c.txt');
		expect(result.changes).toEqual([]);
		expect(result.refused?.map((entry) => entry.path)).toEqual(['a.txt', 'made', 'made/c.txt']);
		expect(decoder.decode(await files.read('a.txt'))).toBe('a\n');
		expect(await files.stat('made')).toBeNull();
		const session = await sandbox.openShell({ cols: 80, rows: 24 });
		if (session.mode !== 'line') throw new Error('the local terminal is line-based');
		await session.run('echo typed > typed.txt');
		expect(await files.stat('typed.txt')).toBeNull();
	});

	it('ends an endless loop through the command limit and says so', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles() });
		// If the loop never ended, the test's own timeout would fail it.
		const result = await sandbox.exec('while true; do :; done');
		expect(result.exitCode).not.toBe(0);
		expect(result.output).toMatch(
			/stopped after \d+ commands: this looks like a loop that does not end/
		);
	});

	it('ends an endless loop through the timeout when the limits allow more', async () => {
		sandbox = await createLocalSandbox({
			files: new MemoryWorkspaceFiles(),
			limits: { maxCommandCount: 1e9, maxLoopIterations: 1e9 }
		});
		const result = await sandbox.exec('while true; do :; done', { timeoutMs: 300 });
		expect(result.exitCode).toBe(124);
		expect(result.interrupted).toBe(true);
		expect(result.output).toContain('Command timed out after 300 ms');
	});

	it('applies defaultTimeoutMs when exec passes none', async () => {
		sandbox = await createLocalSandbox({
			files: new MemoryWorkspaceFiles(),
			defaultTimeoutMs: 200
		});
		const result = await sandbox.exec('sleep 5');
		expect(result.exitCode).toBe(124);
		expect(result.output).toContain('200 ms');
	});

	it('applies custom limits', async () => {
		sandbox = await createLocalSandbox({
			files: new MemoryWorkspaceFiles(),
			limits: { maxLoopIterations: 5 }
		});
		const result = await sandbox.exec('for i in 1 2 3 4 5 6 7 8 9 10; do echo $i; done');
		expect(result.exitCode).toBe(126);
		expect(result.interrupted).toBe(false);
	});

	it('rejects invalid timeouts and a missing store', async () => {
		await expect(
			createLocalSandbox({ files: new MemoryWorkspaceFiles(), defaultTimeoutMs: 0 })
		).rejects.toThrow(/positive/);
		await expect(createLocalSandbox({} as never)).rejects.toThrow(/WorkspaceFiles/);
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles() });
		await expect(sandbox.exec('echo', { timeoutMs: Number.NaN })).rejects.toThrow(/positive/);
		await expect(sandbox.exec('echo', { timeoutMs: -5 })).rejects.toThrow(/positive/);
	});

	it('lists just-bash commands plus the toolchain and git, and describes itself', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles() });
		expect(sandbox.kind).toBe('local');
		expect(sandbox.capabilities).toEqual({
			kind: 'local',
			description: localSandboxDescription,
			commands: [...new Set([...getCommandNames(), ...toolchainCommandNames, 'git'])]
				.filter((name) => !explanatoryProgramNames.includes(name))
				.sort()
		});
		// Programs that only explain their absence are not offered (Tab completion, the model).
		for (const absent of ['gcc', 'go', 'ruby', 'rustc', 'pip3', 'deno', 'tsc', 'yarn', 'python3'])
			expect(sandbox.capabilities.commands).not.toContain(absent);
		expect(sandbox.capabilities.commands).toContain('node');
		expect(sandbox.capabilities.commands).toContain('git');
		expect(sandbox.capabilities.commands).toContain('npm');
		expect(sandbox.capabilities.commands).toContain('tsx');
		expect(sandbox.capabilities.commands).not.toContain('curl');
	});

	it('sees the workspace at /workspace with /tmp, /dev and /bin around it', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles({ 'a.txt': 'a' }) });
		const result = await sandbox.exec('pwd; echo $HOME; ls /; ls /workspace; which ls');
		expect(result.output).toBe(
			'/workspace\n/workspace\nbin\ndev\ntmp\nusr\nworkspace\na.txt\n/usr/bin/ls\n'
		);
	});

	it('keeps /tmp between commands but out of the reported changes', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles() });
		const write = await sandbox.exec('echo scratch > /tmp/scratch.txt');
		expect(write.changes).toEqual([]);
		const copy = await sandbox.exec('cat /tmp/scratch.txt && cp /tmp/scratch.txt kept.txt');
		expect(copy.output).toBe('scratch\n');
		expect(copy.changes.map((change) => [change.path, change.type])).toEqual([
			['kept.txt', 'created']
		]);
	});

	it('reports moving a file out of the workspace as a deletion', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles({ 'out.txt': 'o' }) });
		const result = await sandbox.exec('mv out.txt /tmp/out.txt');
		expect(result.changes.map((change) => [change.path, change.type])).toEqual([
			['out.txt', 'deleted']
		]);
	});

	it('keeps binary content byte-exact through cp', async () => {
		const files = new MemoryWorkspaceFiles({ 'image.bin': Uint8Array.from([0, 255, 254, 10, 0]) });
		sandbox = await createLocalSandbox({ files });
		const result = await sandbox.exec('cp image.bin copy.bin');
		expect(result.exitCode).toBe(0);
		expect(Array.from(await sandbox.fs.readFile('copy.bin'))).toEqual([0, 255, 254, 10, 0]);
		expect(Array.from(result.changes[0]?.after ?? [])).toEqual([0, 255, 254, 10, 0]);
	});

	it('fails a redirect into a missing folder instead of creating it', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles() });
		const result = await sandbox.exec('echo x > missing/file.txt');
		expect(result.exitCode).not.toBe(0);
		expect(result.output).toMatch(/no such file or directory/i);
		expect(result.changes).toEqual([]);
		expect(await sandbox.fs.stat('missing')).toBeNull();
	});

	it('refuses symbolic links inside the workspace', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles({ 'a.txt': 'a' }) });
		const result = await sandbox.exec('ln -s a.txt link.txt');
		expect(result.exitCode).not.toBe(0);
		expect(result.output).toMatch(/not supported/);
		expect(await sandbox.fs.stat('link.txt')).toBeNull();
	});

	it('appends with >> and reports one modification', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles({ 'log.txt': 'one\n' }) });
		const result = await sandbox.exec('echo two >> log.txt; echo three >> log.txt');
		expect(result.changes).toHaveLength(1);
		expect(result.changes[0]?.type).toBe('modified');
		expect(decoder.decode(result.changes[0]?.after ?? undefined)).toBe('one\ntwo\nthree\n');
	});

	it('runs commands one at a time so each reports only its own changes', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles() });
		const [first, second] = await Promise.all([
			sandbox.exec('echo 1 > first.txt; sleep 0.05; echo 1 >> first.txt'),
			sandbox.exec('echo 2 > second.txt')
		]);
		expect(first.changes.map((change) => change.path)).toEqual(['first.txt']);
		expect(second.changes.map((change) => change.path)).toEqual(['second.txt']);
	});

	it('keeps chmod and touch metadata for the session without reporting a change', async () => {
		sandbox = await createLocalSandbox({
			files: new MemoryWorkspaceFiles({ 'run.sh': 'echo ran' })
		});
		const result = await sandbox.exec('chmod 755 run.sh && touch run.sh && stat -c %a run.sh');
		expect(result.output.trim()).toBe('755');
		expect(result.changes).toEqual([]);
	});

	it('keeps going when a watcher throws', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles() });
		const seen: string[] = [];
		sandbox.fs.watch(() => {
			throw new Error('broken watcher');
		});
		sandbox.fs.watch((event) => seen.push(event.path));
		const result = await sandbox.exec('echo x > x.txt');
		expect(result.exitCode).toBe(0);
		expect(seen).toEqual(['x.txt']);
	});

	it('stops a running command when disposed', async () => {
		sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles() });
		const running = sandbox.exec('sleep 10');
		await new Promise((resolve) => setTimeout(resolve, 50));
		await sandbox.dispose();
		const result = await running;
		expect(result.exitCode).toBe(124);
		expect(result.interrupted).toBe(true);
		expect(result.output).toMatch(/closed/);
	});

	it('refuses, over disk, a symlink that leads outside the workspace', async () => {
		const outside = await freshFolder();
		await writeFile(join(outside, 'secret.txt'), 'secret');
		const root = await freshFolder();
		await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
		await symlink(outside, join(root, 'leakdir'));
		sandbox = await createLocalSandbox({ files: new DiskWorkspaceFiles(root) });

		await expect(sandbox.fs.readTextFile('leak.txt')).rejects.toThrow(/outside the workspace/);
		await expect(sandbox.fs.writeFile('leakdir/new.txt', 'x')).rejects.toThrow(/outside/);
		const cat = await sandbox.exec('cat leak.txt');
		expect(cat.exitCode).not.toBe(0);
		expect(cat.output).not.toContain('secret');
		const write = await sandbox.exec('echo pwned > leak.txt');
		expect(write.exitCode).not.toBe(0);
		expect(await sandbox.fs.readdir('')).toEqual([]);
	});
});
