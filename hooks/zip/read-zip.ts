import { Inflate } from 'fflate';
import { EntryPathSet, canonicalEntryPath } from '../paths/normalize-path.js';
import { crc32 } from './crc32.js';

/**
 * Reading an untrusted zip (an export handed to a grader, a scenario, an imported workspace) with
 * bounded time and memory, and with one meaning: every entry's name is canonical and unique, the
 * central directory agrees with the local headers, and no bytes hide between the entries it lists
 * (another unzip tool, reading the local headers, would extract the same files we checked).
 * Limits are checked on the declared sizes before anything is inflated, and inflating never
 * writes past the declared size (a lying size is caught by the length and CRC-32 checks).
 */
export interface ZipLimits {
	maximumEntries: number;
	/** Sum of every entry's unpacked size. */
	maximumTotalBytes: number;
	maximumEntryBytes: number;
	/** Unpacked ÷ packed size, checked for entries above `ratioCheckFromBytes`. */
	maximumRatio: number;
	ratioCheckFromBytes: number;
}

/** For exports and workspaces: far above a learner's session, far below a zip bomb. */
export const exportZipLimits: ZipLimits = {
	maximumEntries: 50_000,
	maximumTotalBytes: 512 * 1024 * 1024,
	maximumEntryBytes: 128 * 1024 * 1024,
	maximumRatio: 200,
	ratioCheckFromBytes: 1024 * 1024
};

export interface ZipEntry {
	/** Canonical workspace-style path (NFC, no trailing slash). */
	path: string;
	kind: 'file' | 'folder' | 'link';
	/** The file's bytes; for a link, its target as UTF-8; empty for a folder. */
	content: Uint8Array;
}

export class ZipReadError extends Error {
	constructor(
		message: string,
		/** True when the zip is well formed but over a limit (too big, too many entries). */
		readonly exceedsLimit = false
	) {
		super(message);
		this.name = 'ZipReadError';
	}
}

interface DirectoryRecord {
	name: string;
	nameBytes: Uint8Array;
	flags: number;
	method: number;
	crc: number;
	packedSize: number;
	unpackedSize: number;
	localOffset: number;
	madeByOs: number;
	externalAttributes: number;
}

const endOfDirectorySignature = 0x06054b50;
const directorySignature = 0x02014b50;
const localSignature = 0x04034b50;
const descriptorSignature = 0x08074b50;
const zip64LocatorSignature = 0x07064b50;
const unixOs = 3;
const symbolicLinkMode = 0o120000;
const fileTypeMask = 0o170000;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function planZip(
	bytes: Uint8Array,
	limits: ZipLimits
): { view: DataView; planned: PlannedEntry[] } {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const end = findEndOfDirectory(bytes, view);
	const disk = view.getUint16(end + 4, true);
	const directoryDisk = view.getUint16(end + 6, true);
	const count = view.getUint16(end + 10, true);
	const directorySize = view.getUint32(end + 12, true);
	const directoryOffset = view.getUint32(end + 16, true);
	if (disk !== 0 || directoryDisk !== 0 || view.getUint16(end + 8, true) !== count) {
		throw new ZipReadError('multi-part (spanned) zips are not accepted');
	}
	if (end >= 20 && view.getUint32(end - 20, true) === zip64LocatorSignature) {
		throw new ZipReadError('zip64 archives are not accepted (an export is far below 4 GB)');
	}
	if (count > limits.maximumEntries) {
		throw new ZipReadError(
			`the zip has more than ${limits.maximumEntries} entries (${count})`,
			true
		);
	}
	if (directoryOffset + directorySize !== end) {
		throw new ZipReadError('the zip directory is not where its end record says');
	}

	const records = readDirectory(bytes, view, directoryOffset, count, limits);
	checkCoverage(bytes, view, records, directoryOffset);

	const names = new EntryPathSet();
	const planned: PlannedEntry[] = [];
	for (const record of records) {
		const folder = record.name.endsWith('/');
		const name = folder ? record.name.slice(0, -1) : record.name;
		if (folder) {
			const canonical = canonicalEntryPath(name);
			if (!canonical.ok) throw new ZipReadError(`entry ${canonical.reason}`);
			if (record.unpackedSize !== 0) {
				throw new ZipReadError(`entry "${record.name}" is a folder with content`);
			}
			planned.push({ path: canonical.path, kind: 'folder', record: null });
			continue;
		}
		const added = names.add(name);
		if (!added.ok) throw new ZipReadError(added.reason);
		const link =
			record.madeByOs === unixOs &&
			((record.externalAttributes >>> 16) & fileTypeMask) === symbolicLinkMode;
		planned.push({ path: added.path, kind: link ? 'link' : 'file', record });
	}
	return { view, planned };
}

/** An entry that passed every check but its content's (size and CRC-32, once unpacked). */
interface PlannedEntry {
	path: string;
	kind: ZipEntry['kind'];
	/** Null for a folder. */
	record: DirectoryRecord | null;
}

/**
 * Inflates one entry's deflated bytes into at most `declaredSize` bytes, throwing a ZipReadError
 * when they are not deflate data or would unpack to more (readZipWith's `inflate`).
 */
export type BoundedInflate = (
	packed: Uint8Array,
	declaredSize: number,
	quotedName: string
) => Promise<Uint8Array>;

export function readZip(bytes: Uint8Array, limits: ZipLimits = exportZipLimits): ZipEntry[] {
	const { view, planned } = planZip(bytes, limits);
	return planned.map(({ path, kind, record }) => ({
		path,
		kind,
		content: record
			? checkedContent(record, unpack(bytes, view, record, inflateBounded))
			: new Uint8Array(0)
	}));
}

/**
 * readZip with deflated entries inflated by `inflate`, such as the platform's DecompressionStream
 * (native-inflate.ts): the same checks, the same entries, the same errors.
 */
export async function readZipWith(
	bytes: Uint8Array,
	limits: ZipLimits,
	inflate: BoundedInflate
): Promise<ZipEntry[]> {
	const { view, planned } = planZip(bytes, limits);
	const entries: ZipEntry[] = [];
	for (const { path, kind, record } of planned) {
		if (!record) {
			entries.push({ path, kind, content: new Uint8Array(0) });
			continue;
		}
		const content = unpack(bytes, view, record, inflate);
		entries.push({ path, kind, content: checkedContent(record, await content) });
	}
	return entries;
}

function findEndOfDirectory(bytes: Uint8Array, view: DataView): number {
	// The end record is 22 bytes plus a comment of at most 65,535.
	const lowest = Math.max(0, bytes.length - 22 - 0xffff);
	for (let offset = bytes.length - 22; offset >= lowest; offset--) {
		if (view.getUint32(offset, true) === endOfDirectorySignature) return offset;
	}
	throw new ZipReadError('not a zip file (no end-of-directory record)');
}

function readDirectory(
	bytes: Uint8Array,
	view: DataView,
	start: number,
	count: number,
	limits: ZipLimits
): DirectoryRecord[] {
	const records: DirectoryRecord[] = [];
	let offset = start;
	let total = 0;
	for (let index = 0; index < count; index++) {
		if (offset + 46 > bytes.length || view.getUint32(offset, true) !== directorySignature) {
			throw new ZipReadError(`the zip directory is damaged at entry ${index + 1}`);
		}
		const nameLength = view.getUint16(offset + 28, true);
		const extraLength = view.getUint16(offset + 30, true);
		const commentLength = view.getUint16(offset + 32, true);
		if (offset + 46 + nameLength > bytes.length) {
			throw new ZipReadError(`the zip directory is damaged at entry ${index + 1}`);
		}
		const nameBytes = bytes.subarray(offset + 46, offset + 46 + nameLength);
		const name = decodeName(nameBytes, index);
		const record: DirectoryRecord = {
			name,
			nameBytes,
			flags: view.getUint16(offset + 8, true),
			method: view.getUint16(offset + 10, true),
			crc: view.getUint32(offset + 16, true),
			packedSize: view.getUint32(offset + 20, true),
			unpackedSize: view.getUint32(offset + 24, true),
			madeByOs: view.getUint8(offset + 5),
			externalAttributes: view.getUint32(offset + 38, true),
			localOffset: view.getUint32(offset + 42, true)
		};
		const quotedName = JSON.stringify(name);
		if (record.flags & 1) throw new ZipReadError(`entry ${quotedName} is encrypted`);
		if (record.method !== 0 && record.method !== 8) {
			throw new ZipReadError(
				`entry ${quotedName} uses compression method ${record.method}; only stored and deflate are accepted`
			);
		}
		total += record.unpackedSize;
		if (total > limits.maximumTotalBytes) {
			throw new ZipReadError(
				`the zip unpacks to more than ${megabytes(limits.maximumTotalBytes)} (at entry ${quotedName})`,
				true
			);
		}
		if (record.unpackedSize > limits.maximumEntryBytes) {
			throw new ZipReadError(
				`entry ${quotedName} unpacks to ${megabytes(record.unpackedSize)}; at most ${megabytes(limits.maximumEntryBytes)} per file`,
				true
			);
		}
		if (
			record.unpackedSize >= limits.ratioCheckFromBytes &&
			record.unpackedSize > limits.maximumRatio * Math.max(record.packedSize, 1)
		) {
			throw new ZipReadError(
				`entry ${quotedName} is compressed more than ${limits.maximumRatio}:1 (${record.packedSize} bytes unpack to ${record.unpackedSize}); refusing a likely zip bomb`,
				true
			);
		}
		records.push(record);
		offset += 46 + nameLength + extraLength + commentLength;
	}
	return records;
}

/**
 * Local headers must carry the directory's names, and the entries must tile the file from its
 * start to the directory: a byte range the directory does not list is an entry we would not
 * check but a streaming unzip would extract.
 */
function checkCoverage(
	bytes: Uint8Array,
	view: DataView,
	records: readonly DirectoryRecord[],
	directoryOffset: number
): void {
	const sorted = [...records].sort((left, right) => left.localOffset - right.localOffset);
	let expected = 0;
	for (const record of sorted) {
		const quotedName = JSON.stringify(record.name);
		if (record.localOffset !== expected) {
			throw new ZipReadError(
				record.localOffset < expected
					? `entry ${quotedName} overlaps another entry`
					: `the zip holds bytes before entry ${quotedName} that its directory does not list`
			);
		}
		const offset = record.localOffset;
		if (offset + 30 > directoryOffset || view.getUint32(offset, true) !== localSignature) {
			throw new ZipReadError(`entry ${quotedName} has no local header where the directory says`);
		}
		const nameLength = view.getUint16(offset + 26, true);
		const extraLength = view.getUint16(offset + 28, true);
		const localName = bytes.subarray(offset + 30, offset + 30 + nameLength);
		if (!sameBytes(localName, record.nameBytes)) {
			throw new ZipReadError(
				`entry ${quotedName} has a different name in its local header; other unzip tools would extract another file`
			);
		}
		let dataEnd = offset + 30 + nameLength + extraLength + record.packedSize;
		if (record.flags & 8) {
			// A data descriptor follows the data: 12 bytes, or 16 with its optional signature.
			dataEnd +=
				dataEnd + 4 <= directoryOffset && view.getUint32(dataEnd, true) === descriptorSignature
					? 16
					: 12;
		}
		if (dataEnd > directoryOffset) {
			throw new ZipReadError(`entry ${quotedName} runs into the zip directory`);
		}
		expected = dataEnd;
	}
	if (expected !== directoryOffset) {
		throw new ZipReadError(
			'the zip holds bytes after its last entry that its directory does not list'
		);
	}
}

/**
 * One entry's bytes: stored ones as they are, deflated ones through `inflate` (its result is
 * what it returns: a Uint8Array for the synchronous inflater, a promise for readZipWith's).
 */
function unpack<Result>(
	bytes: Uint8Array,
	view: DataView,
	record: DirectoryRecord,
	inflate: (packed: Uint8Array, declaredSize: number, quotedName: string) => Result
): Result | Uint8Array {
	const offset = record.localOffset;
	const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
	const packed = bytes.subarray(start, start + record.packedSize);
	const quotedName = JSON.stringify(record.name);
	if (record.method === 0) {
		if (record.packedSize !== record.unpackedSize) {
			throw new ZipReadError(`entry ${quotedName} is stored with two different sizes`);
		}
		return packed.slice();
	}
	return inflate(packed, record.unpackedSize, quotedName);
}

/** The unpacked bytes, if they are the declared size with the declared CRC-32. */
function checkedContent(record: DirectoryRecord, content: Uint8Array): Uint8Array {
	if (content.length !== record.unpackedSize || crc32(content) !== record.crc) {
		throw new ZipReadError(
			`entry ${JSON.stringify(record.name)} does not match its declared size and checksum (a lying header?)`
		);
	}
	return content;
}

/** Deflate expands at most ~1032:1, so an input step bounds what one step can produce. */
const maximumDeflateRatio = 1032;
const largestInflateStep = 64 * 1024;
/**
 * Never smaller than 16 KiB: fflate's streaming Inflate copies its 32 KiB window and regrows its
 * output on every push, so steps of a few hundred bytes made reading an export 5–18× slower than
 * inflating it at once (80 ms vs 4 ms for a 1k-event export). The price is a bounded overshoot:
 * one step can produce at most ~16.5 MB past what was declared before it is refused.
 */
const smallestInflateStep = 16 * 1024;

/**
 * How many packed bytes to inflate next when `remaining` unpacked bytes are still declared: few
 * enough that one step cannot produce much more than that (see smallestInflateStep).
 */
export function inflateStep(remaining: number): number {
	return Math.min(
		largestInflateStep,
		Math.max(smallestInflateStep, Math.ceil((remaining + 1) / maximumDeflateRatio))
	);
}

/**
 * Inflates into a buffer of the declared size and stops as soon as the data would run past it,
 * so an entry that lies about its size costs about as much time and memory as an honest one: each
 * input step is small enough that it cannot produce much more than what is still declared (or
 * than one smallest step's worth, see smallestInflateStep).
 */
export function inflateBounded(
	packed: Uint8Array,
	declaredSize: number,
	quotedName: string
): Uint8Array {
	const output = new Uint8Array(declaredSize);
	let written = 0;
	let overflow = false;
	const inflater = new Inflate((chunk) => {
		if (overflow) return;
		if (written + chunk.length > declaredSize) {
			overflow = true;
			return;
		}
		output.set(chunk, written);
		written += chunk.length;
	});
	try {
		let offset = 0;
		while (offset < packed.length && !overflow) {
			const next = offset + inflateStep(declaredSize - written);
			inflater.push(packed.subarray(offset, next), next >= packed.length);
			offset = next;
		}
	} catch (error) {
		throw new ZipReadError(
			`entry ${quotedName} cannot be inflated (${error instanceof Error ? error.message : String(error)})`
		);
	}
	if (overflow) {
		throw new ZipReadError(
			`entry ${quotedName} unpacks to more than its declared ${declaredSize} bytes (a lying header?)`
		);
	}
	return written === declaredSize ? output : output.subarray(0, written);
}

function decodeName(nameBytes: Uint8Array, index: number): string {
	try {
		return strictUtf8.decode(nameBytes);
	} catch {
		throw new ZipReadError(`entry ${index + 1} has a name that is not UTF-8`);
	}
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
	if (left.length !== right.length) return false;
	for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
	return true;
}

function megabytes(bytes: number): string {
	return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
