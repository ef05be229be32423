import { describe, expect, it } from 'vitest';
import { asciiText } from './line-decoding.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const bytesOf = (text: string) => new TextEncoder().encode(text);

describe('asciiText', () => {
	it('gives what TextDecoder gives for every ASCII byte, control characters included', () => {
		const every = Uint8Array.from({ length: 128 }, (_, code) => code);
		expect(asciiText(every)).toBe(decoder.decode(every));
		expect(asciiText(new Uint8Array(0))).toBe('');
	});

	it('leaves any line with a byte of 0x80 or more to TextDecoder', () => {
		for (const text of ['preview…', 'café', '\u{1F600}', '\uFEFF{"a":1}'])
			expect(asciiText(bytesOf(`{"text":"${text}"}`))).toBeNull();
		// Not UTF-8 at all: TextDecoder replaces these, never a char code of 0x80–0xff.
		expect(asciiText(Uint8Array.from([0x7b, 0x80, 0x7d]))).toBeNull();
		expect(asciiText(Uint8Array.from([0xff]))).toBeNull();
	});

	it('gives the same text as TextDecoder for random lines, ASCII or not', () => {
		let seed = 7;
		const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
		for (let run = 0; run < 2_000; run++) {
			const length = Math.floor(random() * 300);
			const highChance = random() < 0.5 ? 0 : 0.05;
			const bytes = Uint8Array.from({ length }, () =>
				random() < highChance ? 0x80 + Math.floor(random() * 128) : Math.floor(random() * 128)
			);
			const text = asciiText(bytes);
			if (text !== null) expect(text).toBe(decoder.decode(bytes));
			else expect(bytes.some((byte) => byte >= 0x80)).toBe(true);
		}
	});

	it('leaves a line longer than one call may take to TextDecoder, at any length', () => {
		expect(asciiText(new Uint8Array(8_192).fill(0x61))).toBe('a'.repeat(8_192));
		expect(asciiText(new Uint8Array(8_193).fill(0x61))).toBeNull();
	});
});
