import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jsSha256Hex } from './js-sha256.js';

const nodeHex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('jsSha256Hex', () => {
	it('matches the published test vectors', () => {
		expect(jsSha256Hex('')).toBe(
			'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
		);
		expect(jsSha256Hex('abc')).toBe(
			'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
		);
		expect(jsSha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
			'248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'
		);
	});

	it('matches node:crypto at every length around the block and padding edges', () => {
		for (let length = 0; length <= 200; length++) {
			const text = 'x'.repeat(length);
			expect(jsSha256Hex(text), `length ${length}`).toBe(nodeHex(text));
		}
	});

	it('encodes UTF-8 as TextEncoder does: 2-, 3- and 4-byte sequences, lone surrogates as U+FFFD', () => {
		const samples = [
			'é',
			'€',
			'😀',
			'a😀b',
			'\ud800',
			'x\udc00y',
			'\ud83d',
			'ÿ'.repeat(70),
			'😀'.repeat(40)
		];
		for (const sample of samples) {
			for (let pad = 0; pad < 70; pad += 7) {
				const text = 'a'.repeat(pad) + sample;
				expect(jsSha256Hex(text), JSON.stringify(text)).toBe(
					nodeHex(new TextEncoder().encode(text))
				);
			}
		}
	});

	it('matches node:crypto on inputs longer than the reused buffer, and after them', () => {
		const long = 'é€😀x'.repeat(300_000);
		expect(jsSha256Hex(long)).toBe(nodeHex(new TextEncoder().encode(long)));
		const bytes = new Uint8Array(3 << 20).map((_, index) => index * 7);
		expect(jsSha256Hex(bytes)).toBe(nodeHex(bytes));
		expect(jsSha256Hex('abc')).toBe(nodeHex('abc'));
	});

	it('matches node:crypto on random strings and bytes', () => {
		let seed = 7;
		const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
		for (let round = 0; round < 300; round++) {
			const length = Math.floor(random() * 2000);
			let text = '';
			for (let index = 0; index < length; index++)
				text += String.fromCharCode(Math.floor(random() * 0x10000));
			expect(jsSha256Hex(text)).toBe(nodeHex(new TextEncoder().encode(text)));
			const bytes = new Uint8Array(length);
			for (let index = 0; index < length; index++) bytes[index] = Math.floor(random() * 256);
			expect(jsSha256Hex(bytes)).toBe(nodeHex(bytes));
		}
	});
});
