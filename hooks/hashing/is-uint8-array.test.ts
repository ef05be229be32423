import { describe, expect, it } from 'vitest';
import { isUint8Array } from './is-uint8-array.js';

describe('isUint8Array', () => {
	it('accepts Uint8Arrays and their subclasses', () => {
		class Bytes extends Uint8Array {}
		expect(isUint8Array(new Uint8Array(2))).toBe(true);
		expect(isUint8Array(new Bytes(2))).toBe(true);
		expect(isUint8Array(new TextEncoder().encode('a'))).toBe(true);
	});

	it('accepts an object that only carries the Uint8Array tag of another realm', () => {
		// What a Uint8Array from an iframe looks like from here: right tag, foreign prototype.
		const foreign = Object.create(null, { [Symbol.toStringTag]: { value: 'Uint8Array' } });
		expect(foreign instanceof Uint8Array).toBe(false);
		expect(isUint8Array(foreign)).toBe(true);
	});

	it('rejects other views and values', () => {
		expect(isUint8Array(new Uint16Array(2))).toBe(false);
		expect(isUint8Array(new ArrayBuffer(2))).toBe(false);
		expect(isUint8Array([1, 2])).toBe(false);
		expect(isUint8Array('ab')).toBe(false);
		expect(isUint8Array(null)).toBe(false);
	});
});
