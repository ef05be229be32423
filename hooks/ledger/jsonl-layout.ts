import { firstNonAscii } from '../bytes/line-decoding.js';

/**
 * How an exported jsonl file is laid out, read from its bytes in one pass without decoding them:
 * whether they are valid UTF-8 (as a fatal TextDecoder would judge: no overlong forms, no
 * surrogates, nothing above U+10FFFF, no cut sequence) and whether every line holds text (no blank
 * line, at most one final line break; `\r\n` counts as a line break, as in readJsonl).
 *
 * Verify used to decode a 65 MB audit.jsonl again, re-split and re-parse it, join its lines and
 * compare strings to learn the same two facts; this answers them in about a tenth of the time.
 */
export type JsonlLayout = 'ok' | 'invalid-utf8' | 'blank-lines';

const lineFeed = 0x0a;
const carriageReturn = 0x0d;

export function jsonlLayout(bytes: Uint8Array): JsonlLayout {
	if (!isUtf8(bytes)) return 'invalid-utf8';
	return hasBlankLines(bytes) ? 'blank-lines' : 'ok';
}

function isUtf8(bytes: Uint8Array): boolean {
	const length = bytes.length;
	let index = 0;
	while (index < length) {
		// ASCII runs a word at a time: nearly every byte of an export.
		index = firstNonAscii(bytes, index);
		if (index >= length) return true;
		const width = sequenceWidth(bytes, index, length);
		if (width === 0) return false;
		index += width;
	}
	return true;
}

/** Jumps from line break to line break (native `indexOf`), looking for an empty line. */
function hasBlankLines(bytes: Uint8Array): boolean {
	// A BOM at the very start is not text (a decoder drops it): the first line begins after it.
	let lineStart = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
	let firstLine = true;
	for (
		let newline = bytes.indexOf(lineFeed);
		newline >= 0;
		newline = bytes.indexOf(lineFeed, lineStart)
	) {
		const end =
			newline > lineStart && bytes[newline - 1] === carriageReturn ? newline - 1 : newline;
		// An empty line is blank, but for a file that is one line break and nothing else.
		if (end === lineStart && !(firstLine && newline === bytes.length - 1)) return true;
		firstLine = false;
		lineStart = newline + 1;
	}
	return false;
}

/** The length of the valid UTF-8 sequence starting at `index` (a non-ASCII lead), 0 if invalid. */
function sequenceWidth(bytes: Uint8Array, index: number, length: number): number {
	const lead = bytes[index] as number;
	const continuation = (offset: number, low = 0x80, high = 0xbf): boolean => {
		if (index + offset >= length) return false;
		const byte = bytes[index + offset] as number;
		return byte >= low && byte <= high;
	};
	if (lead >= 0xc2 && lead <= 0xdf) return continuation(1) ? 2 : 0;
	if (lead === 0xe0) return continuation(1, 0xa0) && continuation(2) ? 3 : 0;
	if (lead === 0xed) return continuation(1, 0x80, 0x9f) && continuation(2) ? 3 : 0;
	if (lead >= 0xe1 && lead <= 0xef) return continuation(1) && continuation(2) ? 3 : 0;
	if (lead === 0xf0) return continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0;
	if (lead >= 0xf1 && lead <= 0xf3)
		return continuation(1) && continuation(2) && continuation(3) ? 4 : 0;
	if (lead === 0xf4)
		return continuation(1, 0x80, 0x8f) && continuation(2) && continuation(3) ? 4 : 0;
	return 0;
}
