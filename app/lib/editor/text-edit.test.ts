import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minimalReplacement, type TextReplacement } from './text-edit.js';

function apply(text: string, replacement: TextReplacement | null): string {
	if (!replacement) return text;
	return text.slice(0, replacement.start) + replacement.text + text.slice(replacement.end);
}

describe('minimalReplacement', () => {
	it('returns null when nothing changed', () => {
		expect(minimalReplacement('same', 'same')).toBeNull();
		expect(minimalReplacement('', '')).toBeNull();
	});

	it('replaces only the changed middle', () => {
		expect(minimalReplacement('let a = 1;\nlet b = 2;\n', 'let a = 1;\nlet b = 3;\n')).toEqual({
			start: 19,
			end: 20,
			text: '3'
		});
	});

	it('handles pure insertions and deletions at either end', () => {
		expect(minimalReplacement('abc', 'abcd')).toEqual({ start: 3, end: 3, text: 'd' });
		expect(minimalReplacement('abc', 'xabc')).toEqual({ start: 0, end: 0, text: 'x' });
		expect(minimalReplacement('abcd', 'abc')).toEqual({ start: 3, end: 4, text: '' });
		expect(minimalReplacement('', 'new file')).toEqual({ start: 0, end: 0, text: 'new file' });
		expect(minimalReplacement('gone', '')).toEqual({ start: 0, end: 4, text: '' });
	});

	it('does not count the same character twice when prefix and suffix overlap', () => {
		// "aa" → "aaa": the prefix covers "aa", the suffix must not reach back into it.
		const replacement = minimalReplacement('aa', 'aaa');
		expect(replacement).toEqual({ start: 2, end: 2, text: 'a' });
	});

	it('never splits a surrogate pair', () => {
		// 😀 and 😃 share their high surrogate.
		const replacement = minimalReplacement('x😀y', 'x😃y');
		expect(replacement).toEqual({ start: 1, end: 3, text: '😃' });
	});

	it('never splits a CRLF', () => {
		const replacement = minimalReplacement('a\r\nb', 'a\nb');
		expect(replacement).toEqual({ start: 1, end: 3, text: '\n' });
	});

	it('always turns the old text into the new one', () => {
		const text = fc.string({ unit: fc.constantFrom('a', 'b', '\r', '\n', '😀', '😃', 'é') });
		fc.assert(
			fc.property(text, text, (before, after) => {
				const replacement = minimalReplacement(before, after);
				expect(apply(before, replacement)).toBe(after);
				if (replacement) {
					expect(replacement.start).toBeLessThanOrEqual(replacement.end);
					expect(replacement.end).toBeLessThanOrEqual(before.length);
				}
			})
		);
	});
});
