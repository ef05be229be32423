/**
 * How a scenario file travels inside a JSON bundle: text as UTF-8 (readable, diffable), anything
 * else as base64 so the bytes arrive exactly as the instructor shipped them.
 */
export interface ScenarioFile {
	encoding: 'utf8' | 'base64';
	content: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();
/** btoa takes a "binary string"; converting in slices keeps the argument list of fromCharCode small. */
const conversionSlice = 0x8000;

/** Text is valid UTF-8 without NUL bytes (a NUL means a binary format, whatever else decodes). */
export function encodeScenarioFile(bytes: Uint8Array): ScenarioFile {
	if (!bytes.includes(0)) {
		try {
			return { encoding: 'utf8', content: strictUtf8.decode(bytes) };
		} catch {
			// Not UTF-8: fall through to base64.
		}
	}
	return { encoding: 'base64', content: bytesToBase64(bytes) };
}

export function decodeScenarioFile(file: ScenarioFile): Uint8Array {
	return file.encoding === 'utf8' ? encoder.encode(file.content) : base64ToBytes(file.content);
}

/** The text of a file if it is text, else null (a binary intents file is no intents file). */
export function scenarioFileText(file: ScenarioFile): string | null {
	if (file.encoding === 'utf8') return file.content;
	try {
		const bytes = base64ToBytes(file.content);
		return bytes.includes(0) ? null : strictUtf8.decode(bytes);
	} catch {
		return null;
	}
}

/** A plain loop: a regular expression over a 20 MB string can overflow the stack. */
export function isValidBase64(text: string): boolean {
	if (text.length % 4 !== 0) return false;
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	for (let index = 0; index < text.length - padding; index++) {
		if (!isBase64Character(text.charCodeAt(index))) return false;
	}
	return true;
}

function isBase64Character(code: number): boolean {
	return (
		(code >= 0x41 && code <= 0x5a) || // A-Z
		(code >= 0x61 && code <= 0x7a) || // a-z
		(code >= 0x30 && code <= 0x39) || // 0-9
		code === 0x2b || // +
		code === 0x2f // /
	);
}

/** The decoded size, without decoding: what the size limits count. */
export function scenarioFileByteLength(file: ScenarioFile): number {
	if (file.encoding === 'base64') {
		const padding = file.content.endsWith('==') ? 2 : file.content.endsWith('=') ? 1 : 0;
		return (file.content.length / 4) * 3 - padding;
	}
	return utf8ByteLength(file.content);
}

function utf8ByteLength(text: string): number {
	let length = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x80) length += 1;
		else if (code < 0x800) length += 2;
		else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
			const next = text.charCodeAt(index + 1);
			if (next >= 0xdc00 && next <= 0xdfff) {
				length += 4;
				index++;
			} else length += 3;
		} else length += 3;
	}
	return length;
}

export function bytesToBase64(bytes: Uint8Array): string {
	let binary = '';
	for (let start = 0; start < bytes.length; start += conversionSlice) {
		binary += String.fromCharCode(...bytes.subarray(start, start + conversionSlice));
	}
	return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array {
	if (!isValidBase64(text)) throw new Error('not valid base64');
	const binary = atob(text);
	const bytes = new Uint8Array(binary.length);
	for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
	return bytes;
}
