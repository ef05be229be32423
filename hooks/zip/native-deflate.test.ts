import { inflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32.js';
import { deflateNatively, hasNativeDeflate, splitEnds } from './native-deflate.js';

function joined(pieces: readonly Uint8Array[]): Uint8Array {
	const bytes = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
	let offset = 0;
	for (const piece of pieces) {
		bytes.set(piece, offset);
		offset += piece.length;
	}
	return bytes;
}

describe('deflateNatively', () => {
	it('is available in Node, as in the browsers the app supports', () => {
		expect(hasNativeDeflate()).toBe(true);
	});

	it('writes raw deflate of the pieces, with their CRC-32 and length, even from a refilled buffer', async () => {
		const input = new Uint8Array(300_000).map((_, index) => (index * 7919) % 253);
		const buffer = new Uint8Array(4096);
		function* refilled() {
			for (let start = 0; start < input.length; start += buffer.length) {
				const piece = input.subarray(start, start + buffer.length);
				buffer.set(piece);
				yield buffer.subarray(0, piece.length);
			}
		}
		const deflated = await deflateNatively(refilled());
		expect(deflated.size).toBe(input.length);
		expect(deflated.crc).toBe(crc32(input));
		expect(inflateSync(joined(deflated.chunks))).toEqual(input);
	});

	it('writes an empty stream for no bytes', async () => {
		const deflated = await deflateNatively([]);
		expect(deflated.size).toBe(0);
		expect(deflated.crc).toBe(0);
		expect(inflateSync(joined(deflated.chunks)).length).toBe(0);
	});

	it('passes on an error thrown while the pieces are produced', async () => {
		function* failing() {
			yield new Uint8Array(10);
			throw new Error('a key was found');
		}
		await expect(deflateNatively(failing())).rejects.toThrow('a key was found');
	});
});

describe('splitEnds', () => {
	it('cuts the head and the tail off however the pieces fall', () => {
		const bytes = new Uint8Array(40).map((_, index) => index);
		for (const cuts of [[], [3], [10], [11], [31, 32, 33], [1, 2, 5, 9, 30, 39]]) {
			const pieces: Uint8Array<ArrayBuffer>[] = [];
			let start = 0;
			for (const cut of [...cuts, 40]) {
				pieces.push(bytes.subarray(start, cut));
				start = cut;
			}
			const { body, head, tail } = splitEnds(pieces, 10, 8);
			expect([...head]).toEqual([...bytes.subarray(0, 10)]);
			expect([...tail]).toEqual([...bytes.subarray(32)]);
			expect([...joined(body)]).toEqual([...bytes.subarray(10, 32)]);
		}
	});

	it('refuses a stream shorter than its head and tail', () => {
		expect(() => splitEnds([new Uint8Array(17)], 10, 8)).toThrow(/too short/);
	});
});
