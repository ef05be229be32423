import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classService } from './class-runtime.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const code = 'K7QM-RX4P-9HTW-CN2E';
const token = 'tl_instructor_0123456789abcdefghijklmnop';

/**
 * Runs server.js's entry point (`main`) under tsx with a stand-in handler that opens class mode
 * as app/hooks.server.ts does; resolves with the exit code and output once it exits, or once it
 * listens (then it is stopped by its pid).
 */
function startServer(
	environment: Record<string, string>
): Promise<{ code: number | null; stdout: string; stderr: string; listened: boolean }> {
	const handlerUrl = pathToFileURL(`${root}server/testing/start-handler.ts`).href;
	const serverUrl = pathToFileURL(`${root}server.js`).href;
	const script = `const { main } = await import(${JSON.stringify(serverUrl)}); await main({ handlerUrl: new URL(${JSON.stringify(handlerUrl)}) });`;
	const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
		cwd: root,
		env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...environment }
	});
	let stdout = '';
	let stderr = '';
	let listened = false;
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
		if (!listened && stdout.includes('Threadline listening on')) {
			listened = true;
			child.kill('SIGTERM');
		}
	});
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	return new Promise((resolve) =>
		child.on('exit', (exitCode) => resolve({ code: exitCode, stdout, stderr, listened }))
	);
}

describe('invalid class settings stop the server', () => {
	it('rejects the class service with a sentence naming the setting', async () => {
		await expect(
			classService({ THREADLINE_CLASS_CODE: 'short', THREADLINE_INSTRUCTOR_TOKEN: token })
		).rejects.toThrow(
			/^Class mode settings are invalid: THREADLINE_CLASS_CODE must be at least 8 characters\. The server did not start/
		);
		await expect(
			classService({
				THREADLINE_CLASS_CODE: code,
				THREADLINE_INSTRUCTOR_TOKEN: token,
				THREADLINE_CLASS_LEARNER_MAX_BYTES: 'plenty'
			})
		).rejects.toThrow(/THREADLINE_CLASS_LEARNER_MAX_BYTES must be a positive number of bytes/);
		expect(await classService({})).toBeNull();
	});

	it('server.js prints the sentence and exits 1 instead of serving with class mode off', async () => {
		const result = await startServer({
			THREADLINE_CLASS_CODE: code,
			THREADLINE_INSTRUCTOR_TOKEN: token,
			THREADLINE_CLASS_MAX_STORED_BYTES: '1M',
			THREADLINE_CLASS_LEARNER_MAX_BYTES: '64M'
		});
		expect(result.listened).toBe(false);
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(
			'Class mode settings are invalid: THREADLINE_CLASS_LEARNER_MAX_BYTES (64 MiB) must be below THREADLINE_CLASS_MAX_STORED_BYTES (1 MiB)'
		);
	}, 60_000);

	it('server.js starts without class mode, with BODY_SIZE_LIMIT set before the handler loads', async () => {
		const result = await startServer({});
		expect(result.listened).toBe(true);
		expect(result.stdout).toContain('BODY_SIZE_LIMIT=1048576');
		expect(result.code).toBe(0);
	}, 60_000);
});
