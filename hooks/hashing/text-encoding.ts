/**
 * Bytes ↔ text for the files Threadline diffs and hashes. Binary files are reported, not decoded,
 * so they never produce line ranges or garbage diffs.
 */

import { isUint8Array } from './is-uint8-array.js';

export type DecodedText = { ok: true; text: string } | { ok: false; reason: 'binary' };

/** Git's heuristic: a NUL byte near the start means binary. */
const binaryProbeLength = 8 * 1024;

// ignoreBOM keeps a byte order mark in the text, so decode → encode gives back the same bytes.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const textEncoder = new TextEncoder();

export function decodeText(bytes: Uint8Array): DecodedText {
	if (!isUint8Array(bytes)) {
		throw new TypeError('decodeText expects a Uint8Array');
	}
	if (bytes.subarray(0, binaryProbeLength).includes(0)) return { ok: false, reason: 'binary' };
	try {
		return { ok: true, text: strictDecoder.decode(bytes) };
	} catch {
		return { ok: false, reason: 'binary' };
	}
}

export function encodeText(text: string): Uint8Array<ArrayBuffer> {
	return textEncoder.encode(text);
}

/**
 * Lines of `text` split on LF and CRLF (the CR is removed). A final newline ends the last line
 * rather than starting an empty one, so line numbers match what an editor shows.
 */
export function splitLines(text: string): string[] {
	if (text === '') return [];
	const lines = text.split(/\r?\n/);
	if (lines[lines.length - 1] === '') lines.pop();
	return lines;
}
