import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readScenarioZip } from '../../../hooks/scenarios/scenario-zip.js';
import {
	draftFromManifest,
	draftProblems,
	exportScenarioZip,
	type ScenarioDraft
} from './scenario-export.js';

const run = promisify(execFile);
const encode = (text: string) => new TextEncoder().encode(text);

const draft: ScenarioDraft = {
	id: 'token-checks',
	title: 'Token checks',
	summary: 'Add verifyToken under a hook policy.',
	brief: '# Token checks\n\nAdd `verifyToken`.\n',
	suggestedPrompts: ['Add verifyToken to src/auth.ts.', '  '],
	approvalPolicy: 'never',
	sandboxNeeds: 'any',
	sandboxNote: '',
	commitOnComplete: false,
	rubric: '',
	steps: ''
};

const files = new Map<string, Uint8Array>([
	[
		'.orchestration/active_intents.yaml',
		encode(
			'active_intents:\n  - id: INT-001\n    name: Tokens\n    status: IN_PROGRESS\n    owned_scope: ["src/**"]\n  - id: INT-002\n    name: Docs\n    status: IN_PROGRESS\n    owned_scope: ["docs/**"]\n'
		)
	],
	[
		'.orchestration/hooks.yaml',
		encode(
			'rules:\n  - match: { paths: ["src/**/*.ts"] }\n    action: run\n    run: "grep -q verifyToken src/auth.ts"\n'
		)
	],
	['.orchestration/audit.jsonl', encode('{"seq":1}\n')],
	['.orchestration/AGENT.md', encode('# notes\n')],
	['src/auth.ts', encode('export const sign = 1;\n')]
]);

describe('exportScenarioZip', () => {
	it('writes a scenario folder that the remote-scenario reader loads, without the learner’s ledger', () => {
		const exported = exportScenarioZip({ draft, files });
		expect(exported.ok).toBe(true);
		if (!exported.ok) return;
		expect(exported.fileName).toBe('token-checks.zip');
		const names = Object.keys(unzipSync(exported.zip)).sort();
		expect(names).toEqual([
			'token-checks/files/.orchestration/active_intents.yaml',
			'token-checks/files/.orchestration/hooks.yaml',
			'token-checks/files/src/auth.ts',
			'token-checks/scenario.yaml'
		]);
		const { bundle, problems } = readScenarioZip(exported.zip);
		expect(problems).toEqual([]);
		expect(bundle?.manifest).toMatchObject({
			id: 'token-checks',
			approval_policy: 'never',
			suggested_prompts: ['Add verifyToken to src/auth.ts.']
		});
	});

	it('names the field of each problem and exports nothing', () => {
		const exported = exportScenarioZip({
			draft: { ...draft, id: 'Token Checks', title: ' ' },
			files
		});
		expect(exported.ok).toBe(false);
		if (exported.ok) return;
		expect(exported.problems.map((problem) => problem.field)).toEqual(['id', 'title']);
	});

	it('carries a rubric into scenario.yaml, and reads it back for editing', () => {
		const rubric =
			'criteria:\n  - { intent: INT-001, points: 10 }\npenalties:\n  blocks: { scope_violation: 2 }\n  verify_failed: 5\n';
		const exported = exportScenarioZip({ draft: { ...draft, rubric }, files });
		expect(exported.ok).toBe(true);
		if (!exported.ok) return;
		const { bundle } = readScenarioZip(exported.zip);
		expect(bundle?.manifest.rubric).toMatchObject({
			criteria: [{ intent: 'INT-001', points: 10 }],
			penalties: { blocks: { scope_violation: 2 }, verify_failed: 5 }
		});
		const again = draftFromManifest(bundle?.manifest ?? null);
		expect(again.rubric).toContain('intent: INT-001');
		expect(draftProblems(again)).toEqual([]);
		// Without one, the manifest has no rubric key at all.
		const plain = exportScenarioZip({ draft, files });
		if (plain.ok) expect(readScenarioZip(plain.zip).bundle?.manifest.rubric).toBeUndefined();
	});

	it('carries git.commit_on_complete both ways, and leaves the key out when it is off', () => {
		const exported = exportScenarioZip({ draft: { ...draft, commitOnComplete: true }, files });
		if (!exported.ok) throw new Error('the draft should export');
		const manifest = readScenarioZip(exported.zip).bundle?.manifest;
		expect(manifest?.git).toEqual({ commit_on_complete: true });
		expect(draftFromManifest(manifest ?? null).commitOnComplete).toBe(true);
		const plain = exportScenarioZip({ draft, files });
		if (plain.ok) expect(readScenarioZip(plain.zip).bundle?.manifest.git).toBeUndefined();
	});

	it('names a rubric that does not parse at its line:column, and one the schema refuses by its path', () => {
		expect(
			draftProblems({ ...draft, rubric: 'criteria:\n  - { intent: INT-001, points: 10\n' })
		).toEqual([expect.objectContaining({ field: expect.stringMatching(/^rubric:\d+:\d+$/) })]);
		expect(draftProblems({ ...draft, rubric: '- 1\n- 2\n' })).toEqual([
			{ field: 'rubric', message: expect.stringContaining('mapping') }
		]);
		const refused = draftProblems({
			...draft,
			rubric: 'criteria:\n  - { intent: INT-001, points: -3 }\nbonus: 4\n'
		});
		expect(refused.map((problem) => problem.field)).toEqual(
			expect.arrayContaining(['rubric.criteria.0.points'])
		);
		expect(
			refused.some((problem) => /bonus/.test(problem.message) || problem.field.includes('bonus'))
		).toBe(true);
		expect(exportScenarioZip({ draft: { ...draft, rubric: 'criteria: [' }, files }).ok).toBe(false);
	});

	it("leaves out a demo that is another scenario's (its calls name intents these files lack)", () => {
		const own = 'steps:\n  - call: select_active_intent\n    input: { intent_id: INT-002 }\n';
		const kept = exportScenarioZip({ draft, files, demo: own });
		expect(kept.ok && kept.demoLeftOut).toBe(undefined);
		if (kept.ok) expect(readScenarioZip(kept.zip).bundle?.demo).toBe(own);
		const stale = 'steps:\n  - call: select_active_intent\n    input: { intent_id: INT-007 }\n';
		const exported = exportScenarioZip({ draft, files, demo: stale });
		expect(exported.ok).toBe(true);
		if (!exported.ok) return;
		expect(exported.demoLeftOut?.[0]).toMatch(/demo\.yaml:3:\d+ .*"INT-007"/);
		expect(readScenarioZip(exported.zip).bundle?.demo).toBeNull();
		expect(Object.keys(unzipSync(exported.zip))).not.toContain('token-checks/demo.yaml');
	});

	it('shows every problem at once, each at its real line:column (issue 28)', () => {
		const problems = draftProblems({
			...draft,
			title: '',
			rubric:
				'criteria:\n  - intent: INT-001\n    points: 10\npartial_credit: true\nminimum: a: b\n'
		});
		// The YAML error is on line 5 (not 1:1), and the empty title is named alongside it.
		expect(problems).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ field: expect.stringMatching(/^rubric:5:\d+$/), line: 5 }),
				expect.objectContaining({ field: 'title' })
			])
		);
		const placed = draftProblems({
			...draft,
			rubric: 'criteria:\n  - intent: INT-001\n    points: -3\nbonus: 4\n'
		});
		expect(placed).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ field: 'rubric.criteria.0.points', line: 3, column: 13 }),
				expect.objectContaining({ line: 4, column: 1 })
			])
		);
	});

	it('carries numbered steps with a solution both ways', () => {
		const steps =
			'- title: Add verifyToken\n  brief: Add it to src/auth.ts.\n  intents: [INT-001]\n  solution:\n    files:\n      src/auth.ts: |\n        export const verifyToken = 1;\n- title: Document it\n  brief: Say so in docs/.\n  intents: [INT-002]\n';
		const exported = exportScenarioZip({ draft: { ...draft, steps }, files });
		expect(exported.ok).toBe(true);
		if (!exported.ok) return;
		const manifest = readScenarioZip(exported.zip).bundle?.manifest;
		expect(manifest?.steps?.map((step) => [step.title, step.intents])).toEqual([
			['Add verifyToken', ['INT-001']],
			['Document it', ['INT-002']]
		]);
		expect(manifest?.steps?.[0]?.solution?.files['src/auth.ts']).toBe(
			'export const verifyToken = 1;\n'
		);
		expect(draftFromManifest(manifest ?? null).steps).toContain('title: Document it');
	});

	it('names steps that do not parse, break the schema or name an unknown intent', () => {
		expect(draftProblems({ ...draft, steps: '- title: [one\n' })).toEqual([
			expect.objectContaining({ field: expect.stringMatching(/^steps:\d+:\d+$/) })
		]);
		expect(draftProblems({ ...draft, steps: 'title: One\n' })).toEqual([
			{ field: 'steps', message: expect.stringContaining('list') }
		]);
		expect(
			draftProblems({
				...draft,
				steps:
					'- title: One\n  brief: B\n  solution:\n    files: { .orchestration/hooks.yaml: "" }\n'
			}).map((problem) => problem.field)
		).toEqual(['steps.0.solution.files..orchestration/hooks.yaml']);
		const unknown = exportScenarioZip({
			draft: { ...draft, steps: '- title: One\n  brief: B\n  intents: [INT-404]\n' },
			files
		});
		expect(unknown.ok).toBe(false);
		if (!unknown.ok)
			expect(unknown.problems).toEqual([
				expect.objectContaining({
					field: expect.stringMatching(/^scenario\.yaml:\d+:\d+$/),
					message: expect.stringContaining('INT-404')
				})
			]);
	});

	it('refuses a broken hook policy with its line:column', () => {
		const broken = new Map(files);
		broken.set(
			'.orchestration/hooks.yaml',
			encode('rules:\n  - match: { paths: [x] }\n    action: nope\n')
		);
		const exported = exportScenarioZip({ draft, files: broken });
		expect(exported.ok).toBe(false);
		if (!exported.ok)
			expect(exported.problems[0]?.field).toBe('files/.orchestration/hooks.yaml:3:13');
	});

	it('is accepted by threadline validate once unpacked into public/scenarios/ form', async () => {
		const exported = exportScenarioZip({ draft, files });
		if (!exported.ok) throw new Error('export failed');
		const folder = await mkdtemp(join(tmpdir(), 'threadline-export-'));
		try {
			for (const [name, bytes] of Object.entries(unzipSync(exported.zip))) {
				await mkdir(dirname(join(folder, name)), { recursive: true });
				await writeFile(join(folder, name), bytes);
			}
			const result = await run(process.execPath, [
				join(import.meta.dirname, '../../../bin/threadline.js'),
				'validate',
				join(folder, 'token-checks')
			]);
			expect(result.stdout + result.stderr).not.toMatch(/error/i);
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	}, 60_000);
});
