import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromHex, hmacSha256, sha256, toHex } from './host-crypto.js';

describe('host-crypto', () => {
	it('computes SHA-256 and HMAC-SHA-256 as Node does, across block boundaries', () => {
		for (const size of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 4097]) {
			const message = randomBytes(size);
			expect(toHex(sha256(message))).toBe(createHash('sha256').update(message).digest('hex'));
			for (const keySize of [0, 16, 64, 65, 200]) {
				const key = randomBytes(keySize);
				expect(toHex(hmacSha256(key, message))).toBe(
					createHmac('sha256', key).update(message).digest('hex')
				);
			}
		}
	});

	it('round-trips bytes through hex, zero bytes included', () => {
		const bytes = new Uint8Array([0, 1, 127, 128, 255, 0]);
		expect(fromHex(toHex(bytes))).toEqual(bytes);
	});
});
