import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from './utf8-text.js';

const utf8Text = (bytes: Uint8Array) => decodeUtf8(bytes).text;
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What a fatal TextDecoder says: true when it refuses the bytes. */
function refusedByFatalDecoder(bytes: Uint8Array): boolean {
	try {
		fatalDecoder.decode(bytes);
		return false;
	} catch {
		return true;
	}
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** Bytes around every edge of UTF-8: lead bytes, bounds of the first continuation byte, ends. */
const edgeBytes = [
	0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef,
	0xf0, 0xf4, 0xf5, 0xf8, 0xfe, 0xff, 0xef, 0xbb
];

describe('decodeUtf8', () => {
	it('decodes valid text as TextDecoder does, every plane and a byte order mark included', () => {
		for (const text of [
			'',
			'plain ascii {"a":1}',
			'é ñ ü — … ’',
			'中文 日本語 한국어',
			'emoji 😀 𝄞 and 𐍈',
			'\uFEFFstarts with a BOM, and one \uFEFF inside',
			'\u0000\u007f\u0080\u07ff\u0800\uffff',
			'a'.repeat(20_000) + '…' + 'b'.repeat(9_000)
		]) {
			const bytes = encoder.encode(text);
			expect(decodeUtf8(bytes)).toEqual({ text: decoder.decode(bytes), malformed: false });
			expect(utf8Text(bytes)).toBe(text);
		}
	});

	it('replaces invalid sequences exactly as TextDecoder does', () => {
		const cases = [
			[0x80],
			[0xbf, 0x41],
			[0xc0, 0x80],
			[0xc1, 0xbf],
			[0xc2],
			[0xc2, 0x41],
			[0xe0, 0x80, 0x80],
			[0xe0, 0xa0],
			[0xe0, 0xa0, 0x41],
			[0xed, 0xa0, 0x80],
			[0xed, 0x9f, 0xbf],
			[0xef, 0xbf],
			[0xf0, 0x80, 0x80, 0x80],
			[0xf0, 0x90, 0x80],
			[0xf0, 0x90, 0x80, 0x41],
			[0xf4, 0x90, 0x80, 0x80],
			[0xf4, 0x8f, 0xbf, 0xbf],
			[0xf5, 0x80, 0x80, 0x80],
			[0xff, 0xfe, 0x41],
			[0xe2, 0x82, 0xe2, 0x82, 0xac]
		];
		for (const bytes of cases) {
			const array = Uint8Array.from(bytes);
			const name = bytes.map((byte) => byte.toString(16)).join(' ');
			expect(utf8Text(array), name).toBe(decoder.decode(array));
			expect(decodeUtf8(array).malformed, name).toBe(refusedByFatalDecoder(array));
		}
	});

	it('agrees with TextDecoder on any bytes, mostly ASCII or mostly edges, short and long', () => {
		const byte = fc.oneof(
			{ weight: 5, arbitrary: fc.integer({ min: 0, max: 0x7f }) },
			{ weight: 3, arbitrary: fc.constantFrom(...edgeBytes) },
			{ weight: 2, arbitrary: fc.integer({ min: 0, max: 0xff }) }
		);
		const agrees = (values: number[]) => {
			const bytes = Uint8Array.from(values);
			expect(decodeUtf8(bytes)).toEqual({
				text: decoder.decode(bytes),
				malformed: refusedByFatalDecoder(bytes)
			});
		};
		fc.assert(fc.property(fc.array(byte, { maxLength: 64 }), agrees), { numRuns: 400 });
		// Longer than one String.fromCharCode piece (8,192 code units).
		fc.assert(fc.property(fc.array(byte, { minLength: 17_000, maxLength: 20_000 }), agrees), {
			numRuns: 8
		});
	});

	it('decodes a view into a larger buffer from its own start', () => {
		const whole = encoder.encode('xx…{"é":1}…yy');
		const view = whole.subarray(2, whole.length - 2);
		expect(utf8Text(view)).toBe(decoder.decode(view));
	});
});
