import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { zipStream, type ZipContent } from './zip-stream.js';

describe('zipStream', () => {
	it('zips every entry so that unzip gives the same bytes back, with progress up to the total', async () => {
		const big = new Uint8Array(3 * (1 << 20) + 17).map((_, index) => (index * 31) % 251);
		const entries = new Map([
			['b/.orchestration/audit.jsonl', big],
			['a.txt', new TextEncoder().encode('héllo\n')],
			['empty', new Uint8Array(0)]
		]);
		const progress: [number, number][] = [];
		const zip = await zipStream(entries, {
			onProgress: (done, total) => progress.push([done, total])
		});
		const unzipped = unzipSync(zip);
		expect(Object.keys(unzipped).sort()).toEqual([...entries.keys()].sort());
		for (const [path, content] of entries) expect(sameBytes(unzipped[path], content)).toBe(true);
		const total = big.length + 7;
		expect(progress.at(-1)).toEqual([total, total]);
		expect(progress.length).toBeGreaterThanOrEqual(4);
	});

	it('zips files given as lines, natively or with fflate, to the same contents', async () => {
		const lines = Array.from(
			{ length: 20_000 },
			(_, index) => `{"seq":${index},"text":"é✓${'x'.repeat(index % 90)}"}`
		);
		const long = 'ü'.repeat(70_000);
		const expected = new TextEncoder().encode([...lines, long].map((line) => line + '\n').join(''));
		const zips: Uint8Array[] = [];
		for (const native of [true, false]) {
			const entries = new Map<string, ZipContent>([
				[
					'x/.orchestration/audit.jsonl',
					{ kind: 'lines' as const, lines: [...lines, long], count: 20_001 }
				],
				['x/small.txt', new TextEncoder().encode('small')]
			]);
			const progress: [number, number][] = [];
			const zip = await zipStream(entries, {
				native,
				onProgress: (done, total) => progress.push([done, total])
			});
			const unzipped = unzipSync(zip);
			expect(sameBytes(unzipped['x/.orchestration/audit.jsonl'], expected)).toBe(true);
			expect(new TextDecoder().decode(unzipped['x/small.txt'])).toBe('small');
			expect(progress.at(-1)).toEqual([20_006, 20_006]);
			expect(
				progress.every(([done], index) => index === 0 || done >= progress[index - 1]![0])
			).toBe(true);
			zips.push(zip);
		}
		// The platform's zlib and fflate write different deflate streams of the same bytes.
		expect(sameBytes(zips[0], zips[1]!)).toBe(false);
	});

	it('writes the same bytes for the same entries', async () => {
		const entries = new Map([
			['x', new TextEncoder().encode('same')],
			['large', new Uint8Array(200_000).map((_, index) => index % 7)]
		]);
		expect(sameBytes(await zipStream(entries), await zipStream(new Map(entries)))).toBe(true);
	});
});

/** Byte-for-byte equality (toEqual walks a 3 MB array element by element, for minutes). */
function sameBytes(left: Uint8Array | undefined, right: Uint8Array): boolean {
	if (!left || left.length !== right.length) return false;
	for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
	return true;
}
