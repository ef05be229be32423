/**
 * The workspace "New scenario" starts from: the smallest scenario that works end to end offline
 * (one intent with a runnable criterion, a package.json whose `npm test` runs `node --test`, a
 * function and its test), for the instructor to rewrite. Every file is what `threadline validate`
 * and the offline sandbox accept as is.
 */
export const blankScenarioFiles: Readonly<Record<string, string>> = Object.freeze({
	'.orchestration/active_intents.yaml': `# The intents the agent may check out (select_active_intent). Edit them for your scenario.
active_intents:
  - id: INT-001
    name: Describe the first task
    status: IN_PROGRESS
    owned_scope: ["src/**", "tests/**"]
    constraints:
      - "Keep every function pure"
    acceptance_criteria:
      - "The learner explains the change"
      - description: "The tests pass"
        run: "npm test"
`,
	'.intentignore': `# Intents listed here need a person's approval for every change (one id per line).
`,
	'package.json': `${JSON.stringify(
		{
			name: 'my-scenario',
			private: true,
			type: 'module',
			scripts: { test: 'node --test tests/' }
		},
		null,
		2
	)}\n`,
	'src/greet.ts': `export function greet(name: string): string {
	return \`Hello, \${name}!\`;
}
`,
	'tests/greet.test.ts': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greet } from '../src/greet.ts';

test('greets by name', () => {
	assert.equal(greet('Ada'), 'Hello, Ada!');
});
`,
	'README.md': `# My scenario

The starting files of a new scenario. Replace them with your own; \`npm test\` runs the tests.
`
});
