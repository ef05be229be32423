import { describe, expect, it } from 'vitest';
import { readJsonl } from './read-jsonl.js';

describe('readJsonl', () => {
	it('numbers lines from 1 and skips empty ones', () => {
		expect(readJsonl('{"a":1}\n\n[2]\n')).toEqual([
			{ line: 1, text: '{"a":1}', value: { a: 1 } },
			{ line: 3, text: '[2]', value: [2] }
		]);
	});

	it('accepts CRLF line breaks', () => {
		expect(readJsonl('1\r\n2\r\n').map((entry) => entry.value)).toEqual([1, 2]);
	});

	it('keeps a lone carriage return as part of the line', () => {
		expect(readJsonl('1\r')).toEqual([{ line: 1, text: '1\r', value: 1 }]);
	});

	it('reports a line that is not JSON with its number', () => {
		const [first, second] = readJsonl('1\n{oops\n');
		expect(first?.value).toBe(1);
		expect(second).toMatchObject({ line: 2, text: '{oops' });
		expect(second?.error).toMatch(/^not valid JSON \(/);
	});

	it('reads nothing from an empty text', () => {
		expect(readJsonl('')).toEqual([]);
	});
});
