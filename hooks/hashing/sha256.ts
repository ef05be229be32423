/**
 * SHA-256 through Web Crypto, so the same code hashes in a browser, a Worker and Node (>= 20).
 * Every hash Threadline writes (ranges, files, the ledger chain) goes through here.
 */

import { isUint8Array } from './is-uint8-array.js';

const textEncoder = new TextEncoder();

function subtleCrypto(): SubtleCrypto {
	const subtle = globalThis.crypto?.subtle;
	if (!subtle) {
		// Browsers hide crypto.subtle outside secure contexts: say so instead of a TypeError.
		throw new Error(
			'sha256 needs globalThis.crypto.subtle, which browsers only provide in a secure context ' +
				'(https or localhost)'
		);
	}
	return subtle;
}

function toDigestInput(data: string | Uint8Array): Uint8Array<ArrayBuffer> {
	if (typeof data === 'string') return textEncoder.encode(data);
	if (!isUint8Array(data)) {
		throw new TypeError(`sha256 expects a string or a Uint8Array, got ${describe(data)}`);
	}
	// Web Crypto refuses views over a SharedArrayBuffer; copy those into a plain buffer.
	if (data.buffer instanceof ArrayBuffer) return data as Uint8Array<ArrayBuffer>;
	return new Uint8Array(data);
}

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (typeof value === 'object') return value.constructor?.name ?? 'object';
	return typeof value;
}

function toHex(bytes: Uint8Array): string {
	let hex = '';
	for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
	return hex;
}

/** Lowercase hex SHA-256 of `data`; strings are hashed as UTF-8. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
	const digest = await subtleCrypto().digest('SHA-256', toDigestInput(data));
	return toHex(new Uint8Array(digest));
}

/**
 * Computes `sha256:<hex>` of UTF-8 text or bytes. Web Crypto's `contentHash` is the default
 * everywhere; a caller with a faster synchronous hash (Node's `node:crypto` in the CLI) may pass
 * its own to bulk work such as verifying 100k ledger lines — hooks/ cannot import Node itself.
 */
export type ContentHasher = (data: string | Uint8Array) => string | Promise<string>;

/** `sha256:<64 lowercase hex>`, the form Agent Trace uses for `content_hash`. */
export async function contentHash(data: string | Uint8Array): Promise<string> {
	return `sha256:${await sha256Hex(data)}`;
}

/**
 * Hash of lines joined with LF. A trailing CR is dropped from each line so a CRLF file and its LF
 * twin get the same hash, as the trace contract promises ("hash of those lines with LF endings").
 */
export async function hashLines(lines: readonly string[]): Promise<string> {
	if (!Array.isArray(lines)) {
		throw new TypeError(`hashLines expects an array of lines, got ${describe(lines)}`);
	}
	const normalized = lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
	return contentHash(normalized.join('\n'));
}
