import { describe, expect, it } from 'vitest';
import { parseReplayScript } from './replay-script.js';

describe('parseReplayScript', () => {
	it('reads a valid script, with the defaults filled in', () => {
		const result = parseReplayScript(
			'steps:\n  - say: hi\n  - call: read_file\n    input: { path: a.ts }\n    approve: true\n'
		);
		expect(result).toEqual({
			ok: true,
			script: {
				model: 'demo/scripted',
				steps: [{ say: 'hi' }, { call: 'read_file', input: { path: 'a.ts' }, approve: true }]
			}
		});
	});

	it('places syntax errors with a plain sentence', () => {
		expect(parseReplayScript('a: 1\na: 2\n')).toEqual({
			ok: false,
			errors: [
				{ line: 2, column: 1, message: 'The key "a" appears twice in the same map; keep one.' }
			]
		});
		const unclosed = parseReplayScript('steps: [\n');
		expect(unclosed.ok).toBe(false);
		expect(!unclosed.ok && unclosed.errors[0]).toMatchObject({ line: 2, column: 1 });
	});

	it('places schema errors on the value at the path, or the closest node that exists', () => {
		expect(parseReplayScript('steps:\n  - call: read_file\n    input: 3\n')).toEqual({
			ok: false,
			errors: [
				{
					line: 3,
					column: 12,
					message: 'steps.0.input: Invalid input: expected record, received number'
				}
			]
		});
		expect(parseReplayScript('{"steps": []}')).toEqual({
			ok: false,
			errors: [
				{ line: 1, column: 11, message: 'steps: Too small: expected array to have >=1 items' }
			]
		});
		expect(parseReplayScript('sessions:\n  1:\n    bogus: x\nsteps:\n  - say: hi\n')).toEqual({
			ok: false,
			errors: [{ line: 3, column: 5, message: 'sessions.1: Unrecognized key: "bogus"' }]
		});
	});

	it('points an empty value at its key, and an empty file at its start', () => {
		expect(parseReplayScript('model: demo/x\nsteps:\n')).toEqual({
			ok: false,
			errors: [
				{ line: 2, column: 1, message: 'steps: Invalid input: expected array, received null' }
			]
		});
		expect(parseReplayScript('')).toEqual({
			ok: false,
			errors: [{ line: 1, column: 1, message: 'Invalid input: expected object, received null' }]
		});
	});

	it('refuses an alias bomb instead of expanding it', () => {
		const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
		for (let level = 1; level < 9; level++) {
			const previous = `*a${level - 1}`;
			lines.push(`a${level}: &a${level} [${Array(10).fill(previous).join(', ')}]`);
		}
		lines.push('steps:', '  - say: *a8');
		const result = parseReplayScript(lines.join('\n'));
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.errors[0]?.message).toMatch(/alias/i);
	});

	it('refuses a self-referencing alias with its line and column', () => {
		const result = parseReplayScript('steps: &s\n  - say: hi\n  - *s\n');
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.errors[0]).toMatchObject({ line: 3, column: 5 });
	});

	it('points an unknown field at its key', () => {
		const result = parseReplayScript('steps:\n  - say: hi\n    colour: red\n');
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.errors[0]).toMatchObject({ line: 3, column: 5 });
			expect(result.errors[0]?.message).toMatch(/colour/);
		}
	});
});
