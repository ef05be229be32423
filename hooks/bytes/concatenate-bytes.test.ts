import { describe, expect, it } from 'vitest';
import { concatenateBytes } from './concatenate-bytes.js';

describe('concatenateBytes', () => {
	it('joins the chunks in order, views into larger buffers included', () => {
		const backing = new Uint8Array([9, 1, 2, 9]);
		const joined = concatenateBytes([
			new Uint8Array([0]),
			backing.subarray(1, 3),
			new Uint8Array(0),
			new Uint8Array([3])
		]);
		expect([...joined]).toEqual([0, 1, 2, 3]);
		expect(joined.buffer.byteLength).toBe(4);
	});

	it('gives an empty array for no chunks', () => {
		expect(concatenateBytes([]).length).toBe(0);
	});
});
