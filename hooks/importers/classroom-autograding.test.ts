import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseIntents } from '../intents/parse-intents.js';
import { parseScenarioManifest } from '../scenarios/scenario-schema.js';
import {
	classroomLimits,
	classroomTestCommand,
	importClassroomAutograding
} from './classroom-autograding.js';

/** The shape education/autograding documents for .github/classroom/autograding.json. */
const autograding = {
	tests: [
		{
			name: 'Unit tests',
			setup: 'npm ci',
			run: 'npm test',
			input: '',
			output: '',
			comparison: 'included',
			timeout: 10,
			points: 5
		},
		{
			name: "Prints 'Hello'",
			setup: '',
			run: 'node hello.js',
			input: 'World\n',
			output: "Hello, World's end\n",
			comparison: 'exact',
			timeout: 1,
			points: 3
		},
		{
			name: 'Version',
			run: 'node -v',
			expected: 'v[0-9]+',
			comparison: 'regex',
			points: 2,
			extra: true
		}
	]
};
const decoder = new TextDecoder();

describe('importClassroomAutograding', () => {
	it('one intent per test with its command as a runnable criterion, the points as the rubric', () => {
		const result = importClassroomAutograding(JSON.stringify(autograding), {
			title: 'Hello assignment'
		});
		if (!result.ok) throw new Error(result.problem);
		const manifest = parseScenarioManifest(decoder.decode(result.entries.get('scenario.yaml')));
		if (!manifest.ok) throw new Error(JSON.stringify(manifest.errors));
		expect(manifest.manifest.id).toBe('hello-assignment');
		expect(manifest.manifest.rubric?.criteria).toEqual([
			{ intent: 'INT-001', points: 5 },
			{ intent: 'INT-002', points: 3 },
			{ intent: 'INT-003', points: 2 }
		]);
		expect(manifest.manifest.rubric?.partial_credit).toBe(false);
		const intents = parseIntents(
			decoder.decode(result.entries.get('files/.orchestration/active_intents.yaml'))
		);
		if (!intents.ok) throw new Error(JSON.stringify(intents.errors));
		expect(intents.document.intents.map((intent) => intent.acceptance_criteria)).toEqual([
			[{ description: 'Unit tests', run: 'npm ci && npm test' }],
			[
				{
					description: "Prints 'Hello'",
					run: expect.stringContaining("printf '%s' 'World\n' | node hello.js")
				}
			],
			[{ description: 'Version', run: expect.stringContaining("grep -Eq 'v[0-9]+'") }]
		]);
		const listed = result.notCarried.join('\n');
		expect(listed).toContain('tests[0] (Unit tests): timeout 10 min');
		expect(listed).toContain('tests[0] (Unit tests): setup "npm ci" installs software');
		expect(listed).toContain('tests[2] (Version): extra is not an autograding field');
		expect(listed).toContain('POSIX ERE');
	});

	it('quotes every field so no input, output or name can break out of its shell word', () => {
		const command = classroomTestCommand({
			run: 'cat',
			input: "a'b$(rm -rf /)`x`",
			expected: "it's $HOME \\n",
			comparison: 'exact'
		});
		expect(command).toContain(`printf '%s' 'a'\\''b$(rm -rf /)\`x\`' | cat`);
		expect(command).toContain(`[ "$actual" = 'it'\\''s $HOME \\n' ]`);
		// Without an expected output only the exit code counts, as in the action.
		expect(classroomTestCommand({ run: 'make test', comparison: 'included' })).toBe('make test');
	});

	it('refuses what is not autograding, naming the test and the field', () => {
		for (const [value, problem] of [
			['nope', 'not JSON'],
			[{}, 'no "tests" list'],
			[{ tests: [{ run: 'x' }] }, 'tests[0] has no name'],
			[{ tests: [{ name: 'a' }] }, 'tests[0] (a) has no run command'],
			[
				{
					tests: [
						{ name: 'a', run: 'x' },
						{ name: 'a', run: 'y' }
					]
				},
				'tests[1]: the name "a" is used twice'
			],
			[{ tests: [{ name: 'a', run: 'x', comparison: 'fuzzy' }] }, 'comparison "fuzzy"'],
			[{ tests: [{ name: 'a', run: 'x', points: -1 }] }, 'points must be'],
			[{ tests: [{ name: 'a', run: 5 }] }, 'tests[0].run is not text'],
			[
				{ tests: [{ name: 'a', run: 'x', output: 'p', expected: 'q' }] },
				'both output and expected'
			],
			[
				{
					tests: Array.from({ length: classroomLimits.maximumTests + 1 }, (_, index) => ({
						name: `t${index}`,
						run: 'x'
					}))
				},
				'at most 100'
			],
			[
				{ tests: [{ name: 'a', run: 'x'.repeat(classroomLimits.maximumFieldLength + 1) }] },
				'longer than'
			],
			[`{"tests": [${' '.repeat(classroomLimits.maximumFileBytes)}]}`, 'larger than']
		] as const) {
			const result = importClassroomAutograding(
				typeof value === 'string' ? value : JSON.stringify(value)
			);
			expect(result.ok).toBe(false);
			if (!result.ok) expect(result.problem).toContain(problem);
		}
	});

	it('a test named like YAML or markdown stays text', () => {
		const result = importClassroomAutograding(
			JSON.stringify({ tests: [{ name: '- [x] | *: &a !!binary', run: 'true' }] })
		);
		if (!result.ok) throw new Error(result.problem);
		const intents = parse(
			decoder.decode(result.entries.get('files/.orchestration/active_intents.yaml'))
		) as { active_intents: { name: string }[] };
		expect(intents.active_intents[0]?.name).toBe('- [x] | *: &a !!binary');
	});
});
