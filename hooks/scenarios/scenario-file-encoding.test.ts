import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	base64ToBytes,
	bytesToBase64,
	decodeScenarioFile,
	encodeScenarioFile,
	isValidBase64,
	scenarioFileByteLength,
	scenarioFileText
} from './scenario-file-encoding.js';

const encoder = new TextEncoder();

describe('scenario file encoding', () => {
	it('keeps text as UTF-8, including non-ASCII', () => {
		expect(encodeScenarioFile(encoder.encode('héllo — 😀\n'))).toEqual({
			encoding: 'utf8',
			content: 'héllo — 😀\n'
		});
	});

	it('keeps a byte-order mark in the text, so the bytes come back the same', () => {
		const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61]);
		const file = encodeScenarioFile(bytes);
		expect(file.encoding).toBe('utf8');
		expect(decodeScenarioFile(file)).toEqual(bytes);
	});

	it('uses base64 for invalid UTF-8 and for NUL bytes', () => {
		expect(encodeScenarioFile(new Uint8Array([0xff, 0xfe, 0x00]))).toEqual({
			encoding: 'base64',
			content: '//4A'
		});
		expect(encodeScenarioFile(new Uint8Array([0x61, 0x00, 0x62])).encoding).toBe('base64');
	});

	it('round-trips any bytes and counts their length without decoding', () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
				const file = encodeScenarioFile(bytes);
				expect(decodeScenarioFile(file)).toEqual(bytes);
				expect(scenarioFileByteLength(file)).toBe(bytes.length);
			})
		);
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme' }), (text) => {
				const file = encodeScenarioFile(encoder.encode(text));
				expect(scenarioFileByteLength(file)).toBe(encoder.encode(text).length);
			})
		);
	});

	it('encodes large binary files (no argument-list overflow)', () => {
		const bytes = new Uint8Array(300_000).map((_, index) => index % 251);
		expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
	});

	it('rejects malformed base64', () => {
		for (const bad of ['abc', 'ab=c', '****', 'YQ===', 'Y Q==']) {
			expect(isValidBase64(bad), bad).toBe(false);
			expect(() => base64ToBytes(bad)).toThrow(/not valid base64/);
		}
		expect(isValidBase64('')).toBe(true);
	});

	it('reads text out of a base64 file only when it is text', () => {
		expect(scenarioFileText({ encoding: 'base64', content: btoa('a: 1\n') })).toBe('a: 1\n');
		expect(scenarioFileText({ encoding: 'base64', content: '//4A' })).toBeNull();
		expect(scenarioFileText({ encoding: 'base64', content: 'oops' })).toBeNull();
	});
});
