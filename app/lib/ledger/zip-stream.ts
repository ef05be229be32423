import { Zip, ZipDeflate } from 'fflate';

/** 1980-01-01, the earliest date a zip can hold: no clock, reproducible bytes (as zipEntries). */
const fixedZipDate = new Date(1980, 0, 1, 12, 0, 0);
const pieceBytes = 1 << 20;

/**
 * Zips entries with fflate's streaming API (deflate level 1, entries in path order), feeding each
 * file in 1 MiB pieces and reporting bytes compressed of the total, so a Worker can show progress
 * and the output grows in chunks instead of one copy of everything at the end.
 */
export function zipStream(
	entries: ReadonlyMap<string, Uint8Array>,
	onProgress: (done: number, total: number) => void = () => undefined
): Uint8Array {
	const chunks: Uint8Array[] = [];
	let failure: Error | null = null;
	const zip = new Zip((error, chunk) => {
		if (error) failure = error;
		else chunks.push(chunk);
	});
	const paths = [...entries.keys()].sort();
	const total = paths.reduce((sum, path) => sum + (entries.get(path)?.length ?? 0), 0);
	let done = 0;
	for (const path of paths) {
		const content = entries.get(path) as Uint8Array;
		const file = new ZipDeflate(path, { level: 1 });
		file.mtime = fixedZipDate;
		zip.add(file);
		if (content.length === 0) file.push(new Uint8Array(0), true);
		for (let start = 0; start < content.length; start += pieceBytes) {
			const end = Math.min(content.length, start + pieceBytes);
			file.push(content.subarray(start, end), end === content.length);
			done += end - start;
			onProgress(done, total);
		}
	}
	zip.end();
	if (failure) throw failure;
	let length = 0;
	for (const chunk of chunks) length += chunk.length;
	const zipped = new Uint8Array(length);
	let offset = 0;
	for (const chunk of chunks) {
		zipped.set(chunk, offset);
		offset += chunk.length;
	}
	return zipped;
}
