import { describe, expect, it } from 'vitest';
import { skip } from './decision.js';
import { createTestPipeline, immediateScheduler, intentsFixture } from './pipeline-test-kit.js';

const jwt = 'export const sign = (payload: string) => payload;\n';

describe('ToolPipeline: the TRP1 flow', () => {
	it('blocks a write before an intent is checked out with intent_required', async () => {
		const { call, fs } = createTestPipeline({});
		const outcome = await call('write_to_file', {
			path: 'src/auth/jwt.ts',
			content: jwt,
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(outcome.ok).toBe(false);
		if (!outcome.ok) expect(outcome.error.code).toBe('intent_required');
		expect(await fs.stat('src/auth/jwt.ts')).toBeNull();
	});

	it('returns <intent_context> on select_active_intent and rejects unknown or inactive intents', async () => {
		const { call } = createTestPipeline({});
		const missing = await call('select_active_intent', { intent_id: 'INT-404' });
		expect(!missing.ok && missing.error.code).toBe('intent_not_found');
		const draft = await call('select_active_intent', { intent_id: 'INT-003' });
		expect(!draft.ok && draft.error.code).toBe('intent_not_active');
		const selected = await call('select_active_intent', { intent_id: 'INT-001' });
		expect(selected.ok).toBe(true);
		if (selected.ok) {
			expect(String(selected.output)).toContain('<intent_context>');
			expect(String(selected.output)).toContain('Must not use external auth providers');
		}
	});

	it('asks the human with a diff preview, then writes and records an Agent Trace record', async () => {
		const { call, fs, ledger, prompts } = createTestPipeline({});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('write_to_file', {
			path: 'src/auth/jwt.ts',
			content: jwt,
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(outcome.ok).toBe(true);
		expect(await fs.readTextFile('src/auth/jwt.ts')).toBe(jwt);
		expect(prompts).toHaveLength(1);
		expect(prompts[0]?.preview).toEqual([{ path: 'src/auth/jwt.ts', before: null, after: jwt }]);
		const mutations = (await ledger.events()).filter((event) => event.type === 'mutation-record');
		expect(mutations).toHaveLength(1);
		const record = mutations[0]?.type === 'mutation-record' ? mutations[0].trace : null;
		expect(record?.files[0]?.conversations[0]?.related).toEqual([
			{ type: 'specification', url: 'urn:threadline:intent:INT-001', value: 'INT-001' }
		]);
		expect(record?.files[0]?.conversations[0]?.ranges[0]).toMatchObject({
			start_line: 1,
			end_line: 1
		});
		expect(record?.metadata['dev.threadline']).toMatchObject({
			intent_id: 'INT-001',
			declared_mutation_class: 'INTENT_EVOLUTION',
			tool: 'write_to_file',
			seq: 1
		});
	});

	it('denies an out-of-scope write with the scope_violation message of DESIGN.md', async () => {
		const { call, fs } = createTestPipeline({});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('write_to_file', {
			path: 'src/db/x.ts',
			content: 'x',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(!outcome.ok && outcome.error).toMatchObject({
			code: 'scope_violation',
			message:
				'Scope Violation: INT-001 is not authorized to edit src/db/x.ts. Request scope expansion.'
		});
		expect(await fs.stat('src/db/x.ts')).toBeNull();
	});

	it('never lets an agent write .orchestration/ or .git/, whatever the spelling', async () => {
		const { call, fs } = createTestPipeline({ intentsYaml: undefined });
		await call('select_active_intent', { intent_id: 'INT-001' });
		for (const path of [
			'.orchestration/active_intents.yaml',
			'./.orchestration//x',
			'.ORCHESTRATION/x',
			'.git/config',
			'src/../.git/HEAD'
		]) {
			const outcome = await call('write_to_file', {
				path,
				content: 'x',
				intent_id: 'INT-001',
				mutation_class: 'INTENT_EVOLUTION'
			});
			expect(!outcome.ok && outcome.error.code, path).toBe('protected_path');
		}
		expect(await fs.readTextFile('.orchestration/active_intents.yaml')).toContain('INT-001');
	});

	it('rejects path tricks as invalid_input', async () => {
		const { call } = createTestPipeline({});
		await call('select_active_intent', { intent_id: 'INT-001' });
		for (const path of ['/etc/passwd', '../outside.ts', 'src/auth/\u0000x']) {
			const outcome = await call('write_to_file', {
				path,
				content: 'x',
				intent_id: 'INT-001',
				mutation_class: 'AST_REFACTOR'
			});
			expect(!outcome.ok && outcome.error.code, path).toBe('invalid_input');
		}
	});

	it('returns user_rejected with the human’s reason', async () => {
		const { call, fs } = createTestPipeline({
			approve: () => ({ approved: false, reason: 'use the existing helper' })
		});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('write_to_file', {
			path: 'src/auth/jwt.ts',
			content: jwt,
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(!outcome.ok && outcome.error.code).toBe('user_rejected');
		expect(!outcome.ok && outcome.error.message).toContain('use the existing helper');
		expect(await fs.stat('src/auth/jwt.ts')).toBeNull();
	});

	it('gives stale_file when a human edited the file after the agent read it', async () => {
		const { call, pipeline, fs } = createTestPipeline({ files: { 'src/auth/jwt.ts': jwt } });
		await call('select_active_intent', { intent_id: 'INT-001' });
		const unread = await call('apply_diff', {
			path: 'src/auth/jwt.ts',
			search: 'payload;',
			replace: 'payload.trim();',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(!unread.ok && unread.error.code).toBe('stale_file');
		expect((await call('read_file', { path: 'src/auth/jwt.ts' })).ok).toBe(true);
		await pipeline.recordHumanEdit({ path: 'src/auth/jwt.ts', content: `// reviewed\n${jwt}` });
		const stale = await call('apply_diff', {
			path: 'src/auth/jwt.ts',
			search: 'payload;',
			replace: 'payload.trim();',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(!stale.ok && stale.error).toMatchObject({ code: 'stale_file' });
		expect(!stale.ok && stale.error.suggestion).toContain('read_file');
		await call('read_file', { path: 'src/auth/jwt.ts' });
		const fresh = await call('apply_diff', {
			path: 'src/auth/jwt.ts',
			search: 'payload;',
			replace: 'payload.trim();',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(fresh.ok).toBe(true);
		expect(await fs.readTextFile('src/auth/jwt.ts')).toContain('payload.trim()');
	});

	it('locks an intent to one session unless it is parallel', async () => {
		const { call } = createTestPipeline({});
		expect((await call('select_active_intent', { intent_id: 'INT-001' }, 'architect')).ok).toBe(
			true
		);
		const contended = await call('select_active_intent', { intent_id: 'INT-001' }, 'builder');
		expect(!contended.ok && contended.error.code).toBe('intent_locked');
		expect((await call('select_active_intent', { intent_id: 'INT-002' }, 'architect')).ok).toBe(
			true
		);
		expect((await call('select_active_intent', { intent_id: 'INT-001' }, 'builder')).ok).toBe(true);
	});

	it('gives intent_mismatch when a call names another intent than the active one', async () => {
		const { call } = createTestPipeline({});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('write_to_file', {
			path: 'src/db/x.ts',
			content: 'x',
			intent_id: 'INT-002',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(!outcome.ok && outcome.error.code).toBe('intent_mismatch');
	});

	it('reverts a shell command’s out-of-scope writes and reports scope_violation', async () => {
		const { call, fs, ledger } = createTestPipeline({
			commands: {
				'make-files': {
					writes: {
						'src/auth/ok.ts': 'ok',
						'src/db/leak.ts': 'leak',
						'.orchestration/audit.jsonl': 'forged'
					}
				}
			}
		});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('execute_command', { command: 'make-files' });
		expect(outcome.ok).toBe(false);
		expect(await fs.readTextFile('src/auth/ok.ts')).toBe('ok');
		expect(await fs.stat('src/db/leak.ts')).toBeNull();
		expect(await fs.stat('.orchestration/audit.jsonl')).toBeNull();
		const events = await ledger.events();
		expect(
			events
				.filter((event) => event.type === 'change-revert')
				.map((event) => event.type === 'change-revert' && event.path)
				.sort()
		).toEqual(['.orchestration/audit.jsonl', 'src/db/leak.ts']);
		expect(events.filter((event) => event.type === 'mutation-record')).toHaveLength(1);
	});

	it('denies critical commands and asks for destructive ones with the reasons', async () => {
		const { call, prompts, runner } = createTestPipeline({});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const critical = await call('execute_command', { command: 'rm -rf /' });
		expect(!critical.ok && critical.error.code).toBe('command_denied');
		expect(runner.commands).toEqual([]);
		await call('execute_command', { command: 'rm src/auth/old.ts' });
		expect(prompts.at(-1)?.command).toMatchObject({
			command: 'rm src/auth/old.ts',
			classification: 'destructive'
		});
		expect(prompts.at(-1)?.command?.reasons.join(' ')).toMatch(/rm/);
		const before = prompts.length;
		await call('execute_command', { command: 'ls src' });
		expect(prompts.length).toBe(before);
	});

	it('records a lesson in AGENT.md when a command fails', async () => {
		const { call, fs } = createTestPipeline({
			commands: { 'npm test': { exitCode: 1, output: 'FAIL tests/auth' } }
		});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('execute_command', { command: 'npm test' });
		expect(!outcome.ok && outcome.error.code).toBe('command_failed');
		expect(await fs.readTextFile('.orchestration/AGENT.md')).toMatch(
			/npm test.*failed with exit code 1: FAIL tests\/auth/
		);
	});

	it('completes an intent only after its runnable criteria pass, keeping YAML comments', async () => {
		const failing = createTestPipeline({
			commands: { 'test-auth': { exitCode: 1, output: 'nope' } }
		});
		await failing.call('select_active_intent', { intent_id: 'INT-001' });
		const refused = await failing.call('complete_intent', { intent_id: 'INT-001' });
		expect(!refused.ok && refused.error.code).toBe('command_failed');
		expect(failing.state.intent('INT-001')?.status).toBe('IN_PROGRESS');

		const passing = createTestPipeline({});
		await passing.call('select_active_intent', { intent_id: 'INT-001' });
		expect(
			(await passing.call('complete_intent', { intent_id: 'INT-001', evidence: 'tests pass' })).ok
		).toBe(true);
		const yaml = await passing.fs.readTextFile('.orchestration/active_intents.yaml');
		expect(yaml).toContain('# Two intents with disjoint scopes');
		expect(passing.state.intent('INT-001')?.status).toBe('COMPLETED');
		expect(passing.state.sessions.get('builder')?.activeIntentId).toBeNull();
	});

	it('adds approved scope expansions to owned_scope, and never into .orchestration/', async () => {
		const { call, state } = createTestPipeline({});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const protectedAsk = await call('request_scope_expansion', {
			intent_id: 'INT-001',
			paths: ['.orchestration/**'],
			reason: 'x'
		});
		expect(!protectedAsk.ok && protectedAsk.error.code).toBe('protected_path');
		const granted = await call('request_scope_expansion', {
			intent_id: 'INT-001',
			paths: ['src/db/session.ts'],
			reason: 'sessions live there'
		});
		expect(granted.ok).toBe(true);
		expect(state.scope.isInScope('INT-001', 'src/db/session.ts')).toBe(true);
		const write = await call('write_to_file', {
			path: 'src/db/session.ts',
			content: 'x',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(write.ok).toBe(true);
	});

	it('asks before every destructive action under an intent listed in .intentignore, even with policy never', async () => {
		const { call, prompts } = createTestPipeline({
			intentIgnore: '# protected\nINT-001\n',
			policy: 'never'
		});
		await call('select_active_intent', { intent_id: 'INT-001' });
		await call('write_to_file', {
			path: 'src/auth/a.ts',
			content: 'a',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(prompts).toHaveLength(1);
		expect(prompts[0]?.reasons.join(' ')).toContain('.intentignore');
	});

	it('remembers “Approve all for this intent” for the rest of the session', async () => {
		const { call, prompts } = createTestPipeline({
			approve: () => ({ approved: true, remember: 'intent' })
		});
		await call('select_active_intent', { intent_id: 'INT-001' });
		await call('write_to_file', {
			path: 'src/auth/a.ts',
			content: 'a',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		await call('write_to_file', {
			path: 'src/auth/b.ts',
			content: 'b',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(prompts).toHaveLength(1);
	});

	it('validates input and names unknown tools', async () => {
		const { call } = createTestPipeline({});
		const unknown = await call('format_disk', {});
		expect(!unknown.ok && unknown.error.code).toBe('invalid_input');
		const bad = await call('write_to_file', { path: 'a.ts' });
		expect(!bad.ok && bad.error.message).toMatch(/content/);
	});
});

describe('ToolPipeline: hooks fail closed', () => {
	it('turns a throwing pre-hook into hook_failed and records it', async () => {
		const { call, pipeline, ledger, fs } = createTestPipeline({});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const dispose = pipeline.registry.registerPre({
			name: 'broken',
			priority: 5,
			run: () => {
				throw new Error('boom');
			}
		});
		const outcome = await call('write_to_file', {
			path: 'src/auth/a.ts',
			content: 'a',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(!outcome.ok && outcome.error.code).toBe('hook_failed');
		expect(await fs.stat('src/auth/a.ts')).toBeNull();
		expect(
			(await ledger.events()).some(
				(event) => event.type === 'hook-error' && event.hook === 'broken'
			)
		).toBe(true);
		dispose();
		expect(
			(
				await call('write_to_file', {
					path: 'src/auth/a.ts',
					content: 'a',
					intent_id: 'INT-001',
					mutation_class: 'INTENT_EVOLUTION'
				})
			).ok
		).toBe(true);
	});

	it('treats a pre-hook that exceeds its timeout as a deny', async () => {
		const { call, pipeline } = createTestPipeline({ scheduler: immediateScheduler });
		pipeline.registry.registerPre({
			name: 'slow',
			priority: 1,
			timeoutMs: 10,
			run: () => new Promise(() => undefined)
		});
		const outcome = await call('list_files', {});
		expect(!outcome.ok && outcome.error).toMatchObject({ code: 'hook_failed' });
		expect(!outcome.ok && outcome.error.message).toMatch(/timed out/);
	});

	it('denies when an approval port fails', async () => {
		const { call, fs } = createTestPipeline({
			approve: () => {
				throw new Error('modal crashed');
			}
		});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('write_to_file', {
			path: 'src/auth/a.ts',
			content: 'a',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(!outcome.ok && outcome.error.code).toBe('user_rejected');
		expect(await fs.stat('src/auth/a.ts')).toBeNull();
	});

	it('records a failing post-hook without changing the result', async () => {
		const { call, pipeline, ledger } = createTestPipeline({});
		pipeline.registry.registerPost({
			name: 'flaky',
			priority: 1,
			run: () => {
				throw new Error('disk full');
			}
		});
		const outcome = await call('list_files', {});
		expect(outcome.ok).toBe(true);
		expect(
			(await ledger.events()).some(
				(event) => event.type === 'hook-error' && event.message === 'disk full'
			)
		).toBe(true);
	});

	it('lets a matcher limit a hook to some tools and paths', async () => {
		// Policy never: no approval, so the hooks run once (after an approval they run again).
		const { call, pipeline } = createTestPipeline({ policy: 'never' });
		const seen: string[] = [];
		pipeline.registry.registerPre({
			name: 'spy',
			priority: 1,
			matcher: { tools: ['write_to_file'], paths: ['src/auth/**'] },
			run: (context) => {
				seen.push(context.targets.join());
				return skip;
			}
		});
		await call('select_active_intent', { intent_id: 'INT-001' });
		await call('write_to_file', {
			path: 'src/auth/a.ts',
			content: 'a',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		await call('write_to_file', {
			path: 'README.md',
			content: 'a',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(seen).toEqual(['src/auth/a.ts']);
	});
});

describe('ToolPipeline: storage failures', () => {
	it('returns hook_failed instead of throwing when the ledger cannot be written', async () => {
		const { call, ledger } = createTestPipeline({});
		ledger.append = async () => {
			throw new Error('QuotaExceededError: the storage quota is full');
		};
		const outcome = await call('list_files', {});
		expect(!outcome.ok && outcome.error.code).toBe('hook_failed');
		expect(!outcome.ok && outcome.error.message).toContain('quota');
	});
});

describe('ToolPipeline: post-hook timeouts', () => {
	it('records a post-hook that never settles as a hook error and still answers', async () => {
		const { call, pipeline, ledger } = createTestPipeline({ scheduler: immediateScheduler });
		pipeline.registry.registerPost({
			name: 'stuck',
			priority: 1,
			timeoutMs: 5,
			run: () => new Promise(() => undefined)
		});
		const outcome = await call('list_files', {});
		expect(outcome.ok).toBe(true);
		expect(
			(await ledger.events()).some(
				(event) => event.type === 'hook-error' && event.message.includes('timed out')
			)
		).toBe(true);
	});
});

describe('ToolPipeline: people edit governance files', () => {
	it('follows a human edit of the intents file and of .intentignore at once', async () => {
		const { call, pipeline, state, prompts } = createTestPipeline({ policy: 'never' });
		await pipeline.recordHumanEdit({
			path: '.orchestration/active_intents.yaml',
			content: intentsFixture.replace(
				'owned_scope: ["src/db/**"]',
				'owned_scope: ["src/db/**", "docs/**"]'
			)
		});
		expect(state.scope.isInScope('INT-002', 'docs/x.md')).toBe(true);
		await pipeline.recordHumanEdit({
			path: '.orchestration/active_intents.yaml',
			content: 'active_intents: ['
		});
		expect(state.intentsErrors.length).toBeGreaterThan(0);
		expect(state.scope.isInScope('INT-002', 'docs/x.md')).toBe(true);
		// A save of .intentignore never changes protection: only the intents panel's switch does.
		await expect(
			pipeline.recordHumanEdit({ path: '.intentignore', content: 'INT-002\n' })
		).rejects.toThrow(/Protected switch in the intents panel/);
		expect(state.protectedIntentIds.has('INT-002')).toBe(false);
		await pipeline.setIntentProtection({ intentId: 'INT-002', protect: true });
		await call('select_active_intent', { intent_id: 'INT-002' });
		await call('write_to_file', {
			path: 'docs/x.md',
			content: 'x',
			intent_id: 'INT-002',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(prompts).toHaveLength(1);
	});

	it('changes protection only with setIntentProtection, recorded as the person’s change', async () => {
		const { pipeline, state, fs, ledger } = createTestPipeline({
			files: { '.intentignore': '# protected intents\nINT-001 # billing\n' },
			intentIgnore: '# protected intents\nINT-001 # billing\n'
		});
		const added = await pipeline.setIntentProtection({ intentId: 'INT-002', protect: true });
		expect(await fs.readTextFile('.intentignore')).toBe(
			'# protected intents\nINT-001 # billing\nINT-002\n'
		);
		expect([...state.protectedIntentIds]).toEqual(['INT-001', 'INT-002']);
		expect(added).toMatchObject([
			{
				type: 'mutation-record',
				trace: {
					files: [{ path: '.intentignore', conversations: [{ contributor: { type: 'human' } }] }],
					metadata: { 'dev.threadline': { tool: 'intent-protection' } }
				}
			}
		]);
		await pipeline.setIntentProtection({ intentId: 'INT-001', protect: false });
		expect(await fs.readTextFile('.intentignore')).toBe(
			'# protected intents\n# billing\nINT-002\n'
		);
		expect([...state.protectedIntentIds]).toEqual(['INT-002']);
		// The file lost INT-002 outside governance: switching another intent keeps it protected.
		fs.externalWrite('.intentignore', '# protected intents\n');
		await pipeline.setIntentProtection({ intentId: 'INT-003', protect: true });
		expect(await fs.readTextFile('.intentignore')).toBe('# protected intents\nINT-003\nINT-002\n');
		await pipeline.setIntentProtection({ intentId: 'INT-003', protect: false });
		// Asked for what already holds: nothing recorded.
		expect(await pipeline.setIntentProtection({ intentId: 'INT-002', protect: true })).toEqual([]);
		await expect(
			pipeline.setIntentProtection({ intentId: 'INT-404', protect: true })
		).rejects.toThrow(/not an intent/);
		expect(
			(await ledger.events()).filter((event) => event.type === 'mutation-record')
		).toHaveLength(4);
	});
});

describe('ToolPipeline: reading is not changing', () => {
	it('lets an agent read files outside its scope and the governance files, but not change them', async () => {
		const { call } = createTestPipeline({
			files: { 'src/db/users.ts': 'export const users = [];\n' }
		});
		await call('select_active_intent', { intent_id: 'INT-001' });
		expect((await call('read_file', { path: './src/db/users.ts' })).ok).toBe(true);
		expect((await call('read_file', { path: '.orchestration/active_intents.yaml' })).ok).toBe(true);
		const escape = await call('read_file', { path: '../secrets' });
		expect(!escape.ok && escape.error.code).toBe('invalid_input');
	});
});

describe('ToolPipeline: a person’s terminal', () => {
	it('attributes changes the terminal already made to the human, without writing again', async () => {
		const { pipeline, fs, ledger } = createTestPipeline({});
		fs.externalWrite('notes.txt', 'from the terminal\n');
		const encode = (text: string) => new TextEncoder().encode(text);
		const events = await pipeline.recordAppliedChanges([
			{ path: 'notes.txt', type: 'created', before: null, after: encode('from the terminal\n') }
		]);
		expect(events).toHaveLength(1);
		const record = events[0]?.type === 'mutation-record' ? events[0].trace : null;
		expect(record?.files[0]?.conversations[0]?.contributor).toEqual({ type: 'human' });
		expect(record?.metadata['dev.threadline']).toMatchObject({
			tool: 'terminal',
			intent_id: null,
			operation: 'write'
		});
		expect((await ledger.events()).length).toBe(1);
	});
});
