import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from './host-crypto.js';
import { digest, hashAlgorithms, hmac, normalizeHashName } from './host-hash-algorithms.js';

describe('host-hash-algorithms', () => {
	it('gives the same digest as Node for any bytes, for every algorithm', () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
				for (const algorithm of hashAlgorithms) {
					expect(toHex(digest(algorithm, bytes))).toBe(
						createHash(algorithm).update(bytes).digest('hex')
					);
				}
			}),
			{ numRuns: 150 }
		);
	});

	it('gives the same HMAC as Node for any key and bytes, keys longer than a block included', () => {
		fc.assert(
			fc.property(
				fc.uint8Array({ maxLength: 300 }),
				fc.uint8Array({ maxLength: 300 }),
				(key, bytes) => {
					for (const algorithm of hashAlgorithms) {
						expect(toHex(hmac(algorithm, key, bytes))).toBe(
							createHmac(algorithm, key).update(bytes).digest('hex')
						);
					}
				}
			),
			{ numRuns: 80 }
		);
	});

	it('pads correctly on block boundaries (55/56/63/64, 111/112/127/128 bytes)', () => {
		for (const size of [55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 1000]) {
			const bytes = new Uint8Array(size).map((_, index) => (index * 31) & 0xff);
			for (const algorithm of hashAlgorithms) {
				expect(toHex(digest(algorithm, bytes))).toBe(
					createHash(algorithm).update(bytes).digest('hex')
				);
			}
		}
	});

	it("accepts Node's spellings and refuses unknown names", () => {
		expect(normalizeHashName('SHA-512')).toBe('sha512');
		expect(normalizeHashName('RSA-SHA1')).toBe('sha1');
		expect(normalizeHashName('MD5')).toBe('md5');
		expect(normalizeHashName('sha3-256')).toBeUndefined();
		expect(normalizeHashName('whirlpool')).toBeUndefined();
	});
});
