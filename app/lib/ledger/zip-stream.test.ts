import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { zipStream } from './zip-stream.js';

describe('zipStream', () => {
	it('zips every entry so that unzip gives the same bytes back, with progress up to the total', () => {
		const big = new Uint8Array(3 * (1 << 20) + 17).map((_, index) => (index * 31) % 251);
		const entries = new Map([
			['b/.orchestration/audit.jsonl', big],
			['a.txt', new TextEncoder().encode('héllo\n')],
			['empty', new Uint8Array(0)]
		]);
		const progress: [number, number][] = [];
		const zip = zipStream(entries, (done, total) => progress.push([done, total]));
		const unzipped = unzipSync(zip);
		expect(Object.keys(unzipped).sort()).toEqual([...entries.keys()].sort());
		for (const [path, content] of entries) expect(sameBytes(unzipped[path], content)).toBe(true);
		const total = big.length + 7;
		expect(progress.at(-1)).toEqual([total, total]);
		expect(progress.length).toBeGreaterThanOrEqual(4);
	});

	it('writes the same bytes for the same entries', () => {
		const entries = new Map([['x', new TextEncoder().encode('same')]]);
		expect(sameBytes(zipStream(entries), zipStream(new Map(entries)))).toBe(true);
	});
});

/** Byte-for-byte equality (toEqual walks a 3 MB array element by element, for minutes). */
function sameBytes(left: Uint8Array | undefined, right: Uint8Array): boolean {
	if (!left || left.length !== right.length) return false;
	for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
	return true;
}
