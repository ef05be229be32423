import { afterEach, describe, expect, it } from 'vitest';
import {
	createWorkerLocalSandbox as createWorkerLocalSandboxWithoutReview,
	openWorkerLocalSandbox,
	type WorkerLocalSandboxOptions
} from '../browser/worker-local-sandbox.js';
import { describeSandboxContract } from '../contract/sandbox-contract.js';
import { MemoryWorkspaceFiles } from '../local/memory-workspace-files.js';
import type { Sandbox } from '../sandbox.js';
import {
	createInProcessShellWorker,
	type InProcessShellWorker
} from './in-process-shell-worker.js';
import type { ShellWorkerHandle } from './shell-worker-protocol.js';
import { committingEverything } from '../contract/committing-sandbox.js';

// These tests are about what commands do: every change is committed (see committing-sandbox.ts).
const createWorkerLocalSandbox = async (
	...parameters: Parameters<typeof createWorkerLocalSandboxWithoutReview>
) => committingEverything(await createWorkerLocalSandboxWithoutReview(...parameters));

// The Worker's code over a MessageChannel: the protocol, cloning and replica logic of the browser
// sandbox, in Node. Terminating a real Worker (a loop that never yields) is covered in Chromium by
// sandbox/browser/worker-local-sandbox.browser.spec.ts.
describeSandboxContract('local in a Worker (simulated over a MessageChannel)', () =>
	createWorkerLocalSandbox({
		files: new MemoryWorkspaceFiles(),
		createWorker: () => createInProcessShellWorker()
	})
);

describe('the Worker-backed local sandbox', () => {
	let sandbox: Sandbox | undefined;
	const workers: InProcessShellWorker[] = [];
	const decoder = new TextDecoder();

	afterEach(async () => {
		await sandbox?.dispose();
		sandbox = undefined;
		workers.splice(0);
	});

	async function start(
		files: MemoryWorkspaceFiles,
		options: Partial<WorkerLocalSandboxOptions> & {
			filter?: (message: unknown) => boolean;
		} = {}
	): Promise<Sandbox> {
		const { filter, ...rest } = options;
		sandbox = await createWorkerLocalSandbox({
			files,
			createWorker: () => {
				const worker = createInProcessShellWorker(filter ? { filter } : {});
				workers.push(worker);
				return worker;
			},
			...rest
		});
		return sandbox;
	}

	it('starts from the page copy and sends fs writes over before the next command', async () => {
		const files = new MemoryWorkspaceFiles({ 'seed.txt': 'seed\n' });
		const box = await start(files);
		expect((await box.exec('cat seed.txt')).output).toBe('seed\n');
		await box.fs.writeFile('src/new.ts', 'written through fs\n');
		await box.fs.mkdir('empty');
		await box.fs.rm('seed.txt');
		const listing = await box.exec('cat src/new.ts; ls; ls seed.txt');
		expect(listing.output).toMatch(/^written through fs\nempty\nsrc\n/);
		expect(listing.output).toMatch(/seed\.txt/);
		expect(listing.exitCode).not.toBe(0);
	});

	it('writes command results, folders included, back to the page copy', async () => {
		const files = new MemoryWorkspaceFiles({ 'old/a.txt': 'a' });
		const box = await start(files);
		const result = await box.exec('mkdir -p made/empty && echo hi > made/hi.txt && rm -r old');
		expect(result.changes.map((change) => [change.path, change.type])).toEqual([
			['made/hi.txt', 'created'],
			['old/a.txt', 'deleted']
		]);
		expect(await files.stat('made/empty')).toMatchObject({ kind: 'directory' });
		expect(decoder.decode(await files.read('made/hi.txt'))).toBe('hi\n');
		expect(await files.stat('old')).toBeNull();
	});

	it('lets a later command see the page copy when fs wrote a path the command also changed', async () => {
		const files = new MemoryWorkspaceFiles();
		const box = await start(files);
		const running = box.exec('sleep 0.1; echo from-shell > shared.txt');
		await box.fs.writeFile('shared.txt', 'from-fs\n');
		await running;
		// The command finished last, so its content won in the page copy; the replica agrees.
		expect(await box.fs.readTextFile('shared.txt')).toBe('from-shell\n');
		expect((await box.exec('cat shared.txt')).output).toBe('from-shell\n');
		await box.fs.writeFile('shared.txt', 'fs again\n');
		expect((await box.exec('cat shared.txt')).output).toBe('fs again\n');
	});

	it('terminates a Worker that does not answer a stop, discards its changes, and starts afresh', async () => {
		const files = new MemoryWorkspaceFiles({ 'kept.txt': 'kept\n' });
		// Dropping `stop` plays a Worker stuck in a loop that never reads its messages.
		const box = await start(files, {
			killGraceMs: 100,
			filter: (message) => (message as { type?: string }).type !== 'stop'
		});
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 100);
		const result = await box.exec('echo partial > partial.txt; sleep 5', {
			signal: controller.signal
		});
		expect(result.exitCode).toBe(124);
		expect(result.interrupted).toBe(true);
		expect(result.changes).toEqual([]);
		expect(result.output).toMatch(/restarted.*discarded/s);
		expect(workers[0]?.terminated).toBe(true);
		expect(await files.stat('partial.txt')).toBeNull();

		// The fresh Worker holds the page copy, including writes made while it started.
		await box.fs.writeFile('after.txt', 'after\n');
		const next = await box.exec('ls; cat kept.txt after.txt');
		expect(next.output).toBe('after.txt\nkept.txt\nkept\nafter\n');
		expect(workers).toHaveLength(2);
	});

	it('terminates an unresponsive Worker at the timeout too, with exit code 124', async () => {
		let stuck = false;
		const box = await start(new MemoryWorkspaceFiles(), {
			killGraceMs: 50,
			// After the first command the first Worker reads nothing: as if stuck in a loop.
			filter: () => !(stuck && workers.length === 1)
		});
		await box.exec('true');
		stuck = true;
		const result = await box.exec('echo never', { timeoutMs: 100 });
		expect(result).toMatchObject({ exitCode: 124, interrupted: true, changes: [] });
		expect(result.output).toMatch(/timed out after 100 ms.*discarded/s);
		expect(workers[0]?.terminated).toBe(true);
		expect((await box.exec('echo back')).output).toBe('back\n');
	});

	it('keeps the changes of a command that stops when asked', async () => {
		const box = await start(new MemoryWorkspaceFiles());
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 100);
		const result = await box.exec('echo early > early.txt; sleep 5', { signal: controller.signal });
		expect(result.changes.map((change) => change.path)).toEqual(['early.txt']);
		expect(workers[0]?.terminated).toBe(false);
	});

	it('rejects the command when the Worker crashes, then recovers', async () => {
		const files = new MemoryWorkspaceFiles({ 'a.txt': 'a' });
		const box = await start(files);
		const running = box.exec('sleep 1');
		await new Promise((resolve) => setTimeout(resolve, 50));
		workers[0]?.onerror?.({ message: 'out of memory' } as ErrorEvent);
		await expect(running).rejects.toThrow(/worker was stopped.*out of memory/);
		expect((await box.exec('cat a.txt')).output).toBe('a');
	});

	it('checks its options before starting a Worker', async () => {
		let created = 0;
		const createWorker = () => {
			created += 1;
			return createInProcessShellWorker();
		};
		await expect(createWorkerLocalSandbox({ createWorker } as never)).rejects.toThrow(
			/createWorkerLocalSandbox needs a WorkspaceFiles store/
		);
		await expect(
			createWorkerLocalSandbox({
				files: new MemoryWorkspaceFiles(),
				createWorker,
				shellTimeoutMs: -1
			})
		).rejects.toThrow(/positive/);
		expect(created).toBe(0);
	});

	it('fails to start with a clear error when the Worker cannot load', async () => {
		const broken: ShellWorkerHandle = {
			onmessage: null,
			onerror: null,
			postMessage() {
				queueMicrotask(() =>
					broken.onmessage?.({
						data: { type: 'load-failed', message: 'chunk failed' }
					} as MessageEvent)
				);
			},
			terminate() {}
		};
		await expect(
			createWorkerLocalSandbox({ files: new MemoryWorkspaceFiles(), createWorker: () => broken })
		).rejects.toThrow(/could not start: chunk failed/);
	});

	it('hands out its fs before the Worker is ready: the same fs, whose writes reach commands', async () => {
		const files = new MemoryWorkspaceFiles({ 'a.txt': 'a\n' });
		const opened = openWorkerLocalSandbox({
			files,
			createWorker: () => createInProcessShellWorker()
		});
		// Read and written while the Worker still loads, as the IDE's tree and editor do.
		expect(decoder.decode(await opened.fs.readFile('a.txt'))).toBe('a\n');
		await opened.fs.writeFile('b.txt', 'early\n');
		sandbox = committingEverything(await opened.sandbox);
		const ready = await opened.sandbox;
		expect(ready.fs).toBe(opened.fs);
		const result = await sandbox.exec('cat b.txt');
		expect(result.output).toContain('early');
		await ready.dispose();
		await expect(opened.fs.writeFile('c.txt', 'late\n')).rejects.toThrow(/disposed/);
	});

	for (const outcome of ['fulfilled', 'rejected'] as const)
		it(`starts no Worker before startAfter settles, then starts it (${outcome})`, async () => {
			const files = new MemoryWorkspaceFiles({ 'a.txt': 'a\n' });
			let settle: () => void = () => undefined;
			const startAfter = new Promise<void>((resolve, reject) => {
				settle = outcome === 'fulfilled' ? resolve : () => reject(new Error('Monaco failed'));
			});
			let created = 0;
			const opened = openWorkerLocalSandbox({
				files,
				startAfter,
				createWorker: () => {
					created += 1;
					return createInProcessShellWorker();
				}
			});
			// The page's files work meanwhile, as the IDE's tree and editor use them.
			expect(decoder.decode(await opened.fs.readFile('a.txt'))).toBe('a\n');
			await opened.fs.writeFile('b.txt', 'held\n');
			await new Promise((resolve) => setTimeout(resolve, 20));
			expect(created).toBe(0);
			settle();
			sandbox = committingEverything(await opened.sandbox);
			expect(created).toBe(1);
			expect((await sandbox.exec('cat b.txt')).output).toContain('held');
		});

	it('refuses writes to the early fs once the Worker failed to start', async () => {
		const silent: ShellWorkerHandle = {
			onmessage: null,
			onerror: null,
			postMessage() {},
			terminate() {}
		};
		const files = new MemoryWorkspaceFiles();
		const opened = openWorkerLocalSandbox({
			files,
			createWorker: () => silent,
			startTimeoutMs: 50
		});
		await expect(opened.sandbox).rejects.toThrow(/did not start within 50 ms/);
		await expect(opened.fs.writeFile('x.txt', 'x')).rejects.toThrow(/never started/);
		expect(files.snapshot().has('x.txt')).toBe(false);
	});

	it('gives up on a Worker that never answers', async () => {
		const silent: ShellWorkerHandle = {
			onmessage: null,
			onerror: null,
			postMessage() {},
			terminate() {}
		};
		await expect(
			createWorkerLocalSandbox({
				files: new MemoryWorkspaceFiles(),
				createWorker: () => silent,
				startTimeoutMs: 50
			})
		).rejects.toThrow(/did not start within 50 ms/);
	});

	it('retries a replacement Worker that failed to start with the next command', async () => {
		const files = new MemoryWorkspaceFiles({ 'a.txt': 'a\n' });
		let created = 0;
		const failing = (): ShellWorkerHandle => {
			const handle: ShellWorkerHandle = {
				onmessage: null,
				onerror: null,
				postMessage() {
					queueMicrotask(() =>
						handle.onmessage?.({
							data: { type: 'load-failed', message: 'offline' }
						} as MessageEvent)
					);
				},
				terminate() {}
			};
			return handle;
		};
		sandbox = await createWorkerLocalSandbox({
			files,
			killGraceMs: 50,
			createWorker: () => {
				created += 1;
				// The first Worker works but never reads `stop`; the second cannot start.
				if (created === 1) {
					return createInProcessShellWorker({
						filter: (message) => (message as { type?: string }).type !== 'stop'
					});
				}
				return created === 2 ? failing() : createInProcessShellWorker();
			}
		});
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 50);
		const killed = await sandbox.exec('sleep 5', { signal: controller.signal });
		expect(killed.interrupted).toBe(true);
		await expect(sandbox.exec('cat a.txt')).rejects.toThrow(/could not start: offline/);
		expect((await sandbox.exec('cat a.txt')).output).toBe('a\n');
		expect(created).toBe(3);
	});

	it('does not start a new Worker for a command stopped because the sandbox closes', async () => {
		const box = await start(new MemoryWorkspaceFiles(), {
			killGraceMs: 50,
			filter: (message) => (message as { type?: string }).type !== 'stop'
		});
		const running = box.exec('sleep 5');
		await new Promise((resolve) => setTimeout(resolve, 50));
		await box.dispose();
		const result = await running;
		expect(result).toMatchObject({ exitCode: 124, interrupted: true });
		expect(result.output).toMatch(/sandbox was closed/);
		expect(workers).toHaveLength(1);
		expect(workers[0]?.terminated).toBe(true);
	});

	it('lists the same commands as the in-page sandbox, node included', async () => {
		const box = await start(new MemoryWorkspaceFiles());
		expect(box.capabilities.commands).toContain('node');
		expect(box.capabilities.commands).toContain('grep');
		expect((await box.exec('node -e "console.log(6 * 7)"')).output).toBe('42\n');
	});
});
