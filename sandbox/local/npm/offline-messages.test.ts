import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox.js';
import { createLocalSandbox } from '../local-sandbox.js';
import { MemoryWorkspaceFiles } from '../memory-workspace-files.js';
import { explainShellLimits } from './offline-messages.js';

describe('what the offline shell says it cannot do', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await createLocalSandbox({
			files: new MemoryWorkspaceFiles({}),
			limits: { maxCommandCount: 2_000, maxLoopIterations: 2_000 }
		});
	});
	afterAll(async () => {
		await sandbox.dispose();
	});

	it('names missing programs with what to use instead', async () => {
		for (const [command, expected] of [
			['python3 -c "print(1)"', /python3: Python is not available in the offline sandbox/],
			['pip install requests', /pip is not available/],
			['yarn test', /npm test and npm run <script> work here/]
		] as const) {
			const result = await sandbox.exec(command);
			expect(result.exitCode).toBe(127);
			expect(result.output).toMatch(expected);
		}
	});

	it('says a runaway loop was stopped after N commands, not how to raise a host limit', async () => {
		const loop = await sandbox.exec('while true; do :; done');
		expect(loop.output).toMatch(
			/stopped after 2000 commands: this looks like a loop that does not end/
		);
		expect(loop.output).not.toContain('executionLimits');
		const recursion = await sandbox.exec('f() { f; }; f');
		expect(recursion.output).toMatch(/stopped at a call depth of \d+/);
		expect(recursion.output).not.toContain('executionLimits');
	});

	it('leaves other output alone', () => {
		expect(explainShellLimits('grep: x: No such file\n')).toBe('grep: x: No such file\n');
	});
});
