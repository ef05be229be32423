import { describe, expect, it } from 'vitest';
import { scenarioFromEntries } from './scenario-from-entries.js';
import { parseScenarioManifest } from './scenario-schema.js';
import { solutionChanges } from './scenario-steps.js';
import { validateScenarioBundle } from './scenario-bundle.js';
import { sampleBundle, sampleEntries, sampleManifestYaml } from './scenario-test-fixtures.js';

const twoSteps = `steps:
  - title: Write the module
    brief: |
      Write \`src/a.ts\`.
    intents: [INT-001]
    solution:
      files:
        src/a.ts: |
          export const a = 1;
      remove: [src/old.ts]
  - title: Tidy up
    brief: Nothing to hand in.
`;

function errorsOf(text: string): string[] {
	const result = parseScenarioManifest(text);
	if (result.ok) throw new Error('expected the manifest to be rejected');
	return result.errors.map((error) => `${error.line}:${error.column} ${error.message}`);
}

describe('steps in scenario.yaml', () => {
	it('reads numbered steps with their brief, intents and solution', () => {
		const result = parseScenarioManifest(sampleManifestYaml + twoSteps);
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.manifest.steps).toEqual([
			{
				title: 'Write the module',
				brief: 'Write `src/a.ts`.\n',
				intents: ['INT-001'],
				solution: { files: { 'src/a.ts': 'export const a = 1;\n' }, remove: ['src/old.ts'] }
			},
			{ title: 'Tidy up', brief: 'Nothing to hand in.', intents: [] }
		]);
	});

	it('points at the line and column of a bad step, with the keys it knows', () => {
		expect(
			errorsOf(`${sampleManifestYaml}steps:\n  - title: One\n    brief: B\n    solutoin: {}\n`)
		).toEqual([
			expect.stringMatching(
				/^12:5 unknown key "solutoin" \(did you mean solution\?\); known keys: title, brief, intents, solution$/
			)
		]);
		expect(errorsOf(`${sampleManifestYaml}steps: []\n`)[0]).toMatch(
			/^9:8 steps must hold at least one step/
		);
		expect(errorsOf(`${sampleManifestYaml}steps:\n  - brief: B\n`)[0]).toMatch(
			/^10:5 steps\[0\]\.title is required/
		);
	});

	it('refuses solutions that would change governance or escape the workspace', () => {
		for (const [path, wording] of [
			[
				'.orchestration/active_intents.yaml',
				/may not change \.orchestration\/, \.git\/ or \.intentignore/
			],
			['.git/config', /may not change \.orchestration\/, \.git\/ or \.intentignore/],
			['.intentignore', /may not change .*\.intentignore/],
			['.INTENTIGNORE', /may not change .*\.intentignore/],
			[`src/${'a'.repeat(1_100)}.ts`, /at most 1024/],
			['../outside.ts', /outside|\.\./],
			['/etc/passwd', /absolute|outside|\//],
			['src//a.ts', /canonical/]
		] as const) {
			const errors = errorsOf(
				`${sampleManifestYaml}steps:\n  - title: One\n    brief: B\n    solution:\n      files:\n        ${JSON.stringify(path)}: "x"\n`
			);
			expect(errors.join('\n'), path).toMatch(wording);
		}
		expect(
			errorsOf(
				`${sampleManifestYaml}steps:\n  - title: One\n    brief: B\n    solution:\n      remove: [.orchestration/hooks.yaml]\n`
			)[0]
		).toMatch(/^13:16 .*may not change \.orchestration\//);
		expect(
			errorsOf(
				`${sampleManifestYaml}steps:\n  - title: One\n    brief: B\n    solution:\n      remove: [.intentignore]\n`
			)[0]
		).toMatch(/^13:16 .*\.intentignore/);
	});

	it('refuses an empty solution and a file both written and removed', () => {
		expect(
			errorsOf(`${sampleManifestYaml}steps:\n  - title: One\n    brief: B\n    solution: {}\n`)[0]
		).toMatch(/writes or removes at least one file/);
		expect(
			errorsOf(
				`${sampleManifestYaml}steps:\n  - title: One\n    brief: B\n    solution:\n      files: { src/a.ts: "x" }\n      remove: [src/a.ts]\n`
			)[0]
		).toMatch(/both written and removed/);
	});

	it('refuses a step naming an intent the scenario does not have, with its position', () => {
		const { problems } = scenarioFromEntries(
			sampleEntries({
				'scenario.yaml': `${sampleManifestYaml}steps:\n  - title: One\n    brief: B\n    intents: [INT-001, INT-009]\n`
			})
		);
		expect(problems).toEqual([
			expect.objectContaining({
				file: 'scenario.yaml',
				line: 12,
				column: 24,
				message: expect.stringMatching(/"INT-009", which is not an intent .*known: INT-001/)
			})
		]);
		const bundle = sampleBundle();
		const checked = validateScenarioBundle({
			...bundle,
			manifest: { ...bundle.manifest, steps: [{ title: 'One', brief: 'B', intents: ['INT-404'] }] }
		});
		expect(checked.ok).toBe(false);
		if (!checked.ok) expect(checked.errors.join('\n')).toMatch(/INT-404/);
	});
});

describe('solutionChanges', () => {
	const solution = {
		files: { 'src/a.ts': 'new\n', 'src/b.ts': 'same\n' },
		remove: ['src/c.ts', 'src/gone.ts']
	};

	it('writes what differs and removes what exists', () => {
		const existing = new Map<string, string | null>([
			['src/a.ts', 'old\n'],
			['src/b.ts', 'same\n'],
			['src/c.ts', 'c\n']
		]);
		expect(solutionChanges(solution, existing)).toEqual([
			{ path: 'src/a.ts', content: 'new\n' },
			{ path: 'src/c.ts', content: null }
		]);
	});

	it('is empty once the solution is in place, and replaces a binary file', () => {
		expect(
			solutionChanges(
				solution,
				new Map([
					['src/a.ts', 'new\n'],
					['src/b.ts', 'same\n']
				])
			)
		).toEqual([]);
		expect(
			solutionChanges(
				solution,
				new Map([
					['src/a.ts', null],
					['src/b.ts', 'same\n']
				])
			)
		).toEqual([{ path: 'src/a.ts', content: 'new\n' }]);
	});
});
