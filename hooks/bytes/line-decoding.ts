/**
 * How a jsonl line's UTF-8 bytes become its text. Both ways give the same string for every input;
 * they differ only in speed, which differs by platform:
 *
 * - `'text-decoder'`: every line through a UTF-8 TextDecoder. Node's decoder (simdutf) is the
 *   fastest way there is, so the CLI asks for this one.
 * - `'ascii-chunks'`: a line whose bytes are all ASCII (the usual ledger line) is a slice of its
 *   chunk's one-byte text (AsciiChunk), made by one windows-1252 decode of the whole chunk, where
 *   an ASCII byte is the character of its code; any other line (a preview with an ellipsis, a
 *   non-English word) goes through utf8-text.ts's decoder. In a Chromium Worker, measured over the
 *   bench's 65 MB audit.jsonl: UTF-8 TextDecoder a megabyte at a time 218 ms (and about 18 µs a
 *   call line by line), String.fromCharCode line by line 440 ms, windows-1252 a megabyte at a time
 *   130 ms. In Node the UTF-8 TextDecoder line by line is faster still.
 */
export type LineDecoding = 'text-decoder' | 'ascii-chunks';

/** windows-1252 decodes bytes 0–0x7F to the same characters as UTF-8, in one-byte strings. */
const singleByteDecoder = new TextDecoder('windows-1252');

/**
 * A chunk of bytes whose ASCII lines are slices of one text: the chunk decoded once (on the first
 * ASCII line asked for) instead of line by line. A slice shares the chunk's text, so lines cost
 * no copy; the chunk's text lives as long as any of its lines.
 */
export class AsciiChunk {
	readonly #bytes: Uint8Array;
	#text: string | null = null;
	/**
	 * The first byte ≥ 0x80 at or after #scannedFrom (bytes.length when none): lines are asked for
	 * in order, so one scan answers for every line before that byte.
	 */
	#nonAscii = -1;
	#scannedFrom = 0;

	constructor(bytes: Uint8Array) {
		this.#bytes = bytes;
	}

	/** The text of bytes `[start, end)` when they are all ASCII; null otherwise. */
	text(start: number, end: number): string | null {
		if (this.#nonAscii < start || start < this.#scannedFrom) {
			this.#nonAscii = firstNonAscii(this.#bytes, start);
			this.#scannedFrom = start;
		}
		if (this.#nonAscii < end) return null;
		this.#text ??= singleByteDecoder.decode(this.#bytes);
		return this.#text.slice(start, end);
	}
}

/** The index of the first byte ≥ 0x80 at or after `from`, or the length when there is none. */
export function firstNonAscii(bytes: Uint8Array, from: number): number {
	const length = bytes.length;
	let index = from;
	// Byte by byte up to a four-byte boundary of the buffer, then a word at a time (a quarter of
	// the loop's turns), then byte by byte again inside the word that has one and after the last.
	while (index < length && ((bytes.byteOffset + index) & 3) !== 0) {
		if ((bytes[index] as number) >= 0x80) return index;
		index++;
	}
	const wordCount = (length - index) >> 2;
	if (wordCount > 0) {
		const words = new Int32Array(bytes.buffer, bytes.byteOffset + index, wordCount);
		let word = 0;
		while (word < wordCount && ((words[word] as number) & 0x80808080) === 0) word++;
		index += word * 4;
	}
	while (index < length && (bytes[index] as number) < 0x80) index++;
	return index;
}

/**
 * Lines no longer than this are made from char codes in one call: the bytes are passed as the
 * call's arguments, and engines cap how many a call may take (JavaScriptCore at 65,536).
 */
const charCodeCallLimit = 8_192;

/**
 * The bytes' text when every byte is ASCII and there are few enough for one call (null
 * otherwise, for the caller's UTF-8 decoder). ASCII bytes decode as UTF-8 to the character of the
 * same code, so this is exactly what a UTF-8 TextDecoder gives for them.
 */
export function asciiText(bytes: Uint8Array): string | null {
	const length = bytes.length;
	if (length > charCodeCallLimit) return null;
	if (firstNonAscii(bytes, 0) < length) return null;
	return String.fromCharCode.apply(null, bytes as unknown as number[]);
}
