import { describe, expect, it } from 'vitest';
import { addOwnedScope, setIntentStatus } from './edit-intents-yaml.js';
import type { IntentStatus } from './intent.js';
import { parseIntents } from './parse-intents.js';

const scenario = `# Intents for the jwt-auth scenario.
course: web-security   # unknown top-level field

active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS        # DRAFT | IN_PROGRESS | BLOCKED | COMPLETED
    owned_scope: ["src/auth/**", "src/middleware/jwt.ts"]
    constraints: ["Must not use external auth providers"]
    acceptance_criteria: ["Unit tests in tests/auth/ pass"]
    reviewer: ana             # unknown field, kept

  # The second intent waits for the first.
  - id: INT-002
    name: Session cleanup
    status: 'DRAFT'
    owned_scope:
      - src/session/**   # the whole folder
      - "src/db/session.ts"
    difficulty: 3
`;

function intentOf(text: string, id: string) {
	const result = parseIntents(text);
	if (!result.ok) throw new Error(JSON.stringify(result.errors));
	const intent = result.document.intents.find((candidate) => candidate.id === id);
	if (!intent) throw new Error(`no ${id}`);
	return intent;
}

/** Lines of `after` that are not in `before`, and the reverse: the visible diff of an edit. */
function changedLines(before: string, after: string): { added: string[]; removed: string[] } {
	const beforeLines = before.split('\n');
	const afterLines = after.split('\n');
	return {
		added: afterLines.filter((line) => !beforeLines.includes(line)),
		removed: beforeLines.filter((line) => !afterLines.includes(line))
	};
}

describe('setIntentStatus', () => {
	it('changes only the status value, keeping the comment after it', () => {
		const edited = setIntentStatus(scenario, 'INT-001', 'COMPLETED');
		expect(changedLines(scenario, edited)).toEqual({
			added: ['    status: COMPLETED        # DRAFT | IN_PROGRESS | BLOCKED | COMPLETED'],
			removed: ['    status: IN_PROGRESS        # DRAFT | IN_PROGRESS | BLOCKED | COMPLETED']
		});
		expect(intentOf(edited, 'INT-001').status).toBe('COMPLETED');
	});

	it('keeps comment lines and unknown fields', () => {
		const edited = setIntentStatus(scenario, 'INT-002', 'BLOCKED');
		expect(edited).toContain('# Intents for the jwt-auth scenario.');
		expect(edited).toContain('  # The second intent waits for the first.');
		expect(edited).toContain('    reviewer: ana             # unknown field, kept');
		expect(intentOf(edited, 'INT-002').extra).toEqual({ difficulty: 3 });
		expect(intentOf(edited, 'INT-001').extra).toEqual({ reviewer: 'ana' });
	});

	it('keeps the quoting style of the old value', () => {
		const edited = setIntentStatus(scenario, 'INT-002', 'IN_PROGRESS');
		expect(edited).toContain("    status: 'IN_PROGRESS'");
		const doubleQuoted = 'active_intents:\n  - id: A\n    name: n\n    status: "DRAFT"\n';
		expect(setIntentStatus(doubleQuoted, 'A', 'BLOCKED')).toBe(
			'active_intents:\n  - id: A\n    name: n\n    status: "BLOCKED"\n'
		);
	});

	it('edits an intent written as a flow map', () => {
		const text = 'active_intents:\n  - { id: A, name: n, status: DRAFT }  # one-liner\n';
		expect(setIntentStatus(text, 'A', 'COMPLETED')).toBe(
			'active_intents:\n  - { id: A, name: n, status: COMPLETED }  # one-liner\n'
		);
	});

	it('adds a missing status', () => {
		const text = 'active_intents:\n  - id: A\n    name: n\n';
		const edited = setIntentStatus(text, 'A', 'DRAFT');
		expect(intentOf(edited, 'A').status).toBe('DRAFT');
	});

	it('keeps CRLF line endings', () => {
		const text = scenario.replaceAll('\n', '\r\n');
		const edited = setIntentStatus(text, 'INT-001', 'BLOCKED');
		expect(edited).toBe(text.replace('status: IN_PROGRESS ', 'status: BLOCKED '));
	});

	it('throws a clear error for a missing intent, bad YAML or a bad status', () => {
		expect(() => setIntentStatus(scenario, 'INT-404', 'DRAFT')).toThrow(
			'Intent "INT-404" is not in active_intents.yaml. Known ids: INT-001, INT-002.'
		);
		expect(() => setIntentStatus('active_intents: [\n', 'A', 'DRAFT')).toThrow(
			/^Cannot edit active_intents\.yaml: it does not parse at line \d+, column \d+ \(.+\)\. Fix the YAML first\.$/
		);
		expect(() => setIntentStatus('title: x\n', 'A', 'DRAFT')).toThrow(
			'Cannot edit active_intents.yaml: it has no top-level active_intents list.'
		);
		expect(() => setIntentStatus(scenario, 'INT-001', 'DONE' as IntentStatus)).toThrow(
			'Cannot set the status of intent "INT-001" to "DONE": use one of DRAFT, IN_PROGRESS, BLOCKED, COMPLETED.'
		);
	});
});

describe('addOwnedScope', () => {
	it('appends to a flow list without touching the rest of the line', () => {
		const edited = addOwnedScope(scenario, 'INT-001', ['src/routes/login.ts']);
		expect(changedLines(scenario, edited)).toEqual({
			added: ['    owned_scope: ["src/auth/**", "src/middleware/jwt.ts", "src/routes/login.ts"]'],
			removed: ['    owned_scope: ["src/auth/**", "src/middleware/jwt.ts"]']
		});
	});

	it('appends to a block list at the same indentation, after a trailing comment', () => {
		const edited = addOwnedScope(scenario, 'INT-002', ['src/db/migrations/**', 'src/db/x.ts']);
		expect(edited).toBe(
			scenario.replace(
				'      - "src/db/session.ts"\n',
				'      - "src/db/session.ts"\n      - "src/db/migrations/**"\n      - "src/db/x.ts"\n'
			)
		);
		expect(intentOf(edited, 'INT-002').owned_scope).toEqual([
			'src/session/**',
			'src/db/session.ts',
			'src/db/migrations/**',
			'src/db/x.ts'
		]);
	});

	it('follows a plain-style list with plain items when that is safe', () => {
		const text =
			'active_intents:\n  - id: A\n    name: n\n    status: DRAFT\n    owned_scope:\n      - src/a.ts # why\n';
		expect(addOwnedScope(text, 'A', ['src/b.ts', '*.md', 'x: y'])).toBe(
			'active_intents:\n  - id: A\n    name: n\n    status: DRAFT\n    owned_scope:\n      - src/a.ts # why\n      - src/b.ts\n      - "*.md"\n      - "x: y"\n'
		);
	});

	it('adds no duplicates, also among the new paths', () => {
		const edited = addOwnedScope(scenario, 'INT-001', [
			'src/auth/**',
			'./src/middleware/jwt.ts',
			'docs/auth.md',
			'docs/auth.md'
		]);
		expect(intentOf(edited, 'INT-001').owned_scope).toEqual([
			'src/auth/**',
			'src/middleware/jwt.ts',
			'docs/auth.md'
		]);
		expect(addOwnedScope(scenario, 'INT-001', ['src/auth/**'])).toBe(scenario);
		expect(addOwnedScope(scenario, 'INT-001', [])).toBe(scenario);
	});

	it('adds owned_scope to an intent without one, keeping its other fields and comments', () => {
		const text = `active_intents:
  - id: A
    name: n
    status: DRAFT
    constraints:
      - be careful   # really
  # next one
  - id: B
    name: m
    status: DRAFT
`;
		const edited = addOwnedScope(text, 'A', ['src/**']);
		expect(edited).toBe(
			text.replace(
				'      - be careful   # really\n',
				'      - be careful   # really\n    owned_scope: ["src/**"]\n'
			)
		);
		expect(intentOf(edited, 'A').owned_scope).toEqual(['src/**']);
		expect(intentOf(edited, 'B').owned_scope).toEqual([]);
	});

	it('fills an empty owned_scope', () => {
		const text =
			'active_intents:\n  - id: A\n    name: n\n    status: DRAFT\n    owned_scope:\n    parallel: true\n';
		expect(addOwnedScope(text, 'A', ['src/**'])).toBe(
			text.replace('owned_scope:\n', 'owned_scope: ["src/**"]\n')
		);
		const empty =
			'active_intents:\n  - id: A\n    name: n\n    status: DRAFT\n    owned_scope: []  # none yet\n';
		expect(addOwnedScope(empty, 'A', ['a', 'b'])).toBe(empty.replace('[]', '["a", "b"]'));
	});

	it('falls back to the Document API for a flow-map intent and still keeps comments', () => {
		const text = '# header\nactive_intents:\n  - { id: A, name: n, status: DRAFT }\n';
		const edited = addOwnedScope(text, 'A', ['src/**']);
		expect(edited).toContain('# header');
		expect(intentOf(edited, 'A').owned_scope).toEqual(['src/**']);
	});

	it('throws a clear error for a missing intent, an empty path or a scope that is not a list', () => {
		expect(() => addOwnedScope(scenario, 'INT-404', ['x'])).toThrow(
			/^Intent "INT-404" is not in active_intents\.yaml/
		);
		expect(() => addOwnedScope(scenario, 'INT-001', ['  '])).toThrow(
			/a scope entry must be a non-empty path or glob/
		);
		const scalarScope =
			'active_intents:\n  - id: A\n    name: n\n    status: DRAFT\n    owned_scope: src/**\n';
		expect(() => addOwnedScope(scalarScope, 'A', ['x'])).toThrow(/its owned_scope is not a list/);
		expect(() => addOwnedScope('active_intents: {', 'A', ['x'])).toThrow(/does not parse/);
	});
});

describe('addOwnedScope across layouts', () => {
	const layouts: [string, string][] = [
		[
			'a file without a final newline',
			'active_intents:\n  - id: A\n    name: n\n    status: DRAFT\n    owned_scope:\n      - a'
		],
		[
			'a multi-line flow list with a trailing comma',
			'active_intents:\n  - id: A\n    name: n\n    status: DRAFT\n    owned_scope: [\n      "a",\n    ]\n'
		],
		[
			'an unindented block list',
			'active_intents:\n- id: A\n  name: n\n  status: DRAFT\n  owned_scope:\n  - a\n'
		],
		[
			'a last field that is a nested map',
			'active_intents:\n  - id: A\n    name: n\n    status: DRAFT\n    meta:\n      level: 2 # c\n\n'
		],
		[
			'a block scalar before the list',
			'active_intents:\n  - id: A\n    name: |\n      long\n      name\n    status: DRAFT\n    owned_scope: [a]\n'
		],
		[
			'a four-space indentation',
			'active_intents:\n    -   id: A\n        name: n\n        status: DRAFT\n'
		]
	];

	it.each(layouts)('keeps every original line of %s', (_label, text) => {
		const before = intentOf(text, 'A');
		const edited = addOwnedScope(text, 'A', ['new/**', "it's.ts"]);
		const after = intentOf(edited, 'A');
		expect(after.owned_scope).toEqual([...before.owned_scope, 'new/**', "it's.ts"]);
		expect({ ...after, owned_scope: [] }).toEqual({ ...before, owned_scope: [] });
		const { removed } = changedLines(text, edited);
		// Only a line holding the list itself may change (a flow list grows in place).
		for (const line of removed) expect(line).toMatch(/owned_scope|^\s*-?\s*("?a"?,?|\[a\])$/);
	});
});
