import { describe, expect, it } from 'vitest';
import { decodeBytes, encodeContent, encodingFromOptions } from './text-encoding.js';

describe('text encoding', () => {
	it('reads the encoding from a string or an options object', () => {
		expect(encodingFromOptions('binary')).toBe('binary');
		expect(encodingFromOptions({ encoding: 'hex' })).toBe('hex');
		expect(encodingFromOptions(undefined)).toBeUndefined();
		expect(encodingFromOptions({})).toBeUndefined();
	});

	it('round-trips every encoding', () => {
		const bytes = Uint8Array.from([0, 1, 127, 128, 255]);
		for (const encoding of ['binary', 'latin1', 'base64', 'hex'] as const) {
			expect(Array.from(encodeContent(decodeBytes(bytes, encoding), encoding))).toEqual(
				Array.from(bytes)
			);
		}
		expect(decodeBytes(encodeContent('héllo', undefined), 'utf8')).toBe('héllo');
	});

	it('passes bytes through untouched', () => {
		const bytes = Uint8Array.from([200, 201]);
		expect(encodeContent(bytes, 'utf8')).toBe(bytes);
	});

	it('decodes large binary content without overflowing the call stack', () => {
		const large = new Uint8Array(200_000).fill(65);
		expect(decodeBytes(large, 'binary')).toHaveLength(200_000);
	});
});
