import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('./threadline.js', import.meta.url));

/** Runs the CLI with its output read by nobody: the pipe is closed before it writes. */
function runWithClosedOutput(args: string[]): Promise<{ code: number | null; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [entry, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
		child.stdout.destroy();
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stderr }));
	});
}

describe('the threadline command', () => {
	it('ends with its own exit code, and no stack trace, when its reader closes the pipe early', async () => {
		const help = await runWithClosedOutput(['--help']);
		expect(help.stderr).not.toMatch(/EPIPE|at .+:\d+:\d+/);
		expect(help.code).toBe(0);
		const unknown = await runWithClosedOutput(['no-such-command']);
		expect(unknown.code).toBe(2);
	});
});
