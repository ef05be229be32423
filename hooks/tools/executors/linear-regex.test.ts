import { describe, expect, it } from 'vitest';
import { compileLinearRegex } from './linear-regex.js';
import { createTestPipeline } from '../../pipeline/pipeline-test-kit.js';

describe('search_files regular expressions run in linear time', () => {
	it('answers a catastrophic pattern at once instead of hanging', () => {
		const regex = compileLinearRegex('^(a+)+$');
		if (!regex.ok) throw new Error(regex.reason);
		expect(regex.test(`${'a'.repeat(48)}!`)).toBe(false);
		expect(regex.test('a'.repeat(5_000))).toBe(true);
		// Nested and overlapping repetitions, a classic set of "evil" patterns, on long lines.
		for (const pattern of [
			'(a|a)*$',
			'(a*)*b',
			'(x+x+)+y',
			'(\\w+\\s?)*$',
			'^(([a-z])+.)+[A-Z]([a-z])+$'
		])
			expect(compileLinearRegex(pattern).ok).toBe(true);
	});

	it('keeps the usual syntax and explains what RE2 refuses', () => {
		const regex = compileLinearRegex('export\\s+function\\s+\\w+\\(');
		expect(regex.ok && regex.test('export function verify(token)')).toBe(true);
		const lookbehind = compileLinearRegex('(?<=a)b');
		expect(lookbehind.ok).toBe(false);
		if (!lookbehind.ok) expect(lookbehind.reason).toContain('no lookaround');
		expect(compileLinearRegex('(a)\\1').ok).toBe(false);
	});

	it('search_files finds nothing in a catastrophic case and returns', async () => {
		const kit = createTestPipeline({
			files: { 'src/a.txt': `${'a'.repeat(48)}!\n`, 'src/b.txt': 'aaa\n' }
		});
		const outcome = await kit.call('search_files', { pattern: '^(a+)+$' });
		expect(outcome.ok).toBe(true);
		if (outcome.ok)
			expect(outcome.output).toEqual({ matches: [{ path: 'src/b.txt', line: 1, text: 'aaa' }] });
		const invalid = await kit.call('search_files', { pattern: '(?=x)' });
		expect(invalid.ok).toBe(false);
		if (!invalid.ok) expect(invalid.error.code).toBe('invalid_input');
	});
});
