import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGovernancePath } from '../paths/protected-paths.js';
import { normalizeWorkspacePath } from '../paths/normalize-path.js';
import { createTestPipeline } from './pipeline-test-kit.js';

/**
 * The security boundary as a property: whatever the model sends — any tool, any path spelling,
 * any shell side effect, any approval answer — no call changes a file outside the calling
 * session's active intent scope, or anything under .orchestration/ or .git/ (except the three
 * governance files the system itself maintains).
 */
const systemFiles = new Set([
	'.orchestration/AGENT.md',
	'.orchestration/intent_map.md',
	'.orchestration/active_intents.yaml'
]);

const segment = fc.constantFrom(
	'src',
	'auth',
	'db',
	'jwt.ts',
	'x',
	'.git',
	'.orchestration',
	'.ORCHESTRATION',
	'..',
	'.',
	'',
	'middleware',
	'é',
	'e\u0301',
	'config'
);
const trickyPath = fc.oneof(
	fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/')),
	fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('\\')),
	fc.constantFrom(
		'src/auth/jwt.ts',
		'src/auth/new.ts',
		'src/middleware/jwt.ts',
		'src/db/users.ts',
		'./src/auth//a.ts',
		'src/auth/../db/x.ts',
		'src/auth/../../.git/config',
		'/etc/passwd',
		'../outside.ts',
		'.orchestration/active_intents.yaml',
		'.orchestration/audit.jsonl',
		'.git/HEAD',
		'.GIT/config',
		'src\\..\\.git\\x',
		'C:\\windows',
		'src/auth/\u0000nul'
	)
);
const intentId = fc.constantFrom('INT-001', 'INT-002', 'INT-003', 'INT-404');
const mutationClass = fc.constantFrom('AST_REFACTOR', 'INTENT_EVOLUTION', 'NOPE');

const toolCall = fc.oneof(
	fc.record({
		tool: fc.constant('select_active_intent'),
		input: fc.record({ intent_id: intentId })
	}),
	fc.record({ tool: fc.constant('read_file'), input: fc.record({ path: trickyPath }) }),
	fc.record({
		tool: fc.constant('write_to_file'),
		input: fc.record({
			path: trickyPath,
			content: fc.string({ maxLength: 40 }),
			intent_id: intentId,
			mutation_class: mutationClass
		})
	}),
	fc.record({
		tool: fc.constant('apply_diff'),
		input: fc.record({
			path: trickyPath,
			search: fc.constantFrom('a', 'export', 'x'),
			replace: fc.string({ maxLength: 10 }),
			intent_id: intentId,
			mutation_class: mutationClass
		})
	}),
	fc.record({
		tool: fc.constant('delete_file'),
		input: fc.record({ path: trickyPath, intent_id: intentId })
	}),
	fc.record({
		tool: fc.constant('execute_command'),
		input: fc.record({
			command: fc.constantFrom(
				'make',
				'ls',
				'rm -rf /',
				'cat x > y',
				'sed -i s/a/b/ src/auth/jwt.ts'
			)
		}),
		writes: fc.dictionary(trickyPath, fc.option(fc.string({ maxLength: 10 }), { nil: null }), {
			maxKeys: 3
		})
	}),
	fc.record({
		tool: fc.constant('request_scope_expansion'),
		input: fc.record({
			intent_id: intentId,
			paths: fc.array(trickyPath, { minLength: 1, maxLength: 2 }),
			reason: fc.constant('needed')
		})
	}),
	fc.record({ tool: fc.constant('complete_intent'), input: fc.record({ intent_id: intentId }) }),
	fc.record({
		tool: fc.constantFrom('record_lesson'),
		input: fc.record({ lesson: fc.string({ minLength: 1, maxLength: 20 }) })
	}),
	fc.record({ tool: fc.constantFrom('format_disk', 'list_files'), input: fc.anything() })
);

const step = fc.record({
	call: toolCall,
	session: fc.constantFrom('architect', 'builder'),
	approve: fc.boolean(),
	humanEdit: fc.option(
		fc.record({
			path: fc.constantFrom('src/auth/jwt.ts', 'src/db/users.ts'),
			content: fc.string({ maxLength: 20 })
		}),
		{ freq: 8 }
	)
});

describe('scope safety (property)', () => {
	it('no generated call ever changes a file outside scope or under .orchestration/ or .git/', async () => {
		let calls = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 30 }), async (steps) => {
				const shellWrites = new Map<string, Record<string, string | null>>();
				const kit = createTestPipeline({
					files: {
						'src/auth/jwt.ts': 'export const a = 1;\n',
						'src/db/users.ts': 'export const x = 1;\n',
						'.git/HEAD': 'ref: refs/heads/main\n',
						'.orchestration/audit.jsonl': ''
					},
					intentIgnore: 'INT-002\n',
					approve: () => ({ approved: currentApproval }),
					commands: new Proxy(
						{},
						{
							get: (_target, command: string) => ({
								exitCode: 0,
								writes: shellWrites.get(command) ?? {}
							})
						}
					)
				});
				let currentApproval = true;
				for (const { call, session, approve, humanEdit } of steps) {
					if (humanEdit) await kit.pipeline.recordHumanEdit(humanEdit);
					currentApproval = approve;
					const before = await snapshot(kit.fs);
					const activeIntent = kit.state.sessions.get(session)?.activeIntentId ?? null;
					const scopeBefore = kit.state.scope;
					if ('writes' in call)
						shellWrites.set(
							String((call.input as { command: string }).command),
							normaliseWrites(call.writes)
						);
					await kit.call(call.tool, call.input, session);
					calls++;
					const after = await snapshot(kit.fs);
					for (const path of changedPaths(before, after)) {
						if (systemFiles.has(path)) continue;
						expect(isGovernancePath(path), `${call.tool} changed protected ${path}`).toBe(false);
						expect(
							activeIntent,
							`${call.tool} changed ${path} with no active intent`
						).not.toBeNull();
						expect(
							scopeBefore.isInScope(activeIntent ?? '', path),
							`${call.tool} changed ${path} outside ${activeIntent}`
						).toBe(true);
					}
				}
			}),
			{ numRuns: 600 }
		);
		expect(calls).toBeGreaterThanOrEqual(10_000);
	});

	it('a shell cannot write below a file, so a later save of that file still works (seed -1092596457)', async () => {
		// The property once reached a world no shell can make: `src/auth/jwt.ts` a file and
		// `src/auth/jwt.ts/src` written below it, after which the person's save of the file failed.
		const kit = createTestPipeline({
			files: { 'src/auth/jwt.ts': 'export const a = 1;\n' },
			commands: { make: { exitCode: 0, writes: { 'src/auth/jwt.ts/src': '' } } }
		});
		await kit.call('select_active_intent', { intent_id: 'INT-001' }, 'architect');
		await kit.call('execute_command', { command: 'make' }, 'architect');
		expect(kit.fs.paths()).not.toContain('src/auth/jwt.ts/src');
		await kit.pipeline.recordHumanEdit({
			path: 'src/auth/jwt.ts',
			content: 'export const a = 2;\n'
		});
		expect(await kit.fs.readTextFile('src/auth/jwt.ts')).toBe('export const a = 2;\n');
	});
});

/** Generated shell side effects use workspace paths; unusable ones are dropped as no shell could write them. */
function normaliseWrites(writes: Record<string, string | null>): Record<string, string | null> {
	const result: Record<string, string | null> = {};
	for (const [path, content] of Object.entries(writes)) {
		const normalised = normalizeWorkspacePath(path);
		if (normalised.ok) result[normalised.path] = content;
	}
	return result;
}

async function snapshot(fs: {
	paths(): string[];
	readTextFile(path: string): Promise<string>;
}): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	for (const path of fs.paths()) files.set(path, await fs.readTextFile(path));
	return files;
}

function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
	const changed: string[] = [];
	for (const [path, content] of after) if (before.get(path) !== content) changed.push(path);
	for (const path of before.keys()) if (!after.has(path)) changed.push(path);
	return changed;
}
