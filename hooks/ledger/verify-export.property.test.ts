import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentNotesPath } from '../pipeline/governance-state.js';
import { createTestPipeline } from '../pipeline/pipeline-test-kit.js';
import { exportOrchestration } from './export.js';
import { verifyLedger } from './verify.js';

/**
 * Verify checks everything it exports: after any legitimate session the export passes, and any
 * single changed byte, swapped file or widened scope anywhere in it (workspace or
 * `.orchestration/`) fails.
 */
const startingFiles = {
	'src/auth/login.ts': 'export function login() {\n\treturn 1;\n}\n',
	'src/db/users.ts': 'export const users = [];\n',
	'README.md': '# Demo\n',
	'.intentignore': '# protected intents\n',
	'.orchestration/AGENT.md': '# Notes\n\nBe careful.\n',
	'.orchestration/hooks.yaml': 'rules: []\n',
	'.git/config': '[core]\n\tbare = false\n'
};

type Step =
	| { kind: 'select'; intent: 'INT-001' | 'INT-002' }
	| { kind: 'write'; path: string; content: string; intent: 'INT-001' | 'INT-002' }
	| { kind: 'lesson'; lesson: string }
	| { kind: 'failing-command'; command: string }
	| { kind: 'expand'; intent: 'INT-001' | 'INT-002'; glob: string }
	| { kind: 'human-edit'; path: string; content: string }
	| { kind: 'protect'; intent: 'INT-001' | 'INT-002'; protect: boolean }
	| { kind: 'human-intents'; name: string };

const intentArbitrary = fc.constantFrom('INT-001' as const, 'INT-002' as const);
const hostileText = fc.string({
	unit: fc.constantFrom('a', ' ', '\n', '\r', '#', '<', '>', '`', '\u2028', 'é', '|', '-'),
	minLength: 1,
	maxLength: 40
});
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
	fc.record({ kind: fc.constant('select' as const), intent: intentArbitrary }),
	fc.record({
		kind: fc.constant('write' as const),
		path: fc.constantFrom('src/auth/login.ts', 'src/auth/new.ts', 'src/db/users.ts', 'README.md'),
		content: fc.string({ maxLength: 30 }),
		intent: intentArbitrary
	}),
	fc.record({ kind: fc.constant('lesson' as const), lesson: hostileText }),
	fc.record({ kind: fc.constant('failing-command' as const), command: hostileText }),
	fc.record({
		kind: fc.constant('expand' as const),
		intent: intentArbitrary,
		glob: fc.constantFrom('docs/**', 'tests/**')
	}),
	fc.record({
		kind: fc.constant('human-edit' as const),
		path: fc.constantFrom('README.md', 'src/db/users.ts', 'notes/new.md'),
		content: fc.string({ maxLength: 30 })
	}),
	// `.intentignore` changes only through the Protected switch (recorded as the person's change).
	fc.record({
		kind: fc.constant('protect' as const),
		intent: intentArbitrary,
		protect: fc.boolean()
	}),
	fc.record({
		kind: fc.constant('human-intents' as const),
		name: fc.oneof(fc.constant('broken'), fc.stringMatching(/^[A-Za-z][A-Za-z]{0,15}$/))
	})
);

async function runSession(steps: readonly Step[]) {
	const failing: Record<string, { exitCode: number; output: string }> = {};
	for (const step of steps) {
		if (step.kind === 'failing-command') {
			failing[step.command] = { exitCode: 2, output: `${step.command}\nsecond line` };
		}
	}
	const kit = createTestPipeline({ files: startingFiles, commands: failing, policy: 'never' });
	await kit.pipeline.recordWorkspaceSnapshot(kit.fs.paths());
	for (const step of steps) {
		switch (step.kind) {
			case 'select':
				await kit.call('select_active_intent', { intent_id: step.intent });
				break;
			case 'write':
				await kit.call('write_to_file', {
					path: step.path,
					content: step.content,
					intent_id: step.intent,
					mutation_class: 'INTENT_EVOLUTION'
				});
				break;
			case 'lesson':
				await kit.call('record_lesson', { lesson: step.lesson, category: 'testing' });
				break;
			case 'failing-command':
				await kit.call('execute_command', { command: step.command });
				break;
			case 'expand':
				await kit.call('request_scope_expansion', {
					intent_id: step.intent,
					paths: [step.glob],
					reason: 'needed'
				});
				break;
			case 'human-edit':
				await kit.pipeline.recordHumanEdit({ path: step.path, content: step.content });
				break;
			case 'protect':
				await kit.pipeline.setIntentProtection({ intentId: step.intent, protect: step.protect });
				break;
			case 'human-intents': {
				const current = await kit.fs.readTextFile('.orchestration/active_intents.yaml');
				await kit.pipeline.recordHumanEdit({
					path: '.orchestration/active_intents.yaml',
					// A broken file is saved too (the editor allows it); governance keeps the last valid.
					content:
						step.name === 'broken'
							? 'active_intents: [\n'
							: current.replace(/name: [^\n]*/, `name: ${step.name}`)
				});
				break;
			}
		}
	}
	const events = await kit.ledger.events();
	// Exporters write the workspace's intents file (the last recorded version), as replay does.
	const generated = exportOrchestration({
		events,
		activeIntentsYaml: await kit.fs.readTextFile('.orchestration/active_intents.yaml'),
		agentMd: ''
	});
	const encoder = new TextEncoder();
	const files = new Map<string, Uint8Array>();
	const orchestration = new Map<string, Uint8Array>();
	for (const path of kit.fs.paths()) {
		const bytes = await kit.fs.readFile(path);
		if (path.startsWith('.orchestration/')) orchestration.set(path.slice(15), bytes);
		else files.set(path, bytes);
	}
	for (const [name, text] of generated) orchestration.set(name, encoder.encode(text));
	const agentNotesOnDisk = (await kit.fs.stat(agentNotesPath))
		? await kit.fs.readTextFile(agentNotesPath)
		: null;
	return { files, orchestration, agentNotesOnDisk, generated };
}

function verifyExport(files: Map<string, Uint8Array>, orchestration: Map<string, Uint8Array>) {
	const decoder = new TextDecoder();
	return verifyLedger({
		auditJsonl: decoder.decode(orchestration.get('audit.jsonl')),
		traceJsonl: decoder.decode(orchestration.get('agent_trace.jsonl')),
		files,
		orchestrationFiles: orchestration
	});
}

const sessionArbitrary = fc.array(stepArbitrary, { minLength: 1, maxLength: 8 });

describe('verify over exports of random sessions (property)', () => {
	it('passes every untouched export, and AGENT.md on disk is what the ledger recomputes', async () => {
		await fc.assert(
			fc.asyncProperty(sessionArbitrary, async (steps) => {
				const session = await runSession(steps);
				const report = await verifyExport(session.files, session.orchestration);
				expect(report.firstFailure).toBeNull();
				expect(report.ok).toBe(true);
				if (session.agentNotesOnDisk !== null) {
					expect(session.generated.get('AGENT.md')).toBe(session.agentNotesOnDisk);
				}
				// Lessons never inject structure: one heading of lessons at most, no line from a lesson
				// starts anything but a list item.
				const notes = session.generated.get('AGENT.md') ?? '';
				const afterLessons = notes.split('## Lessons\n\n')[1] ?? '';
				for (const line of afterLessons.split('\n').filter(Boolean)) expect(line).toMatch(/^- \(/);
			}),
			{ numRuns: 40 }
		);
	}, 120_000);

	it('fails on any single changed byte, in the workspace or in .orchestration/', async () => {
		await fc.assert(
			fc.asyncProperty(
				sessionArbitrary,
				fc.nat(),
				fc.nat(),
				fc.integer({ min: 1, max: 255 }),
				async (steps, fileIndex, byteIndex, mask) => {
					const session = await runSession(steps);
					const targets = [
						...[...session.files.keys()].map((path) => ({ where: session.files, key: path })),
						...[...session.orchestration.keys()].map((name) => ({
							where: session.orchestration,
							key: name
						}))
					].filter((target) => (target.where.get(target.key)?.length ?? 0) > 0);
					const target = targets[fileIndex % targets.length] as (typeof targets)[number];
					const bytes = new Uint8Array(target.where.get(target.key) as Uint8Array);
					const position = byteIndex % bytes.length;
					bytes[position] = (bytes[position] as number) ^ mask;
					target.where.set(target.key, bytes);
					const report = await verifyExport(session.files, session.orchestration);
					expect(report.ok, `flipped a byte of ${target.key}`).toBe(false);
				}
			),
			{ numRuns: 60 }
		);
	}, 120_000);

	it('accepts CRLF line ends, and fails a blank line or invalid UTF-8 in the chained files', async () => {
		const session = await runSession([
			{ kind: 'select', intent: 'INT-001' },
			{ kind: 'write', path: 'src/auth/new.ts', content: 'x', intent: 'INT-001' }
		]);
		const decoder = new TextDecoder();
		const encoder = new TextEncoder();
		for (const name of ['audit.jsonl', 'agent_trace.jsonl']) {
			const text = decoder.decode(session.orchestration.get(name));
			const variant = (changed: string | Uint8Array) => {
				const orchestration = new Map(session.orchestration);
				orchestration.set(name, typeof changed === 'string' ? encoder.encode(changed) : changed);
				return verifyExport(session.files, orchestration);
			};
			expect((await variant(text.replaceAll('\n', '\r\n'))).ok, `${name} with CRLF`).toBe(true);
			const blank = await variant(text.replace('\n', '\n\n'));
			expect(blank.firstFailure).toBe(
				`.orchestration/${name}: has blank lines (an export holds one line per entry, with at most one final line break)`
			);
			const bytes = encoder.encode(text);
			const broken = new Uint8Array(bytes.length + 1);
			broken.set(bytes);
			broken[bytes.length] = 0xc3;
			const invalid = await variant(broken);
			expect(invalid.ok).toBe(false);
			expect(invalid.orchestration?.problems).toContain(`${name}: is not valid UTF-8`);
		}
	});

	it('fails when a file is swapped for another, added, or the scope is widened afterwards', async () => {
		await fc.assert(
			fc.asyncProperty(
				sessionArbitrary,
				fc.constantFrom('swap', 'add-workspace', 'add-orchestration', 'widen', 'git'),
				async (steps, tamper) => {
					const session = await runSession(steps);
					const encoder = new TextEncoder();
					const decoder = new TextDecoder();
					if (tamper === 'swap') {
						const login = session.files.get('src/auth/login.ts');
						const users = session.files.get('src/db/users.ts');
						if (!login || !users || decoder.decode(login) === decoder.decode(users)) return;
						session.files.set('src/auth/login.ts', users);
					} else if (tamper === 'add-workspace') {
						session.files.set('src/db/backdoor.ts', encoder.encode('evil\n'));
					} else if (tamper === 'add-orchestration') {
						session.orchestration.set('notes.md', encoder.encode('unrecorded\n'));
					} else if (tamper === 'git') {
						session.files.set('.git/config', encoder.encode('[core]\n\tbare = true\n'));
					} else {
						const yaml = decoder.decode(session.orchestration.get('active_intents.yaml'));
						if (!yaml.includes('owned_scope: [')) return;
						session.orchestration.set(
							'active_intents.yaml',
							encoder.encode(yaml.replace('owned_scope: [', 'owned_scope: ["**", '))
						);
					}
					const report = await verifyExport(session.files, session.orchestration);
					expect(report.ok, tamper).toBe(false);
				}
			),
			{ numRuns: 40 }
		);
	}, 120_000);
});
