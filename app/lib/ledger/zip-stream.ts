import { Deflate, deflateSync, Zip, type ZipInputFile } from 'fflate';
import { lineBlocks } from '../../../hooks/ledger/line-blocks.js';
import { crc32 } from '../../../hooks/zip/crc32.js';
import {
	deflateNatively,
	hasNativeDeflate,
	type DeflatedEntry
} from '../../../hooks/zip/native-deflate.js';
import { exportZipLimits } from '../../../hooks/zip/read-zip.js';
import { concatenateBytes } from '../../../hooks/bytes/concatenate-bytes.js';

/** 1980-01-01, the earliest date a zip can hold: no clock, reproducible bytes (as zipEntries). */
const fixedZipDate = new Date(1980, 0, 1, 12, 0, 0);

/**
 * What is fed to a deflater at a time. Small enough that fflate's window buffer never grows and
 * that every buffer on the way is reused memory, not fresh pages (see line-blocks.ts).
 */
const pieceBytes = 1 << 16;

/** Entries smaller than this go to fflate: a native stream per small file costs more than it saves. */
const smallestNativeEntry = 1 << 16;

/** A file given as its lines (each without its newline): encoded and compressed a block at a time. */
export interface ZipLines {
	kind: 'lines';
	/** The lines; called again when the entry has to be written a second time (stored, not packed). */
	lines: () => Iterable<string>;
	/** How many lines there are, for progress. */
	count: number;
}

export type ZipContent = Uint8Array | ZipLines;

export interface ZipStreamOptions {
	onProgress?: (done: number, total: number) => void;
	/** Large entries through the platform's CompressionStream when it has one (default true). */
	native?: boolean;
}

/**
 * Zips entries in path order. The same entries give the same bytes on the same engine (the
 * platform's zlib may pack differently from one browser to another; nothing depends on the
 * packed bytes). Large entries are deflated by the platform's zlib (CompressionStream) where
 * there is one, the rest by fflate at level 1; an entry that would pack tighter than the strict
 * zip reader accepts (exportZipLimits: a 2 MB log of one repeated line packs 289:1) is written
 * in deflate's stored blocks instead, so every export this writes reads back in `threadline verify`, /grade and Import.
 * Files given as lines are encoded into one reused block and fed as it fills, so a 40 MB jsonl
 * file is never held whole, neither as text nor as bytes. `onProgress` hears steps done of the
 * total: a step per byte of a file given as bytes and per line of a file given as lines.
 */
export async function zipStream(
	entries: ReadonlyMap<string, ZipContent>,
	{ onProgress = () => undefined, native = true }: ZipStreamOptions = {}
): Promise<Uint8Array> {
	const chunks: Uint8Array[] = [];
	let failure: Error | null = null;
	const zip = new Zip((error, chunk) => {
		if (error) failure = error;
		// A chunk may be a view into a larger buffer: keep only its bytes.
		else chunks.push(chunk.byteLength === chunk.buffer.byteLength ? chunk : chunk.slice());
	});
	const nativeDeflate = native && hasNativeDeflate();
	const paths = [...entries.keys()].sort();
	let total = 0;
	for (const path of paths) total += stepsOf(entries.get(path) as ZipContent);
	let done = 0;
	const progress = (steps: number) => onProgress((done += steps), total);
	const isLarge = (content: ZipContent) =>
		!(content instanceof Uint8Array) || content.length >= smallestNativeEntry;
	// The large entries are deflated at once: in Node zlib runs on the thread pool, so the audit
	// and the trace are compressed side by side while the page's thread writes their lines.
	const deflating = new Map<string, Promise<DeflatedEntry>>();
	if (nativeDeflate) {
		for (const path of paths) {
			const content = entries.get(path) as ZipContent;
			if (!isLarge(content)) continue;
			const deflated = deflateNativelyOrWithFflate(content, progress);
			// Awaited below, in path order; a failure meanwhile is not an unhandled rejection.
			deflated.catch(() => undefined);
			deflating.set(path, deflated);
		}
	}
	for (const path of paths) {
		const content = entries.get(path) as ZipContent;
		const deflated = (await deflating.get(path)) ?? deflateWithFflate(content, progress);
		const file: ZipInputFile = {
			filename: path,
			size: 0,
			crc: 0,
			compression: 8,
			mtime: fixedZipDate
		};
		const packedSize = deflated.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
		// Deflate's stored blocks (level 0), not the zip's stored method: fflate writes a data
		// descriptor after every entry, which streaming readers (Java's) accept only after deflate.
		const written = tooTightForTheReader(deflated.size, packedSize)
			? deflateWithFflate(content, () => undefined, 0)
			: deflated;
		if (written.size !== deflated.size || written.crc !== deflated.crc) {
			throw new Error(`${path} changed while it was written into the zip`);
		}
		zip.add(file);
		for (const chunk of written.chunks) file.ondata?.(null, chunk, false);
		file.size = deflated.size;
		file.crc = deflated.crc;
		file.ondata?.(null, new Uint8Array(0), true);
		if (failure) throw failure;
	}
	zip.end();
	if (failure) throw failure;
	return concatenateBytes(chunks);
}

/** The strict reader refuses entries of 1 MiB or more that unpack more than 200× (a zip bomb). */
function tooTightForTheReader(size: number, packedSize: number): boolean {
	return (
		size >= exportZipLimits.ratioCheckFromBytes &&
		size > exportZipLimits.maximumRatio * Math.max(packedSize, 1)
	);
}

/**
 * The platform's zlib; should it fail for a reason of its own (not an error thrown while the
 * content was read, such as a key found in a line), fflate deflates the entry instead.
 */
async function deflateNativelyOrWithFflate(
	content: ZipContent,
	progress: (steps: number) => void
): Promise<DeflatedEntry> {
	let sourceFailed = false;
	function* watched(pieces: Iterable<Uint8Array>): Iterable<Uint8Array> {
		try {
			yield* pieces;
		} catch (error) {
			sourceFailed = true;
			throw error;
		}
	}
	let reported = 0;
	try {
		return await deflateNatively(
			watched(
				piecesOf(content, (steps) => {
					reported += steps;
					progress(steps);
				})
			)
		);
	} catch (error) {
		if (sourceFailed) throw error;
		// The second pass goes over steps already reported: only what goes beyond them is new.
		let repeated = reported;
		return deflateWithFflate(content, (steps) => {
			const fresh = Math.max(0, steps - repeated);
			repeated = Math.max(0, repeated - steps);
			if (fresh > 0) progress(fresh);
		});
	}
}

/** fflate's deflate of the content (level 1, or 0: stored blocks), with its CRC-32 and length. */
function deflateWithFflate(
	content: ZipContent,
	progress: (steps: number) => void,
	level: 0 | 1 = 1
): DeflatedEntry {
	if (content instanceof Uint8Array) {
		// One call, its buffers sized to the file: a streaming deflater allocates 96 KiB each.
		const packed = deflateSync(content, { level }) as Uint8Array<ArrayBuffer>;
		progress(content.length);
		return { chunks: [packed], crc: crc32(content), size: content.length };
	}
	const pieces = piecesOf(content, progress);
	const chunks: Uint8Array<ArrayBuffer>[] = [];
	const deflater = new Deflate({ level }, (chunk) =>
		// fflate hands out views into a buffer as large as its window: keep only the bytes.
		chunks.push(chunk.slice() as Uint8Array<ArrayBuffer>)
	);
	let crc = 0;
	let size = 0;
	for (const piece of pieces) {
		crc = crc32(piece, crc);
		size += piece.length;
		deflater.push(piece);
	}
	deflater.push(new Uint8Array(0), true);
	return { chunks, crc, size };
}

function piecesOf(
	content: ZipContent,
	progress: (steps: number) => void = () => undefined
): Iterable<Uint8Array> {
	return content instanceof Uint8Array
		? bytePieces(content, progress)
		: lineBlocks(counted(content.lines(), progress), pieceBytes);
}

function stepsOf(content: ZipContent): number {
	return content instanceof Uint8Array ? content.length : content.count;
}

function* bytePieces(bytes: Uint8Array, onPiece: (steps: number) => void): Iterable<Uint8Array> {
	for (let start = 0; start < bytes.length; start += pieceBytes) {
		const piece = bytes.subarray(start, Math.min(bytes.length, start + pieceBytes));
		yield piece;
		onPiece(piece.length);
	}
}

/** The lines, reporting them a thousand at a time. */
function* counted(lines: Iterable<string>, onLines: (steps: number) => void): Iterable<string> {
	let count = 0;
	for (const line of lines) {
		yield line;
		if (++count % 1_000 === 0) onLines(1_000);
	}
	onLines(count % 1_000);
}
