import { describe, expect, it } from 'vitest';
import { describeValue, formatPath, quoteHint } from './issue-wording.js';

describe('formatPath', () => {
	it('joins keys with dots and puts list indexes in brackets', () => {
		expect(formatPath(['sandbox', 'needs'])).toBe('sandbox.needs');
		expect(formatPath(['steps', 2, 'input'])).toBe('steps[2].input');
		expect(formatPath([0, 'id'])).toBe('[0].id');
		expect(formatPath([])).toBe('');
	});
});

describe('describeValue', () => {
	it('names missing values, lists and maps in words', () => {
		expect(describeValue(null)).toBe('nothing');
		expect(describeValue(undefined)).toBe('nothing');
		expect(describeValue([1])).toBe('a list');
		expect(describeValue({ a: 1 })).toBe('a map');
		expect(describeValue(42)).toBe('42');
		expect(describeValue(false)).toBe('false');
	});

	it('quotes strings and shortens long ones', () => {
		expect(describeValue('jwt auth')).toBe('"jwt auth"');
		expect(describeValue('x'.repeat(61))).toBe(`"${'x'.repeat(60)}…"`);
		expect(describeValue('x'.repeat(60))).toBe(`"${'x'.repeat(60)}"`);
	});
});

describe('quoteHint', () => {
	it('suggests quotes for a number or boolean where text is expected', () => {
		expect(quoteHint('string', 1.0)).toBe('; put it in quotes, e.g. "1"');
		expect(quoteHint('string', true)).toBe('; put it in quotes, e.g. "true"');
	});

	it('suggests a list for a lone string where a list is expected', () => {
		expect(quoteHint('array', 'src/**')).toBe('; write a list, e.g. ["src/**"]');
	});

	it('gives no hint when none fits', () => {
		expect(quoteHint('string', null)).toBe('');
		expect(quoteHint('array', null)).toBe('');
		expect(quoteHint('object', 'x')).toBe('');
	});
});
