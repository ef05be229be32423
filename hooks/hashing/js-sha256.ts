/**
 * A synchronous SHA-256 in plain JavaScript, for hashing many small ledger lines in a browser.
 * Measured in Chromium against hash-wasm: the wasm hasher's per-call cost (a fresh
 * TextEncoder.encode array, a copy into wasm memory, the call boundary) dominates for lines of
 * a few hundred bytes. Here a string is UTF-8-encoded straight into one reused block buffer and
 * the rounds run on a reused Int32Array, so a line allocates nothing but its hex result.
 * Checked against node:crypto on random and edge-case inputs in js-sha256.test.ts.
 */

const roundConstants = new Int32Array([
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
]);

const initialState = [
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
];

const state = new Int32Array(8);
const schedule = new Int32Array(64);
/** One 64-byte block being filled, plus room for a 4-byte UTF-8 sequence that crosses its end. */
const block = new Uint8Array(68);
let blockLength = 0;
let totalBytes = 0;
const hexDigits = '0123456789abcdef';

function compress(): void {
	for (let index = 0; index < 16; index++) {
		const at = index * 4;
		schedule[index] =
			(block[at]! << 24) | (block[at + 1]! << 16) | (block[at + 2]! << 8) | block[at + 3]!;
	}
	for (let index = 16; index < 64; index++) {
		const before15 = schedule[index - 15]!;
		const before2 = schedule[index - 2]!;
		const sigma0 =
			((before15 >>> 7) | (before15 << 25)) ^
			((before15 >>> 18) | (before15 << 14)) ^
			(before15 >>> 3);
		const sigma1 =
			((before2 >>> 17) | (before2 << 15)) ^
			((before2 >>> 19) | (before2 << 13)) ^
			(before2 >>> 10);
		schedule[index] = (schedule[index - 16]! + sigma0 + schedule[index - 7]! + sigma1) | 0;
	}
	let a = state[0]!;
	let b = state[1]!;
	let c = state[2]!;
	let d = state[3]!;
	let e = state[4]!;
	let f = state[5]!;
	let g = state[6]!;
	let h = state[7]!;
	for (let index = 0; index < 64; index++) {
		const sum1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
		const choose = (e & f) ^ (~e & g);
		const temporary1 = (h + sum1 + choose + roundConstants[index]! + schedule[index]!) | 0;
		const sum0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
		const majority = (a & b) ^ (a & c) ^ (b & c);
		const temporary2 = (sum0 + majority) | 0;
		h = g;
		g = f;
		f = e;
		e = (d + temporary1) | 0;
		d = c;
		c = b;
		b = a;
		a = (temporary1 + temporary2) | 0;
	}
	state[0] = (state[0]! + a) | 0;
	state[1] = (state[1]! + b) | 0;
	state[2] = (state[2]! + c) | 0;
	state[3] = (state[3]! + d) | 0;
	state[4] = (state[4]! + e) | 0;
	state[5] = (state[5]! + f) | 0;
	state[6] = (state[6]! + g) | 0;
	state[7] = (state[7]! + h) | 0;
}

function pushByte(byte: number): void {
	block[blockLength++] = byte;
	if (blockLength === 64) {
		compress();
		blockLength = 0;
		totalBytes += 64;
	}
}

/** Encodes the string as UTF-8 (lone surrogates as U+FFFD, as TextEncoder does) into the blocks. */
function updateString(text: string): void {
	const length = text.length;
	for (let index = 0; index < length; index++) {
		let code = text.charCodeAt(index);
		if (code < 0x80) {
			block[blockLength++] = code;
			if (blockLength === 64) {
				compress();
				blockLength = 0;
				totalBytes += 64;
			}
			continue;
		}
		if (code < 0x800) {
			pushByte(0xc0 | (code >> 6));
			pushByte(0x80 | (code & 0x3f));
			continue;
		}
		if (code >= 0xd800 && code <= 0xdfff) {
			const next = index + 1 < length ? text.charCodeAt(index + 1) : 0;
			if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
				code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
				index++;
				pushByte(0xf0 | (code >> 18));
				pushByte(0x80 | ((code >> 12) & 0x3f));
				pushByte(0x80 | ((code >> 6) & 0x3f));
				pushByte(0x80 | (code & 0x3f));
				continue;
			}
			code = 0xfffd;
		}
		pushByte(0xe0 | (code >> 12));
		pushByte(0x80 | ((code >> 6) & 0x3f));
		pushByte(0x80 | (code & 0x3f));
	}
}

function updateBytes(bytes: Uint8Array): void {
	for (let index = 0; index < bytes.length; index++) pushByte(bytes[index]!);
}

function finish(): string {
	const messageBits = (totalBytes + blockLength) * 8;
	pushByte(0x80);
	while (blockLength !== 56) pushByte(0);
	// The length in bits as a 64-bit big-endian number (2^53 bits is far beyond any input here).
	const high = Math.floor(messageBits / 0x100000000);
	const low = messageBits >>> 0;
	pushByte((high >>> 24) & 0xff);
	pushByte((high >>> 16) & 0xff);
	pushByte((high >>> 8) & 0xff);
	pushByte(high & 0xff);
	pushByte((low >>> 24) & 0xff);
	pushByte((low >>> 16) & 0xff);
	pushByte((low >>> 8) & 0xff);
	pushByte(low & 0xff);
	let hex = '';
	for (let index = 0; index < 8; index++) {
		const word = state[index]!;
		for (let shift = 28; shift >= 0; shift -= 4) hex += hexDigits[(word >>> shift) & 0xf];
	}
	return hex;
}

/** SHA-256 of the string's UTF-8 bytes, or of the bytes, as 64 lowercase hex digits. */
export function jsSha256Hex(data: string | Uint8Array): string {
	state.set(initialState);
	blockLength = 0;
	totalBytes = 0;
	if (typeof data === 'string') updateString(data);
	else updateBytes(data);
	return finish();
}
