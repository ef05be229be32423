/**
 * How a jsonl line's UTF-8 bytes become its text. Both ways give the same string for every input;
 * they differ only in speed, which differs by platform:
 *
 * - `'text-decoder'`: every line through TextDecoder. Node's decoder (simdutf) is the fastest way
 *   there is, so the CLI asks for this one.
 * - `'ascii-char-codes'`: a line whose bytes are all ASCII (the usual ledger line: only a preview
 *   with an ellipsis or a non-English word is not) is made with String.fromCharCode, where a byte
 *   is its character code; any other line goes through TextDecoder. Chromium's TextDecoder
 *   measured about 80 MB/s in a Worker here, line by line or a megabyte at a time (785 ms for the
 *   bench's 65 MB audit.jsonl); this way verify in the browser took 2.07 s instead of 2.69 s
 *   (A/B, three runs each). In Node it is the slower way (1.4–1.9 s against 0.95 s).
 */
export type LineDecoding = 'text-decoder' | 'ascii-char-codes';

/**
 * Lines no longer than this are made from char codes in one call: the bytes are passed as the
 * call's arguments, and engines cap how many a call may take (JavaScriptCore at 65,536).
 */
const charCodeCallLimit = 8_192;

/**
 * The bytes' text when every byte is ASCII and there are few enough for one call (null
 * otherwise, for the caller's TextDecoder). ASCII bytes decode as UTF-8 to the character of the
 * same code, so this is exactly what a UTF-8 TextDecoder gives for them.
 */
export function asciiText(bytes: Uint8Array): string | null {
	const length = bytes.length;
	if (length > charCodeCallLimit) return null;
	for (let index = 0; index < length; index++) if (bytes[index]! >= 0x80) return null;
	return String.fromCharCode.apply(null, bytes as unknown as number[]);
}
