import { test } from 'node:test';
import assert from 'node:assert';
test('passes', () => {});
test('compares totals', () => {
	assert.strictEqual(40 + 1, 42, 'the total is off');
});
test('throws plainly', () => {
	throw new Error('plain failure');
});
