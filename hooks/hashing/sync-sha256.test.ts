import { describe, expect, it } from 'vitest';
import { contentHash } from './sha256.js';
import { loadSyncContentHasher } from './sync-sha256.js';

describe('loadSyncContentHasher', () => {
	it('gives the same hashes as the Web Crypto contentHash (ASCII, UTF-8, surrogates, bytes)', async () => {
		const hash = await loadSyncContentHasher();
		const samples = ['', 'abc', 'x'.repeat(100_000), 'héllo ✓ 𝄞', '\u0000\n\r', 'a\ud800b'];
		for (const sample of samples) expect(hash(sample)).toBe(await contentHash(sample));
		const bytes = new Uint8Array([0, 1, 2, 255]);
		expect(hash(bytes)).toBe(await contentHash(bytes));
	});

	it('keeps no state between calls', async () => {
		const hash = await loadSyncContentHasher();
		const first = hash('one');
		hash('two');
		expect(hash('one')).toBe(first);
	});
});
