import { concatenateBytes } from '../bytes/concatenate-bytes.js';

/**
 * jsonl lines (each without its newline) written as UTF-8, a newline after each, in blocks of a
 * fixed size. Exports are tens of megabytes: a buffer that doubles as it fills, then a copy of
 * the right size, touches three times the memory, and fresh memory is what costs (a new 28 MB
 * buffer took ~100 ms on the 2-core machine the bench runs on, before a byte was written).
 */

/** What one `encodeInto` call may need: three UTF-8 bytes per UTF-16 unit, and the newline. */
const mostBytes = (line: string) => line.length * 3 + 1;

/**
 * The encoded lines, one block at a time. The same block is refilled when the next is asked for,
 * so a caller that keeps the bytes copies them (fflate's streaming deflate does). A line longer
 * than a block comes on its own.
 */
export function* lineBlocks(
	lines: Iterable<string>,
	blockBytes = 1 << 16
): Generator<Uint8Array, void, undefined> {
	const encoder = new TextEncoder();
	const block = new Uint8Array(blockBytes);
	let length = 0;
	for (const line of lines) {
		if (length + mostBytes(line) > block.length) {
			if (length > 0) yield block.subarray(0, length);
			length = 0;
			if (mostBytes(line) > block.length) {
				yield encoder.encode(line + '\n');
				continue;
			}
		}
		length += encoder.encodeInto(line, block.subarray(length)).written;
		block[length++] = 10;
	}
	if (length > 0) yield block.subarray(0, length);
}

/** The encoded lines as one array, allocated once at its final size. */
export function linesToBytes(lines: Iterable<string>): Uint8Array {
	const blocks: Uint8Array[] = [];
	for (const block of lineBlocks(lines, 1 << 20)) blocks.push(block.slice());
	return concatenateBytes(blocks);
}
