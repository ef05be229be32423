import { deflateSync, strToU8, zipSync } from 'fflate';
import { concatenateBytes } from '../bytes/concatenate-bytes.js';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32.js';
import { inflateRawSync } from 'node:zlib';
import { nativeInflate } from './native-inflate.js';
import { boundedInflateWith } from './sync-native-inflate.js';
import {
	exportZipLimits,
	readZip,
	readZipWith,
	type ZipEntry,
	type ZipLimits
} from './read-zip.js';

interface RawEntry {
	name: string;
	data: Uint8Array;
	/** Deflate the data (else stored). */
	deflate?: boolean;
	/** Overrides, to write lying headers. */
	declaredSize?: number;
	localName?: string;
}

/** A minimal zip writer that, unlike real tools, will write duplicates and lies on purpose. */
function rawZip(entries: RawEntry[], options: { gapBefore?: number } = {}): Uint8Array {
	const chunks: Uint8Array[] = [];
	const directory: Uint8Array[] = [];
	let offset = 0;
	const push = (bytes: Uint8Array): void => {
		chunks.push(bytes);
		offset += bytes.length;
	};
	if (options.gapBefore) push(new Uint8Array(options.gapBefore));
	for (const entry of entries) {
		const packed = entry.deflate ? deflateSync(entry.data) : entry.data;
		const name = strToU8(entry.name);
		const localName = strToU8(entry.localName ?? entry.name);
		const size = entry.declaredSize ?? entry.data.length;
		const crc = crc32(entry.data);
		const method = entry.deflate ? 8 : 0;
		const local = new Uint8Array(30 + localName.length);
		const localView = new DataView(local.buffer);
		localView.setUint32(0, 0x04034b50, true);
		localView.setUint16(4, 20, true);
		localView.setUint16(6, 0x800, true);
		localView.setUint16(8, method, true);
		localView.setUint32(14, crc, true);
		localView.setUint32(18, packed.length, true);
		localView.setUint32(22, size, true);
		localView.setUint16(26, localName.length, true);
		local.set(localName, 30);
		const localOffset = offset;
		push(local);
		push(packed);
		const central = new Uint8Array(46 + name.length);
		const view = new DataView(central.buffer);
		view.setUint32(0, 0x02014b50, true);
		view.setUint16(4, 20, true);
		view.setUint16(6, 20, true);
		view.setUint16(8, 0x800, true);
		view.setUint16(10, method, true);
		view.setUint32(16, crc, true);
		view.setUint32(20, packed.length, true);
		view.setUint32(24, size, true);
		view.setUint16(28, name.length, true);
		view.setUint32(42, localOffset, true);
		central.set(name, 46);
		directory.push(central);
	}
	const directoryOffset = offset;
	let directorySize = 0;
	for (const central of directory) {
		push(central);
		directorySize += central.length;
	}
	const end = new Uint8Array(22);
	const endView = new DataView(end.buffer);
	endView.setUint32(0, 0x06054b50, true);
	endView.setUint16(8, entries.length, true);
	endView.setUint16(10, entries.length, true);
	endView.setUint32(12, directorySize, true);
	endView.setUint32(16, directoryOffset, true);
	push(end);
	return concatenateBytes(chunks);
}

const text = (value: string): Uint8Array => strToU8(value);
const smallLimits: ZipLimits = { ...exportZipLimits, maximumEntries: 10 };

type Reader = (zip: Uint8Array, limits?: ZipLimits) => Promise<ZipEntry[]>;
// Every entry through the native inflater, however small (by default small ones use fflate's).
const inflate = nativeInflate({ smallestInput: 0 });
if (!inflate) throw new Error('this Node has no DecompressionStream("deflate-raw")');

// The CLI's inflater: node:zlib, stopped one byte past the declared size.
const zlibInflate = boundedInflateWith((packed, maximumOutput) => {
	try {
		return inflateRawSync(packed, { maxOutputLength: maximumOutput });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return 'too-large';
		throw error;
	}
});

// Every case runs through all three ways of inflating: fflate (readZip: scenarios, imports), the
// platform's DecompressionStream (readZipWith: the grading Worker) and node:zlib (the CLI).
describe.each<[string, Reader]>([
	['readZip', async (zip, limits) => readZip(zip, limits)],
	[
		'readZipWith a native inflater',
		(zip, limits) => readZipWith(zip, limits ?? exportZipLimits, inflate)
	],
	[
		'readZipWith node:zlib',
		(zip, limits) => readZipWith(zip, limits ?? exportZipLimits, zlibInflate)
	]
])('%s', (_name, read) => {
	async function refusal(zip: Uint8Array, limits?: ZipLimits): Promise<string> {
		try {
			await read(zip, limits);
		} catch (error) {
			return (error as Error).message;
		}
		throw new Error('expected the zip to be refused');
	}

	it('reads files, folders and links, stored and deflated', async () => {
		const zip = zipSync({
			'src/': new Uint8Array(0),
			'src/a.ts': text('export {};\n'),
			'src/big.txt': [new Uint8Array(10_000).fill(65), { level: 9 }],
			'src/link': [text('../README.md'), { os: 3, attrs: (0o120777 << 16) >>> 0 }]
		});
		const entries = await read(zip);
		expect(entries.map((entry) => [entry.path, entry.kind])).toEqual([
			['src', 'folder'],
			['src/a.ts', 'file'],
			['src/big.txt', 'file'],
			['src/link', 'link']
		]);
		expect(new TextDecoder().decode(entries[3]?.content)).toBe('../README.md');
		expect(entries[2]?.content.length).toBe(10_000);
	});

	it('reads the writer of these tests (so its refusals below are about the lie, not the writer)', async () => {
		const entries = await read(
			rawZip([
				{ name: 'a.txt', data: text('a') },
				{ name: 'b.txt', data: text('bbbb'), deflate: true }
			])
		);
		expect(entries.map((entry) => entry.path)).toEqual(['a.txt', 'b.txt']);
	});

	describe('aliases and duplicates', () => {
		it.each([
			[['src/db/users.ts', 'src/db/users.ts'], /"src\/db\/users.ts" appears twice/],
			[['docs/caf\u00e9.md', 'docs/cafe\u0301.md'], /name the same file/],
			[['src\\db\\users.ts', 'src/db/users.ts'], /"src\\\\db\\\\users.ts" contains a backslash/],
			[['./src/a.ts', 'src/a.ts'], /"\.\/src\/a.ts" has a "\." segment/],
			[['src//a.ts', 'src/a.ts'], /"src\/\/a.ts" has an empty segment/],
			[['src/./a.ts'], /has a "\." segment/]
		])('refuses %j, naming the entry', async (names, reason) => {
			const zip = rawZip(names.map((name, index) => ({ name, data: text(`v${index}`) })));
			expect(await refusal(zip)).toMatch(reason);
		});

		it('refuses a local header whose name differs from the directory (another tool would extract it)', async () => {
			const zip = rawZip([{ name: 'src/a.ts', localName: 'src/b.ts', data: text('x') }]);
			expect(await refusal(zip)).toMatch(/"src\/a.ts" has a different name in its local header/);
		});

		it('refuses bytes the directory does not list (a hidden entry)', async () => {
			expect(
				await refusal(rawZip([{ name: 'a.txt', data: text('a') }], { gapBefore: 40 }))
			).toMatch(/bytes before entry "a.txt" that its directory does not list/);
		});
	});

	describe('traversal', () => {
		it.each([
			['../x', /has a "\.\." segment/],
			['a/../../x', /has a "\.\." segment/],
			['/etc/x', /is an absolute path/],
			['C:\\x', /contains a backslash/],
			['C:/x', /is an absolute path/],
			['a\u0000b', /control character \(U\+0000\)/]
		])('refuses %j', async (name, reason) => {
			const message = await refusal(rawZip([{ name, data: text('x') }]));
			expect(message).toMatch(reason);
			expect(message).toContain(JSON.stringify(name));
		});
	});

	describe('bombs', () => {
		it('refuses a high compression ratio before inflating', async () => {
			const zip = zipSync({ 'zeros.bin': [new Uint8Array(8 * 1024 * 1024), { level: 9 }] });
			expect(await refusal(zip)).toMatch(/entry "zeros.bin" is compressed more than 200:1/);
		});

		it('refuses too many entries from the end record alone', async () => {
			const many: Record<string, Uint8Array> = {};
			for (let index = 0; index < 11; index++) many[`f${index}.txt`] = text('x');
			expect(await refusal(zipSync(many), smallLimits)).toMatch(/more than 10 entries \(11\)/);
		});

		it('refuses a huge declared size (total and per entry) before allocating it', async () => {
			const zip = rawZip([{ name: 'huge.bin', data: text('x'), declaredSize: 0xffff_fff0 }]);
			expect(await refusal(zip)).toMatch(/unpacks to more than 512 MB \(at entry "huge.bin"\)/);
			const perEntry = await refusal(zip, { ...exportZipLimits, maximumTotalBytes: 0xffff_ffff });
			expect(perEntry).toMatch(/entry "huge.bin" unpacks to 4096 MB; at most 128 MB per file/);
		});

		it('stops inflating an entry that lies about its size (smaller than it really is)', async () => {
			const zip = rawZip([
				{
					name: 'liar.bin',
					data: new Uint8Array(4 * 1024 * 1024),
					deflate: true,
					declaredSize: 1000
				}
			]);
			expect(await refusal(zip)).toMatch(
				/entry "liar.bin" unpacks to more than its declared 1000 bytes/
			);
		});

		it('refuses an entry that lies about its size (larger than it really is)', async () => {
			const zip = rawZip([
				{ name: 'short.bin', data: text('abc'), deflate: true, declaredSize: 10 }
			]);
			expect(await refusal(zip)).toMatch(
				/"short.bin" does not match its declared size and checksum/
			);
		});

		it('refuses deflated bytes that are not deflate data', async () => {
			const zip = rawZip([{ name: 'bad.bin', data: new Uint8Array(5000).fill(7), deflate: true }]);
			// Block type 11 (reserved) in the first deflate header: no inflater accepts it.
			zip[30 + 'bad.bin'.length] = 0xff;
			expect(await refusal(zip)).toMatch(/entry "bad.bin" cannot be inflated/);
		});

		it('refuses a stored entry whose content does not match its checksum', async () => {
			const zip = rawZip([{ name: 'a.txt', data: text('abc') }]);
			// Flip a content byte: the directory's CRC-32 no longer matches.
			const position = 30 + 'a.txt'.length;
			zip[position] = (zip[position] as number) ^ 1;
			expect(await refusal(zip)).toMatch(/"a.txt" does not match its declared size and checksum/);
		});
	});

	it('says so when the bytes are not a zip', async () => {
		expect(await refusal(text('<html>not a zip</html>'))).toMatch(/^not a zip file/);
	});
});

describe('the native inflater with its default threshold', () => {
	it('reads large entries natively and small ones with fflate, the same entries as readZip', async () => {
		// Bytes that do not compress: the packed entry stays above the 64 KB threshold.
		const noise = new Uint8Array(200_000);
		let state = 7;
		for (let index = 0; index < noise.length; index++) {
			state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
			noise[index] = state >>> 24;
		}
		const zip = zipSync({
			'big.bin': [noise, { level: 1 }],
			'small.txt': [text('small '.repeat(50)), { level: 1 }]
		});
		const hybrid = nativeInflate();
		if (!hybrid) throw new Error('no native inflater');
		expect(await readZipWith(zip, exportZipLimits, hybrid)).toEqual(readZip(zip));
	});
});
