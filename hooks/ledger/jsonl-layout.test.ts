import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonlLayout } from './jsonl-layout.js';

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** What verify checked before, from decoded text: the reference the byte scan must agree with. */
function reference(bytes: Uint8Array): string {
	let text: string;
	try {
		text = strictUtf8.decode(bytes);
	} catch {
		return 'invalid-utf8';
	}
	const lines = text.split(/\r?\n/).filter((line) => line !== '');
	return text.replaceAll('\r\n', '\n').replace(/\n$/, '') === lines.join('\n')
		? 'ok'
		: 'blank-lines';
}

describe('jsonlLayout', () => {
	it('accepts one line per entry, with or without a final break, LF or CRLF', () => {
		for (const text of [
			'',
			'\n',
			'\r\n',
			'{"a":1}',
			'{"a":1}\n',
			'{"a":1}\r\n{"b":2}\r\n',
			'a\r',
			'é\n€\n𝄞'
		])
			expect(jsonlLayout(encoder.encode(text)), JSON.stringify(text)).toBe('ok');
	});

	it('finds blank lines anywhere', () => {
		for (const text of [
			'\n\n',
			'a\n\n',
			'\na',
			'a\n\nb',
			'a\n\r\n',
			'\r\n\r\n',
			' \n'.slice(1) + '\nx'
		])
			expect(jsonlLayout(encoder.encode(text)), JSON.stringify(text)).toBe('blank-lines');
	});

	it('refuses what a fatal decoder refuses: cut, overlong, surrogate and out-of-range sequences', () => {
		for (const bytes of [
			[0xc3],
			[0xc0, 0x80],
			[0xe0, 0x80, 0x80],
			[0xed, 0xa0, 0x80],
			[0xf4, 0x90, 0x80, 0x80],
			[0xff],
			[0x80],
			[0xe2, 0x82]
		])
			expect(jsonlLayout(Uint8Array.from(bytes)), bytes.join(',')).toBe('invalid-utf8');
	});

	it('agrees with decoding, splitting and comparing the text, for any bytes', () => {
		const pieces = fc.oneof(
			fc.constantFrom('\n', '\r\n', '\r', 'a', '{"k":"é"}', '𝄞', '', '\ufeff'),
			// ASCII runs long enough to be scanned a word at a time.
			fc.string({ unit: fc.constantFrom('a', '"', '{', '0'), minLength: 4, maxLength: 40 }),
			fc
				.uint8Array({ maxLength: 4 })
				.map((bytes) => Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''))
		);
		fc.assert(
			// At every alignment of the buffer: the scan reads four bytes at a time from a boundary.
			fc.property(
				fc.array(fc.tuple(pieces, fc.boolean()), { maxLength: 12 }),
				fc.integer({ min: 0, max: 3 }),
				(parts, alignment) => {
					const chunks = parts.map(([piece, raw]) =>
						raw
							? Uint8Array.from(piece, (character) => character.charCodeAt(0) & 0xff)
							: encoder.encode(piece)
					);
					const size = chunks.reduce((total, chunk) => total + chunk.length, 0);
					const bytes = new Uint8Array(size + alignment).subarray(alignment);
					let offset = 0;
					for (const chunk of chunks) {
						bytes.set(chunk, offset);
						offset += chunk.length;
					}
					expect(jsonlLayout(bytes)).toBe(reference(bytes));
				}
			),
			{ numRuns: 3_000 }
		);
	});
});
