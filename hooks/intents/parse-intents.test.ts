import { describe, expect, it } from 'vitest';
import { formatIntentsError, parseIntents, type IntentsError } from './parse-intents.js';

const designSample = `active_intents:
  - id: INT-001
    name: JWT Authentication Migration
    status: IN_PROGRESS        # DRAFT | IN_PROGRESS | BLOCKED | COMPLETED
    owned_scope: ["src/auth/**", "src/middleware/jwt.ts"]
    constraints: ["Must not use external auth providers"]
    acceptance_criteria: ["Unit tests in tests/auth/ pass"]
`;

function errorsOf(text: string): IntentsError[] {
	const result = parseIntents(text);
	if (result.ok) throw new Error('expected the text to be rejected');
	return result.errors;
}

function onlyError(text: string): string {
	const errors = errorsOf(text);
	expect(errors).toHaveLength(1);
	return formatIntentsError(errors[0]!);
}

describe('parseIntents: valid files', () => {
	it('parses the DESIGN.md sample with defaults', () => {
		const result = parseIntents(designSample);
		expect(result).toEqual({
			ok: true,
			document: {
				intents: [
					{
						id: 'INT-001',
						name: 'JWT Authentication Migration',
						status: 'IN_PROGRESS',
						owned_scope: ['src/auth/**', 'src/middleware/jwt.ts'],
						constraints: ['Must not use external auth providers'],
						acceptance_criteria: ['Unit tests in tests/auth/ pass'],
						parallel: false,
						extra: {}
					}
				],
				extra: {}
			}
		});
	});

	it('moves unknown fields into extra at both levels', () => {
		const result = parseIntents(`version: 2
course: { term: fall }
active_intents:
  - id: A
    name: n
    status: DRAFT
    owner: ana
    parallel: true
    acceptance_criteria:
      - description: tests pass
        run: npm test
`);
		if (!result.ok) throw new Error(result.errors.map(formatIntentsError).join('\n'));
		expect(result.document.extra).toEqual({ version: 2, course: { term: 'fall' } });
		const intent = result.document.intents[0]!;
		expect(intent.extra).toEqual({ owner: 'ana' });
		expect(intent.parallel).toBe(true);
		expect(intent.acceptance_criteria).toEqual([{ description: 'tests pass', run: 'npm test' }]);
	});

	it('accepts an empty list, CRLF line endings, a BOM and aliases', () => {
		expect(parseIntents('active_intents: []')).toEqual({
			ok: true,
			document: { intents: [], extra: {} }
		});
		const crlf = '\ufeffactive_intents:\r\n  - id: A\r\n    name: n\r\n    status: DRAFT\r\n';
		expect(parseIntents(crlf).ok).toBe(true);
		const aliased = `shared: &scope ["src/**"]
active_intents:
  - { id: A, name: n, status: DRAFT, owned_scope: *scope }
`;
		const result = parseIntents(aliased);
		expect(result.ok && result.document.intents[0]?.owned_scope).toEqual(['src/**']);
	});
});

describe('parseIntents: schema errors point at the wrong value', () => {
	it('reports a bad status at the status value with the allowed values', () => {
		const text = designSample.replace('status: IN_PROGRESS', 'status: DONE');
		const [error] = errorsOf(text);
		expect(error).toEqual({
			line: 4,
			column: 13,
			message: 'status must be one of DRAFT, IN_PROGRESS, BLOCKED, COMPLETED (got "DONE")',
			path: ['active_intents', 0, 'status']
		});
		expect(formatIntentsError(error!)).toBe(
			'4:13 status must be one of DRAFT, IN_PROGRESS, BLOCKED, COMPLETED (got "DONE")'
		);
	});

	it('suggests the right spelling of a status', () => {
		const text = designSample.replace('status: IN_PROGRESS', 'status: in-progress');
		expect(onlyError(text)).toMatch(/\(got "in-progress"\); did you mean IN_PROGRESS\?$/);
	});

	it('points at the offending item inside a flow list', () => {
		const text = designSample.replace('"src/middleware/jwt.ts"', '42');
		expect(onlyError(text)).toBe(
			'5:34 owned_scope[1] must be a string (got 42); put it in quotes, e.g. "42"'
		);
	});

	it('points a missing field at the intent it belongs to', () => {
		const text = `active_intents:
  - id: A
    status: DRAFT
`;
		expect(errorsOf(text)).toEqual([
			{ line: 2, column: 5, message: 'name is required', path: ['active_intents', 0, 'name'] }
		]);
	});

	it('points an empty value at its key', () => {
		const text = `active_intents:
  - id: A
    name: n
    status: DRAFT
    owned_scope:
`;
		expect(onlyError(text)).toBe(
			'5:5 owned_scope must be a list (got nothing); write [] for an empty list'
		);
	});

	it('reports what a runnable criterion is missing', () => {
		const text = `active_intents:
  - id: A
    name: n
    status: DRAFT
    acceptance_criteria:
      - "tests pass"
      - description: auth tests
      - 7
`;
		expect(errorsOf(text).map(formatIntentsError)).toEqual([
			'7:9 acceptance_criteria[1].run is required',
			'8:9 acceptance_criteria[2] must be a sentence (string) or a map with description and run (got 7)'
		]);
	});

	it('tells a numeric id to be quoted, and an empty id to be filled', () => {
		expect(onlyError('active_intents:\n  - id: 12\n    name: n\n    status: DRAFT\n')).toBe(
			'2:9 id must be a string (got 12); put it in quotes, e.g. "12"'
		);
		expect(onlyError('active_intents:\n  - id: ""\n    name: n\n    status: DRAFT\n')).toBe(
			'2:9 id must not be empty'
		);
		expect(onlyError('active_intents:\n  - id: " "\n    name: n\n    status: DRAFT\n')).toBe(
			'2:9 id must not be only whitespace'
		);
	});

	it('rejects an entry that is not a map', () => {
		expect(onlyError('active_intents:\n  - just a string\n')).toBe(
			'2:5 Entry 1 of active_intents must be a map with id, name and status (got "just a string")'
		);
	});

	it('rejects parallel written as yes', () => {
		expect(onlyError('active_intents:\n  - {id: A, name: n, status: DRAFT, parallel: yes}\n')).toBe(
			'2:47 parallel must be true or false (got "yes")'
		);
	});

	it('reports every problem, sorted by position', () => {
		const text = `active_intents:
  - id: A
    status: NOPE
    name: 3
  - id: B
    name: n
    status: DRAFT
    constraints: "be nice"
`;
		expect(errorsOf(text).map(formatIntentsError)).toEqual([
			'3:13 status must be one of DRAFT, IN_PROGRESS, BLOCKED, COMPLETED (got "NOPE")',
			'4:11 name must be a string (got 3); put it in quotes, e.g. "3"',
			'8:18 constraints must be a list (got "be nice"); write a list, e.g. ["be nice"]'
		]);
	});
});

describe('parseIntents: duplicate ids', () => {
	it('reports the second id, naming the line of the first', () => {
		const text = `active_intents:
  - id: INT-001
    name: a
    status: DRAFT
  - id: INT-002
    name: b
    status: DRAFT
  - id: INT-001
    name: c
    status: DRAFT
`;
		expect(errorsOf(text)).toEqual([
			{
				line: 8,
				column: 9,
				message: 'duplicate intent id "INT-001" (already used on line 2); ids must be unique',
				path: ['active_intents', 2, 'id']
			}
		]);
	});

	it('reports duplicates alongside schema errors', () => {
		const text = `active_intents:
  - { id: X, name: a, status: DRAFT }
  - { id: X, name: b, status: DONE }
`;
		expect(errorsOf(text).map(formatIntentsError)).toEqual([
			'3:11 duplicate intent id "X" (already used on line 2); ids must be unique',
			'3:31 status must be one of DRAFT, IN_PROGRESS, BLOCKED, COMPLETED (got "DONE")'
		]);
	});
});

describe('parseIntents: file-level problems', () => {
	it.each(['', '\n\n', '# only a comment\n', '~\n'])('explains an empty file (%j)', (text) => {
		expect(onlyError(text)).toMatch(/^1:1 The file is empty: start with "active_intents:"/);
	});

	it('explains a missing active_intents key, pointing at a lookalike', () => {
		expect(onlyError('title: course\nintents: []\n')).toBe(
			'2:1 Missing top-level key active_intents (found "intents"; did you mean active_intents?)'
		);
		expect(onlyError('title: course\n')).toMatch(
			/^1:1 Missing top-level key active_intents: start with/
		);
	});

	it('rejects a top level that is not a map', () => {
		expect(onlyError('- a\n- b\n')).toMatch(/^1:1 The top level must be a map .*\(got a list\)/);
	});

	it('rejects active_intents that is not a list', () => {
		expect(onlyError('active_intents: INT-001\n')).toBe(
			'1:17 active_intents must be a list (got "INT-001")'
		);
	});
});

describe('parseIntents: YAML syntax errors', () => {
	it('uses the yaml library position for an unclosed flow list', () => {
		const errors = errorsOf('active_intents: [\n  - id: A\n');
		expect(errors.length).toBeGreaterThan(0);
		expect(errors[0]!.message).toMatch(/^YAML syntax error: /);
		expect(errors[0]!.line).toBeGreaterThanOrEqual(1);
		expect(errors[0]!.column).toBeGreaterThanOrEqual(1);
	});

	it('names a duplicate key', () => {
		const text =
			'active_intents:\n  - id: A\n    name: n\n    status: DRAFT\n    status: BLOCKED\n';
		expect(onlyError(text)).toBe('5:5 The key "status" appears twice in the same map; keep one.');
	});

	it('explains tabs used for indentation', () => {
		expect(errorsOf('active_intents:\n\t- id: A\n').map(formatIntentsError)).toContain(
			'2:1 Tabs are not allowed for indentation in YAML; use spaces.'
		);
	});

	it('explains a second document', () => {
		expect(errorsOf('active_intents: []\n---\nx: 1\n')[0]!.message).toMatch(
			/more than one YAML document/
		);
	});

	it('rejects a self-referencing alias instead of returning a cyclic value', () => {
		expect(onlyError('loop: &a [*a]\nactive_intents: []\n')).toBe(
			'1:11 The alias *a refers to a value that contains it; a value cannot include itself.'
		);
	});

	it('refuses an alias bomb instead of expanding it', () => {
		const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
		for (let level = 1; level < 8; level++) {
			const previous = `*a${level - 1}`;
			lines.push(`a${level}: &a${level} [${Array(10).fill(previous).join(', ')}]`);
		}
		lines.push('active_intents: []');
		expect(onlyError(lines.join('\n'))).toMatch(/^1:1 The file could not be read: /);
	});
});

describe('the number of acceptance criteria (criteriaBounds.maxCriteriaPerFile)', () => {
	/** `counts[i]` runnable criteria under intent i. */
	function intentsWith(counts: number[]): string {
		const lines = ['active_intents:'];
		counts.forEach((count, index) => {
			lines.push(`  - id: INT-${index + 1}`, '    name: Many', '    status: IN_PROGRESS');
			lines.push('    acceptance_criteria:');
			for (let number = 1; number <= count; number++)
				lines.push(`      - { description: "c${number}", run: "sleep 100000" }`);
			if (count === 0) lines.push('      []');
		});
		return `${lines.join('\n')}\n`;
	}

	it.each([
		{ counts: [100], ok: true },
		{ counts: [60, 40], ok: true },
		{ counts: [101], ok: false, total: 101, line: 106 },
		{ counts: [300], ok: false, total: 300, line: 106 },
		{ counts: [60, 41], ok: false, total: 101, line: 110 },
		{ counts: [99, 0, 2], ok: false, total: 101, line: 115 }
	])('$counts criteria: ok $ok', ({ counts, ok, total, line }) => {
		const parsed = parseIntents(intentsWith(counts));
		expect(parsed.ok).toBe(ok);
		if (parsed.ok) return;
		expect(parsed.errors).toHaveLength(1);
		const error = parsed.errors[0] as IntentsError;
		expect(error.message).toBe(
			`too many acceptance criteria: the file has ${total}, at most 100 are allowed (all intents together), so that checking them has an end; remove or merge ${(total ?? 0) - 100}`
		);
		// Placed at the first criterion over the limit.
		expect(error.line).toBe(line);
	});

	it('counts a list reused through an alias each time it is used', () => {
		const criteria = Array.from(
			{ length: 60 },
			(_, index) => `      - { description: "c${index}", run: "true" }`
		).join('\n');
		const yaml = `active_intents:
  - id: INT-001
    name: First
    status: IN_PROGRESS
    acceptance_criteria: &all
${criteria}
  - id: INT-002
    name: Second
    status: IN_PROGRESS
    acceptance_criteria: *all
`;
		const parsed = parseIntents(yaml);
		expect(parsed.ok).toBe(false);
		if (!parsed.ok) expect(parsed.errors[0]?.message).toMatch(/the file has 120, at most 100/);
	});
});
