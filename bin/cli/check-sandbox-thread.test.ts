import { describe, expect, it } from 'vitest';
import { startSandboxThread } from './check-sandbox-thread.js';

const fixture = new URL('./check-sandbox-thread.fixture.ts', import.meta.url).href;

describe('the sandbox thread of threadline check', () => {
	it('ends a thread that outgrows its heap, says so, and runs the next command in a fresh one', async () => {
		const sandbox = await startSandboxThread({ files: {}, heapMb: 64, entry: fixture });
		try {
			expect(await sandbox.exec('first', { timeoutMs: 5_000 })).toEqual({
				exitCode: 0,
				output: 'ran first (0)'
			});
			const leak = await sandbox.exec('leak', { timeoutMs: 30_000 });
			expect(leak.exitCode).toBe(137);
			expect(leak.output).toBe(
				'stopped: the sandbox ran out of memory (its JavaScript heap may hold 64 MiB); the criteria after this one run in a fresh sandbox'
			);
			// A fresh thread: nothing the leak kept is there any more.
			expect(await sandbox.exec('after', { timeoutMs: 5_000 })).toEqual({
				exitCode: 0,
				output: 'ran after (0)'
			});
		} finally {
			await sandbox.dispose();
		}
	}, 60_000);

	it('ends a thread that does not answer past its time limit and a grace', async () => {
		const sandbox = await startSandboxThread({ files: {}, entry: fixture, answerGraceMs: 500 });
		try {
			const started = performance.now();
			const hung = await sandbox.exec('hang', { timeoutMs: 100 });
			expect(hung.exitCode).toBe(124);
			expect(hung.output).toMatch(/did not stop at its time limit \(100 ms\)/);
			expect(performance.now() - started).toBeLessThan(5_000);
			expect((await sandbox.exec('next', { timeoutMs: 5_000 })).output).toBe('ran next (0)');
		} finally {
			await sandbox.dispose();
		}
	}, 30_000);

	it('runs the real sandbox, and refuses to run after dispose', async () => {
		const sandbox = await startSandboxThread({
			files: { 'a.txt': new TextEncoder().encode('hello\n') },
			maxCommandWriteBytes: 1024
		});
		const read = await sandbox.exec('cat a.txt && printf "%02000d" 0 > b.txt', {
			timeoutMs: 10_000
		});
		expect(read.exitCode).toBe(1);
		expect(read.output).toMatch(/stopped: this command wrote more than 1024 bytes/);
		await sandbox.dispose();
		await expect(sandbox.exec('true', { timeoutMs: 1_000 })).rejects.toThrow(/disposed/);
	}, 60_000);
});
