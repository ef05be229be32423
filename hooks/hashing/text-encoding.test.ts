import { describe, expect, it } from 'vitest';
import { decodeText, encodeText, splitLines } from './text-encoding.js';

describe('decodeText', () => {
	it('decodes UTF-8 text', () => {
		expect(decodeText(encodeText('héllo ✓\n'))).toEqual({ ok: true, text: 'héllo ✓\n' });
		expect(decodeText(new Uint8Array())).toEqual({ ok: true, text: '' });
	});

	it('reports a NUL byte in the first 8 KiB as binary', () => {
		expect(decodeText(new Uint8Array([0x61, 0x00, 0x62]))).toEqual({ ok: false, reason: 'binary' });
		const late = new Uint8Array(8 * 1024).fill(0x61);
		late[8 * 1024 - 1] = 0;
		expect(decodeText(late)).toEqual({ ok: false, reason: 'binary' });
	});

	it('does not look for NUL beyond the first 8 KiB', () => {
		const bytes = new Uint8Array(8 * 1024 + 1).fill(0x61);
		bytes[8 * 1024] = 0;
		const decoded = decodeText(bytes);
		expect(decoded.ok).toBe(true);
	});

	it('reports invalid UTF-8 as binary', () => {
		expect(decodeText(new Uint8Array([0xff, 0xfe, 0x41]))).toEqual({ ok: false, reason: 'binary' });
		// A truncated multi-byte sequence at the end.
		expect(decodeText(new Uint8Array([0x61, 0xe2, 0x9c]))).toEqual({ ok: false, reason: 'binary' });
		// A PNG header.
		expect(decodeText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toEqual({
			ok: false,
			reason: 'binary'
		});
	});

	it('keeps a byte order mark so the bytes round-trip', () => {
		const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61]);
		const decoded = decodeText(bytes);
		expect(decoded).toEqual({ ok: true, text: '\ufeffa' });
		if (decoded.ok) expect(encodeText(decoded.text)).toEqual(bytes);
	});

	it('rejects a non-Uint8Array argument', () => {
		expect(() => decodeText('abc' as unknown as Uint8Array)).toThrow(/expects a Uint8Array/);
	});
});

describe('encodeText', () => {
	it('encodes as UTF-8', () => {
		expect(Array.from(encodeText('é✓'))).toEqual([0xc3, 0xa9, 0xe2, 0x9c, 0x93]);
		expect(encodeText('')).toHaveLength(0);
	});
});

describe('splitLines', () => {
	it('returns no lines for the empty string', () => {
		expect(splitLines('')).toEqual([]);
	});

	it('splits on LF and CRLF, dropping the CR', () => {
		expect(splitLines('a\nb')).toEqual(['a', 'b']);
		expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
		expect(splitLines('a\r\nb\nc')).toEqual(['a', 'b', 'c']);
	});

	it('does not add an empty line for a final newline', () => {
		expect(splitLines('a\n')).toEqual(['a']);
		expect(splitLines('a\n\n')).toEqual(['a', '']);
		expect(splitLines('\n')).toEqual(['']);
	});

	it('keeps blank lines in the middle and a lone CR inside a line', () => {
		expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
		expect(splitLines('a\rb')).toEqual(['a\rb']);
	});
});
