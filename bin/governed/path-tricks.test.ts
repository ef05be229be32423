import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../../hooks/ledger/memory-ledger.js';
import { createToolPipeline } from '../../hooks/pipeline/create-tool-pipeline.js';
import { GovernanceState } from '../../hooks/pipeline/governance-state.js';
import {
	fixedClock,
	intentsFixture,
	sequentialIds
} from '../../hooks/pipeline/pipeline-test-kit.js';
import { DiskWorkspaceFiles } from '../../sandbox/local/disk-workspace-files.js';
import { createLocalSandbox } from '../../sandbox/local/local-sandbox.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import { timerScheduler } from '../cli/node-ports.js';
import { startGovernedShell, type GovernedShell } from './governed-shell-kit.js';

/** Links are never followed and bad paths are the caller's mistake, in tools and in the shell. */
let shell: GovernedShell | undefined;
let folder: string | undefined;
let diskSandbox: Sandbox | undefined;
afterEach(async () => {
	await shell?.dispose();
	await diskSandbox?.dispose();
	if (folder) await rm(folder, { recursive: true, force: true });
	shell = undefined;
	folder = undefined;
	diskSandbox = undefined;
});

const write = (path: string) => ({
	path,
	content: 'x',
	intent_id: 'INT-001',
	mutation_class: 'INTENT_EVOLUTION'
});

describe('tools through links and bad paths (workspace on disk, as the CLI uses it)', () => {
	async function startOnDisk() {
		folder = await mkdtemp(join(tmpdir(), 'threadline-links-'));
		await mkdir(join(folder, '.git'));
		await writeFile(join(folder, '.git', 'config'), '[core]\n');
		await mkdir(join(folder, '.orchestration'));
		await writeFile(join(folder, '.orchestration', 'active_intents.yaml'), intentsFixture);
		await mkdir(join(folder, 'src', 'auth'), { recursive: true });
		await mkdir(join(folder, 'src', 'db'), { recursive: true });
		await writeFile(join(folder, 'src', 'db', 'users.ts'), 'users\n');
		await symlink('../../.git', join(folder, 'src', 'auth', 'git'));
		await symlink('../../.orchestration', join(folder, 'src', 'auth', 'orch'));
		await symlink('../db', join(folder, 'src', 'auth', 'db'));
		await symlink('/etc', join(folder, 'src', 'auth', 'etc'));
		diskSandbox = await createLocalSandbox({ files: new DiskWorkspaceFiles(folder) });
		const state = new GovernanceState({ intentsYaml: intentsFixture, approvalPolicy: 'never' });
		const pipeline = createToolPipeline({
			state,
			fs: diskSandbox.fs,
			runner: diskSandbox,
			capabilities: diskSandbox.capabilities,
			ledger: new MemoryLedger({ clock: fixedClock }),
			approvals: { request: async () => ({ approved: true }) },
			clock: fixedClock,
			scheduler: timerScheduler,
			ids: sequentialIds(),
			toolVersion: 'test'
		});
		let calls = 0;
		const run = (tool: string, input: Record<string, unknown>) =>
			pipeline.run({ sessionId: 'builder', toolCallId: `c${(calls += 1)}`, tool, input });
		await run('select_active_intent', { intent_id: 'INT-001' });
		return { run, root: folder };
	}

	it.each([
		'src/auth/git/config',
		'src/auth/git/hooks/pre-commit',
		'src/auth/orch/audit.jsonl',
		'src/auth/db/users.ts',
		'src/auth/etc/passwd'
	])('write_to_file %s through a link is protected_path and changes nothing', async (path) => {
		const { run, root } = await startOnDisk();
		const outcome = await run('write_to_file', write(path));
		expect(outcome.ok).toBe(false);
		if (outcome.ok) return;
		expect(outcome.error.code).toBe('protected_path');
		expect(outcome.error.message).not.toContain(root);
		expect(await readFile(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
		expect(await readFile(join(root, 'src', 'db', 'users.ts'), 'utf8')).toBe('users\n');
	});

	it('an over-long name is invalid_input and names no host path', async () => {
		const { run, root } = await startOnDisk();
		const outcome = await run('write_to_file', write(`src/auth/${'n'.repeat(300)}.ts`));
		expect(outcome.ok).toBe(false);
		if (outcome.ok) return;
		expect(outcome.error.code).toBe('invalid_input');
		expect(outcome.error.message).not.toContain(root);
	});

	it('the shell cannot write through a link either', async () => {
		const { run, root } = await startOnDisk();
		const outcome = await run('execute_command', {
			command:
				'echo x > src/auth/db/users.ts; echo y > src/auth/git/config; echo ok > src/auth/ok.ts'
		});
		expect(outcome.ok).toBe(false);
		expect(await readFile(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
		expect(await readFile(join(root, 'src', 'db', 'users.ts'), 'utf8')).toBe('users\n');
	});
});

describe('bad paths are invalid_input, never hook_failed', () => {
	it.each([['a parent that is a file', 'src/auth/jwt.ts/inner.ts']])(
		'write_to_file with %s',
		async (_label, path) => {
			shell = await startGovernedShell();
			const outcome = await shell.run('write_to_file', write(path));
			expect(outcome.ok).toBe(false);
			if (!outcome.ok) expect(outcome.error.code).toBe('invalid_input');
		}
	);
});
