import { unzipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { exportZipLimits, readZip } from '../../../hooks/zip/read-zip.js';
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
					{ kind: 'lines' as const, lines: () => [...lines, long], count: 20_001 }
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

describe('zipStream and the strict reader', () => {
	const repeatedLine = new TextEncoder().encode(('x'.repeat(99) + '\n').repeat(20_000));
	const zeros = new Uint8Array(3 << 20);
	const lines = () => Array.from({ length: 30_000 }, () => 'y'.repeat(80));

	it('stores what would pack tighter than the reader accepts, natively or with fflate', async () => {
		for (const native of [true, false]) {
			const entries = new Map<string, ZipContent>([
				['logs/build.log', repeatedLine],
				['zeros.bin', zeros],
				['same.jsonl', { kind: 'lines', lines, count: 30_000 }],
				['small.txt', new TextEncoder().encode('small')]
			]);
			const zip = await zipStream(entries, { native });
			const read = new Map(readZip(zip, exportZipLimits).map((entry) => [entry.path, entry]));
			expect(sameBytes(read.get('logs/build.log')?.content, repeatedLine)).toBe(true);
			expect(sameBytes(read.get('zeros.bin')?.content, zeros)).toBe(true);
			expect(new TextDecoder().decode(read.get('same.jsonl')?.content)).toBe(
				lines()
					.map((line) => line + '\n')
					.join('')
			);
			// The zeros, at least, were written in stored blocks, as deflate entries (no zip method 0,
			// which streaming readers refuse with the data descriptor fflate writes).
			expect(zip.length).toBeGreaterThan(zeros.length);
			expect(storedMethods(zip)).toEqual([]);
		}
	});

	it("deflates an entry with fflate when the platform's stream fails, but not when a line is refused", async () => {
		const failing = vi.spyOn(globalThis, 'CompressionStream').mockImplementation(
			() =>
				({
					writable: new WritableStream({
						write() {
							throw new Error('the engine ran out of memory');
						}
					}),
					readable: new ReadableStream()
				}) as unknown as CompressionStream
		);
		try {
			const text = 'héllo\n'.repeat(30_000);
			const progress: number[] = [];
			const zip = await zipStream(new Map([['a.txt', new TextEncoder().encode(text)]]), {
				onProgress: (done) => progress.push(done)
			});
			expect(new TextDecoder().decode(unzipSync(zip)['a.txt'])).toBe(text);
			// The second pass does not count again what the first had counted.
			expect(progress.every((done, index) => index === 0 || done >= progress[index - 1]!)).toBe(
				true
			);
			expect(progress.at(-1)).toBe(new TextEncoder().encode(text).length);
			function* refused(): Iterable<string> {
				yield 'fine';
				throw new Error('a key was found');
			}
			await expect(
				zipStream(new Map([['a.jsonl', { kind: 'lines', lines: refused, count: 2 }]]))
			).rejects.toThrow('a key was found');
		} finally {
			failing.mockRestore();
		}
	});
});

/** The compression methods of the local headers that are not deflate (8). */
function storedMethods(zip: Uint8Array): number[] {
	const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
	const methods: number[] = [];
	for (let at = 0; at + 30 <= zip.length; at++) {
		if (view.getUint32(at, true) !== 0x04034b50) continue;
		const method = view.getUint16(at + 8, true);
		if (method !== 8) methods.push(method);
	}
	return methods;
}

/** Byte-for-byte equality (toEqual walks a 3 MB array element by element, for minutes). */
function sameBytes(left: Uint8Array | undefined, right: Uint8Array): boolean {
	if (!left || left.length !== right.length) return false;
	for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
	return true;
}
