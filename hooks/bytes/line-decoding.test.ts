import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AsciiChunk, asciiText, firstNonAscii } from './line-decoding.js';

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

describe('firstNonAscii', () => {
	it('finds the first byte of 0x80 or more from any start, at any alignment of the buffer', () => {
		fc.assert(
			fc.property(
				fc.uint8Array({ maxLength: 80 }).map((bytes) => bytes.map((byte) => byte & 0x7f)),
				fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0x80, max: 0xff })), { maxLength: 3 }),
				fc.nat({ max: 7 }),
				fc.nat(),
				(ascii, highs, offset, from) => {
					const buffer = new Uint8Array(ascii.length + offset);
					const bytes = buffer.subarray(offset);
					bytes.set(ascii);
					for (const [position, byte] of highs)
						if (bytes.length > 0) bytes[position % bytes.length] = byte;
					const start = bytes.length === 0 ? 0 : from % (bytes.length + 1);
					let naive = start;
					while (naive < bytes.length && bytes[naive]! < 0x80) naive++;
					expect(firstNonAscii(bytes, start)).toBe(naive);
				}
			)
		);
	});
});

describe('AsciiChunk', () => {
	it('gives an ASCII range the text TextDecoder gives, and no text for a range with any other byte', () => {
		const bytes = bytesOf('{"a":1}\n{"b":"é"}\n{"c":"\u0001"}\n');
		const chunk = new AsciiChunk(bytes);
		const lines: (string | null)[] = [];
		for (let start = 0; start < bytes.length;) {
			const end = bytes.indexOf(10, start);
			lines.push(chunk.text(start, end));
			start = end + 1;
		}
		expect(lines).toEqual(['{"a":1}', null, decoder.decode(bytesOf('{"c":"\u0001"}'))]);
	});

	it('may be asked for ranges in any order', () => {
		const bytes = bytesOf('abc…def');
		const chunk = new AsciiChunk(bytes);
		expect(chunk.text(6, 9)).toBe('def');
		expect(chunk.text(0, 3)).toBe('abc');
		expect(chunk.text(2, 4)).toBeNull();
	});
});
