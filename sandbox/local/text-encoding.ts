/**
 * The few Node-style buffer encodings just-bash passes to a filesystem, without Node's Buffer
 * (the local sandbox also runs in the browser). 'binary'/'latin1' strings carry one byte per char.
 */
export type ShellBufferEncoding =
	'utf8' | 'utf-8' | 'ascii' | 'binary' | 'base64' | 'hex' | 'latin1';

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** The encoding named by a just-bash options argument (a string or `{ encoding }`). */
export function encodingFromOptions(options: unknown): ShellBufferEncoding | undefined {
	if (typeof options === 'string') return options as ShellBufferEncoding;
	if (typeof options === 'object' && options !== null) {
		const encoding = (options as { encoding?: unknown }).encoding;
		if (typeof encoding === 'string') return encoding as ShellBufferEncoding;
	}
	return undefined;
}

export function encodeContent(
	content: string | Uint8Array,
	encoding: ShellBufferEncoding | undefined
): Uint8Array {
	if (content instanceof Uint8Array) return content;
	switch (encoding) {
		case 'binary':
		case 'latin1':
		case 'ascii': {
			const bytes = new Uint8Array(content.length);
			for (let index = 0; index < content.length; index += 1) {
				bytes[index] = content.charCodeAt(index) & 0xff;
			}
			return bytes;
		}
		case 'base64':
			return latin1ToBytes(atob(content.replace(/[^A-Za-z0-9+/=]/g, '')));
		case 'hex': {
			const pairs = content.match(/[0-9a-fA-F]{2}/g) ?? [];
			return Uint8Array.from(pairs, (pair) => Number.parseInt(pair, 16));
		}
		default:
			return utf8Encoder.encode(content);
	}
}

export function decodeBytes(bytes: Uint8Array, encoding: ShellBufferEncoding | undefined): string {
	switch (encoding) {
		case 'binary':
		case 'latin1':
			return bytesToLatin1(bytes);
		case 'ascii': {
			let text = '';
			for (const byte of bytes) text += String.fromCharCode(byte & 0x7f);
			return text;
		}
		case 'base64':
			return btoa(bytesToLatin1(bytes));
		case 'hex':
			return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
		default:
			return utf8Decoder.decode(bytes);
	}
}

function latin1ToBytes(text: string): Uint8Array {
	return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

function bytesToLatin1(bytes: Uint8Array): string {
	let text = '';
	// Chunked so very large files do not overflow the argument limit of fromCharCode.
	const chunkSize = 0x8000;
	for (let start = 0; start < bytes.length; start += chunkSize) {
		text += String.fromCharCode(...bytes.subarray(start, start + chunkSize));
	}
	return text;
}
