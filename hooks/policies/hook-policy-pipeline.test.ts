import { describe, expect, it } from 'vitest';
import { contentHash } from '../hashing/sha256.js';
import { createTestPipeline } from '../pipeline/pipeline-test-kit.js';
import { hookPolicyPath } from './hook-policy-schema.js';

const write = (path: string, content = 'export const x = 1;\n') => ({
	path,
	content,
	intent_id: 'INT-001',
	mutation_class: 'INTENT_EVOLUTION'
});

async function withPolicy(
	policy: string,
	options: Parameters<typeof createTestPipeline>[0] = {}
): Promise<ReturnType<typeof createTestPipeline>> {
	const kit = createTestPipeline({
		...options,
		files: { [hookPolicyPath]: policy, ...options.files }
	});
	await kit.pipeline.loadHookPolicy(policy);
	await kit.call('select_active_intent', { intent_id: 'INT-001' });
	return kit;
}

describe('scenario hook policy in the pipeline', () => {
	it('denies a matching write with the rule message and leaves the file alone', async () => {
		const { call, fs } = await withPolicy(
			'rules:\n  - match: { tools: [write_to_file], paths: ["src/auth/secrets/**"] }\n    action: deny\n    message: "Secrets are written by people only."\n'
		);
		const outcome = await call('write_to_file', write('src/auth/secrets/key.ts'));
		expect(outcome.ok).toBe(false);
		if (!outcome.ok) {
			expect(outcome.error.code).toBe('protected_path');
			expect(outcome.error.message).toContain('Secrets are written by people only.');
		}
		expect(await fs.stat('src/auth/secrets/key.ts')).toBeNull();
		expect((await call('write_to_file', write('src/auth/jwt.ts'))).ok).toBe(true);
	});

	it('denies a matching command, also hidden after &&', async () => {
		const { call, runner } = await withPolicy(
			'rules:\n  - match: { tools: [execute_command], commands: ["git push*"] }\n    action: deny\n'
		);
		const outcome = await call('execute_command', { command: 'echo hi && git push origin' });
		expect(!outcome.ok && outcome.error.code).toBe('command_denied');
		expect(runner.commands).toEqual([]);
	});

	it('asks for a matching command even when the approval policy never asks', async () => {
		const { call, prompts } = await withPolicy(
			'rules:\n  - match: { commands: ["npm publish*"] }\n    action: ask\n    message: "Publishing is the class’s decision."\n',
			{ policy: 'never', approve: () => ({ approved: false }) }
		);
		const outcome = await call('execute_command', { command: 'npm publish' });
		expect(!outcome.ok && outcome.error.code).toBe('user_rejected');
		expect(prompts[0]?.hook).toContain('hook-policy');
		expect(prompts[0]?.reasons.join(' ')).toContain('Publishing is the class’s decision.');
	});

	it('allow waives the approval policy’s question for matching writes only', async () => {
		const { call, prompts } = await withPolicy(
			'rules:\n  - match: { tools: [write_to_file], paths: ["src/auth/**"] }\n    action: allow\n'
		);
		expect((await call('write_to_file', write('src/auth/jwt.ts'))).ok).toBe(true);
		expect(prompts).toHaveLength(0);
		expect((await call('write_to_file', write('src/middleware/jwt.ts'))).ok).toBe(true);
		expect(prompts).toHaveLength(1);
	});

	it('allow never lifts a built-in deny: protected paths, scope, the gatekeeper', async () => {
		const { call, pipeline, fs } = await withPolicy(
			'rules:\n  - match: { paths: ["**"] }\n    action: allow\n  - match: { tools: [execute_command] }\n    action: allow\n'
		);
		const protectedWrite = await call('write_to_file', write(hookPolicyPath, 'rules: []\n'));
		expect(!protectedWrite.ok && protectedWrite.error.code).toBe('protected_path');
		const outOfScope = await call('write_to_file', write('src/db/x.ts'));
		expect(!outOfScope.ok && outOfScope.error.code).toBe('scope_violation');
		const critical = await call('execute_command', { command: 'rm -rf /' });
		expect(!critical.ok && critical.error.code).toBe('command_denied');
		// Another session without an intent: the gatekeeper still stops it.
		const noIntent = await pipeline.run({
			sessionId: 'other',
			toolCallId: 'x-1',
			tool: 'write_to_file',
			input: write('src/auth/a.ts')
		});
		expect(!noIntent.ok && noIntent.error.code).toBe('intent_required');
		expect(await fs.readTextFile(hookPolicyPath)).toContain('path');
	});

	it('allow never waives the question of an intent listed in .intentignore', async () => {
		const { call, prompts } = await withPolicy(
			'rules:\n  - match: { paths: ["src/**"] }\n    action: allow\n',
			{ intentIgnore: 'INT-001\n' }
		);
		expect((await call('write_to_file', write('src/auth/jwt.ts'))).ok).toBe(true);
		expect(prompts.map((prompt) => prompt.hook)).toEqual(['protected-intent']);
	});

	it('a deny rule wins over an allow rule for the same call', async () => {
		const { call } = await withPolicy(
			'rules:\n  - match: { paths: ["src/**"] }\n    action: allow\n  - match: { paths: ["src/auth/jwt.ts"] }\n    action: deny\n'
		);
		expect((await call('write_to_file', write('src/auth/jwt.ts'))).ok).toBe(false);
	});

	it('runs a check after a matching write; its failure reaches the agent as command_failed and a lesson', async () => {
		const { call, fs, ledger, runner } = await withPolicy(
			'rules:\n  - match: { tools: [write_to_file], paths: ["src/**/*.ts"], intents: [INT-001] }\n    action: run\n    run: "grep -q sign src/auth/jwt.ts"\n',
			{
				commands: {
					'grep -q sign src/auth/jwt.ts': {
						exitCode: 1,
						output: 'no sign function in src/auth/jwt.ts\n',
						writes: { 'coverage/out.txt': 'junk' }
					}
				}
			}
		);
		const outcome = await call('write_to_file', write('src/auth/jwt.ts'));
		expect(runner.commands).toEqual(['grep -q sign src/auth/jwt.ts']);
		expect(outcome.ok).toBe(false);
		if (!outcome.ok) {
			expect(outcome.error.code).toBe('command_failed');
			expect(outcome.error.message).toContain('grep -q sign src/auth/jwt.ts');
			expect(outcome.error.message).toContain('no sign function');
		}
		// The write stays (it was governed and recorded); what the check wrote is put back.
		expect(await fs.readTextFile('src/auth/jwt.ts')).toContain('export const x');
		expect(await fs.stat('coverage/out.txt')).toBeNull();
		const events = await ledger.events();
		expect(
			events.some((event) => event.type === 'lesson-record' && event.category === 'check-failure')
		).toBe(true);
		expect(
			events.some((event) => event.type === 'change-revert' && event.path === 'coverage/out.txt')
		).toBe(true);
		const finish = events.findLast((event) => event.type === 'tool-call-finish');
		expect(finish?.type === 'tool-call-finish' && finish.code).toBe('command_failed');
		expect(await fs.readTextFile('.orchestration/AGENT.md')).toContain('grep -q sign');
	});

	it('does not run a check for a write that does not match or that failed', async () => {
		const { call, runner } = await withPolicy(
			'rules:\n  - match: { paths: ["src/**/*.ts"], intents: [INT-002] }\n    action: run\n    run: "test -f x"\n'
		);
		expect((await call('write_to_file', write('src/auth/jwt.ts'))).ok).toBe(true);
		expect(runner.commands).toEqual([]);
	});

	it('passes when the check passes', async () => {
		const { call, runner } = await withPolicy(
			'rules:\n  - match: { paths: ["src/**"] }\n    action: run\n    run: "test -f src/auth/jwt.ts"\n'
		);
		expect((await call('write_to_file', write('src/auth/jwt.ts'))).ok).toBe(true);
		expect(runner.commands).toEqual(['test -f src/auth/jwt.ts']);
	});

	it("an untrusted scenario's check runs only with the person's consent, asked with the command", async () => {
		const asked: string[] = [];
		const policy =
			'rules:\n  - match: { paths: ["src/**"] }\n    action: run\n    run: "test -f src/auth/jwt.ts"\n';
		const allowed = await withPolicy(policy, {
			checkConsent: async (command) => {
				asked.push(command);
				return true;
			}
		});
		expect((await allowed.call('write_to_file', write('src/auth/jwt.ts'))).ok).toBe(true);
		expect(asked).toEqual(['test -f src/auth/jwt.ts']);
		expect(allowed.runner.commands).toEqual(['test -f src/auth/jwt.ts']);

		for (const consent of [async () => false, async () => Promise.reject(new Error('closed'))]) {
			const refused = await withPolicy(policy, { checkConsent: consent });
			const outcome = await refused.call('write_to_file', write('src/auth/jwt.ts'));
			// Refused (or a consent that failed): the check never runs and the agent is told so.
			expect(refused.runner.commands).toEqual([]);
			expect(outcome.ok).toBe(false);
			if (!outcome.ok) {
				expect(outcome.error.code).toBe('command_denied');
				expect(outcome.error.message).toContain('did not allow');
				expect(outcome.error.message).toContain('test -f src/auth/jwt.ts');
			}
			// The write itself was governed and stays.
			expect(await refused.fs.readTextFile('src/auth/jwt.ts')).toContain('export const x');
		}
	});

	it('a broken policy fails closed with where to fix it; reads still work', async () => {
		const { call, fs } = await withPolicy(
			'rules:\n  - match: { tools: [write_to_file] }\n    action: block\n',
			{
				files: { 'README.md': 'hi\n' }
			}
		);
		const outcome = await call('write_to_file', write('src/auth/jwt.ts'));
		expect(outcome.ok).toBe(false);
		if (!outcome.ok) {
			expect(outcome.error.code).toBe('hook_failed');
			expect(outcome.error.message).toContain('.orchestration/hooks.yaml');
			expect(outcome.error.message).toContain('3:13');
		}
		expect(await fs.stat('src/auth/jwt.ts')).toBeNull();
		expect((await call('read_file', { path: 'README.md' })).ok).toBe(true);
		const command = await call('execute_command', { command: 'touch src/auth/a.ts' });
		expect(!command.ok && command.error.code).toBe('hook_failed');
	});

	it('records the policy hash once per change, including a human edit that fixes it', async () => {
		const broken = 'rules: [\n';
		const { pipeline, ledger, call, state } = await withPolicy(broken);
		await pipeline.loadHookPolicy(broken);
		let loads = (await ledger.events()).filter((event) => event.type === 'hook-policy-load');
		expect(loads).toHaveLength(1);
		expect(loads[0]).toMatchObject({
			ok: false,
			policy_hash: await contentHash(broken),
			by: 'workspace'
		});
		const fixed = 'rules: []\n';
		await pipeline.recordHumanEdit({ path: hookPolicyPath, content: fixed });
		loads = (await ledger.events()).filter((event) => event.type === 'hook-policy-load');
		expect(loads).toHaveLength(2);
		expect(loads[1]).toMatchObject({
			ok: true,
			rules: 0,
			policy_hash: await contentHash(fixed),
			by: 'human'
		});
		expect(state.hookPolicy.broken).toBe(false);
		expect((await call('write_to_file', write('src/auth/jwt.ts'))).ok).toBe(true);
	});

	it('records no event for a workspace without a policy', async () => {
		const { pipeline, ledger } = createTestPipeline({});
		await pipeline.loadHookPolicy(null);
		expect((await ledger.events()).some((event) => event.type === 'hook-policy-load')).toBe(false);
	});
});
