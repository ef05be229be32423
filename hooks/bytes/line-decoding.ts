/**
 * How a jsonl line's UTF-8 bytes become its text. Both ways give the same string for every input;
 * they differ only in speed, which differs by platform:
 *
 * - `'text-decoder'`: every line through TextDecoder. Node's decoder (simdutf) is the fastest way
 *   there is, so the CLI asks for this one.
 * - `'char-codes'`: in JavaScript. A line whose bytes are all ASCII (the usual ledger line) is made
 *   with String.fromCharCode, where a byte is its character code (`asciiText`); any other line (a
 *   preview with an ellipsis, a non-English word) by utf8-text.ts's decoder. Chromium's
 *   TextDecoder measured about 80 MB/s in a Worker here, line by line or a megabyte at a time
 *   (785 ms for the bench's 65 MB audit.jsonl), and about 18 µs a call: ASCII lines this way took
 *   browser verify from 2.69 s to 2.07 s (A/B, three runs each), and the 15k non-ASCII lines
 *   another 270 ms to a few tens. In Node it is the slower way (1.4–1.9 s against 0.95 s).
 */
export type LineDecoding = 'text-decoder' | 'char-codes';

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
	for (let index = 0; index < length; index++) if (bytes[index]! >= 0x80) return null;
	return String.fromCharCode.apply(null, bytes as unknown as number[]);
}
