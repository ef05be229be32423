import { describe, expect, it } from 'vitest';
import { formatScenarioProblem } from './scenario-problem.js';
import { scenarioFromEntries } from './scenario-from-entries.js';
import { sampleBundle, sampleEntries } from './scenario-test-fixtures.js';

function problemsOf(entries: Map<string, Uint8Array>): string[] {
	const result = scenarioFromEntries(entries);
	expect(result.bundle).toBeNull();
	return result.problems.map((problem) => formatScenarioProblem(problem, 'scenarios/sample'));
}

describe('scenarioFromEntries', () => {
	it('turns a scenario folder into the same bundle the JSON form holds', () => {
		expect(scenarioFromEntries(sampleEntries())).toEqual({ bundle: sampleBundle(), problems: [] });
	});

	it('sorts files by path, whatever order they were read in', () => {
		const entries = sampleEntries({ 'files/b.txt': 'b', 'files/a.txt': 'a' });
		const reversed = new Map([...entries].reverse());
		const { bundle } = scenarioFromEntries(reversed);
		expect(Object.keys(bundle?.files ?? {})).toEqual([
			'.intentignore',
			'.orchestration/active_intents.yaml',
			'a.txt',
			'b.txt',
			'src/index.ts'
		]);
	});

	it('keeps binary files as base64 and a scenario without demo', () => {
		const { bundle } = scenarioFromEntries(
			sampleEntries({
				'files/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1]),
				'demo.yaml': null
			})
		);
		expect(bundle?.files['logo.png']).toEqual({ encoding: 'base64', content: 'iVBORwAB' });
		expect(bundle?.demo).toBeNull();
	});

	it('ignores operating-system litter', () => {
		const { bundle, problems } = scenarioFromEntries(
			sampleEntries({ '.DS_Store': 'x', 'files/src/.DS_Store': 'x', '__MACOSX/scenario.yaml': 'x' })
		);
		expect(problems).toEqual([]);
		expect(Object.keys(bundle?.files ?? {})).not.toContain('src/.DS_Store');
	});

	it('reports manifest errors with line:column in scenario.yaml', () => {
		expect(
			problemsOf(
				sampleEntries({
					'scenario.yaml': 'id: sample\ntitle: T\nsummary: S\nbrief: B\napproval_policy: maybe\n'
				})
			)
		).toEqual([
			'scenarios/sample/scenario.yaml:5:18 approval_policy must be one of always, destructive, never (got "maybe")'
		]);
	});

	it('reports every broken part at once', () => {
		expect(
			problemsOf(
				sampleEntries({
					'scenario.yaml': null,
					'demo.yml': 'steps: []',
					'demo.yaml': 'steps:\n  - call: read_file\n    input: {}\n    expect: yes\n',
					'files/.orchestration/active_intents.yaml': 'active_intents:\n  - id: INT-001\n'
				})
			)
		).toEqual([
			'scenarios/sample/demo.yml: is not part of a scenario: a scenario folder holds scenario.yaml, demo.yaml (optional) and files/',
			'scenarios/sample/scenario.yaml: is missing: every scenario folder needs one',
			'scenarios/sample/files/.orchestration/active_intents.yaml:2:5 name is required',
			'scenarios/sample/files/.orchestration/active_intents.yaml:2:5 status is required (one of DRAFT, IN_PROGRESS, BLOCKED, COMPLETED)',
			expect.stringMatching(
				/^scenarios\/sample\/demo\.yaml:4:13 expect must be ok or a ToolError code/
			)
		]);
	});

	it('refuses YAML files that are not UTF-8', () => {
		expect(
			problemsOf(sampleEntries({ 'scenario.yaml': new Uint8Array([0xff, 0xfe, 0x41]) }))
		).toEqual(['scenarios/sample/scenario.yaml: is not UTF-8 text']);
	});

	it('keeps a "__proto__" file a file', () => {
		const { bundle } = scenarioFromEntries(sampleEntries({ 'files/__proto__': 'x' }));
		expect(bundle && Object.hasOwn(bundle.files, '__proto__')).toBe(true);
	});
});
