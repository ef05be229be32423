import { describe, expect, it } from 'vitest';
import { contentHash, hashLines, sha256Hex } from './sha256.js';

const emptyDigest = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const abcDigest = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

describe('sha256Hex', () => {
	it('matches the FIPS 180-2 vectors for the empty string and "abc"', async () => {
		expect(await sha256Hex('')).toBe(emptyDigest);
		expect(await sha256Hex('abc')).toBe(abcDigest);
	});

	it('matches the two-block vector', async () => {
		expect(await sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
			'248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'
		);
	});

	it('hashes strings as UTF-8, the same as the equivalent bytes', async () => {
		const text = 'héllo ✓ 𝄞';
		expect(await sha256Hex(text)).toBe(await sha256Hex(new TextEncoder().encode(text)));
		expect(await sha256Hex('é')).toBe(await sha256Hex(new Uint8Array([0xc3, 0xa9])));
	});

	it('hashes only the bytes a Uint8Array view covers', async () => {
		const backing = new TextEncoder().encode('xxabcxx');
		expect(await sha256Hex(backing.subarray(2, 5))).toBe(abcDigest);
	});

	it('accepts a view over a SharedArrayBuffer', async () => {
		const shared = new Uint8Array(new SharedArrayBuffer(3));
		shared.set([0x61, 0x62, 0x63]);
		expect(await sha256Hex(shared)).toBe(abcDigest);
	});

	it('rejects other inputs with a clear message', async () => {
		await expect(sha256Hex(42 as unknown as string)).rejects.toThrow(
			/expects a string or a Uint8Array, got number/
		);
		await expect(sha256Hex([1, 2] as unknown as Uint8Array)).rejects.toThrow(/got Array/);
	});
});

describe('contentHash', () => {
	it('prefixes the lowercase hex digest with sha256:', async () => {
		const hash = await contentHash('abc');
		expect(hash).toBe(`sha256:${abcDigest}`);
		expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
	});
});

describe('hashLines', () => {
	it('joins lines with LF', async () => {
		expect(await hashLines(['a', 'b'])).toBe(await contentHash('a\nb'));
		expect(await hashLines(['abc'])).toBe(`sha256:${abcDigest}`);
	});

	it('hashes no lines like the empty string', async () => {
		expect(await hashLines([])).toBe(`sha256:${emptyDigest}`);
	});

	it('hashes CRLF lines like LF lines', async () => {
		expect(await hashLines(['a\r', 'b\r'])).toBe(await hashLines(['a', 'b']));
	});

	it('strips only one trailing CR and keeps other whitespace', async () => {
		expect(await hashLines(['a\r\r'])).toBe(await contentHash('a\r'));
		expect(await hashLines(['a '])).not.toBe(await hashLines(['a']));
		expect(await hashLines(['a', ''])).not.toBe(await hashLines(['a']));
	});

	it('rejects a string passed instead of an array', async () => {
		await expect(hashLines('a\nb' as unknown as string[])).rejects.toThrow(/array of lines/);
	});
});
