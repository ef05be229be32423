/**
 * SHA-256 and HMAC-SHA-256 for the offline runtime's `crypto.subtle` and `node:crypto`'s
 * createHash/createHmac. Synchronous on purpose: the host's Web Crypto is asynchronous and the
 * QuickJS VM runs synchronously, so these few lines are the simplest correct bridge (checked
 * against Node's crypto in host-crypto.test.ts).
 */

const roundConstants = new Uint32Array([
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
]);

const sha256Initial = [
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
];

/** `initialState` lets SHA-224 (same compression, other start values) reuse this function. */
export function sha256(
	message: Uint8Array,
	initialState: readonly number[] = sha256Initial
): Uint8Array {
	const bitLength = message.length * 8;
	const paddedLength = Math.ceil((message.length + 9) / 64) * 64;
	const padded = new Uint8Array(paddedLength);
	padded.set(message);
	padded[message.length] = 0x80;
	const view = new DataView(padded.buffer);
	view.setUint32(paddedLength - 8, Math.floor(bitLength / 0x100000000));
	view.setUint32(paddedLength - 4, bitLength >>> 0);
	const state = new Uint32Array(initialState);
	const words = new Uint32Array(64);
	for (let offset = 0; offset < paddedLength; offset += 64) {
		for (let index = 0; index < 16; index += 1) words[index] = view.getUint32(offset + index * 4);
		for (let index = 16; index < 64; index += 1) {
			const w15 = words[index - 15] ?? 0;
			const w2 = words[index - 2] ?? 0;
			const s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >>> 3);
			const s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >>> 10);
			words[index] = ((words[index - 16] ?? 0) + s0 + (words[index - 7] ?? 0) + s1) >>> 0;
		}
		let [a, b, c, d, e, f, g, h] = state as unknown as number[] as [
			number,
			number,
			number,
			number,
			number,
			number,
			number,
			number
		];
		for (let index = 0; index < 64; index += 1) {
			const s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25);
			const choice = (e & f) ^ (~e & g);
			const temp1 = (h + s1 + choice + (roundConstants[index] ?? 0) + (words[index] ?? 0)) >>> 0;
			const s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22);
			const majority = (a & b) ^ (a & c) ^ (b & c);
			const temp2 = (s0 + majority) >>> 0;
			h = g;
			g = f;
			f = e;
			e = (d + temp1) >>> 0;
			d = c;
			c = b;
			b = a;
			a = (temp1 + temp2) >>> 0;
		}
		const results = [a, b, c, d, e, f, g, h];
		for (let index = 0; index < 8; index += 1) {
			state[index] = ((state[index] ?? 0) + (results[index] ?? 0)) >>> 0;
		}
	}
	const digest = new Uint8Array(32);
	const digestView = new DataView(digest.buffer);
	for (let index = 0; index < 8; index += 1) digestView.setUint32(index * 4, state[index] ?? 0);
	return digest;
}

export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
	const blockSize = 64;
	let keyBlock = key.length > blockSize ? sha256(key) : key;
	const padded = new Uint8Array(blockSize);
	padded.set(keyBlock);
	keyBlock = padded;
	const inner = new Uint8Array(blockSize + message.length);
	const outer = new Uint8Array(blockSize + 32);
	for (let index = 0; index < blockSize; index += 1) {
		inner[index] = (keyBlock[index] ?? 0) ^ 0x36;
		outer[index] = (keyBlock[index] ?? 0) ^ 0x5c;
	}
	inner.set(message, blockSize);
	outer.set(sha256(inner), blockSize);
	return sha256(outer);
}

function rotate(value: number, bits: number): number {
	return (value >>> bits) | (value << (32 - bits));
}

/** Bytes ↔ latin1 strings: how bytes cross between the host and the VM (one char per byte). */
export function bytesToLatin1(bytes: Uint8Array): string {
	let text = '';
	for (let offset = 0; offset < bytes.length; offset += 8192) {
		text += String.fromCharCode(...bytes.subarray(offset, offset + 8192));
	}
	return text;
}

export function latin1ToBytes(text: string): Uint8Array {
	const bytes = new Uint8Array(text.length);
	for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index) & 0xff;
	return bytes;
}

/** Raw bytes to and from the VM travel as hex: QuickJS strings stop at a NUL on the way. */
export function toHex(bytes: Uint8Array): string {
	let text = '';
	for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
	return text;
}

export function fromHex(text: string): Uint8Array {
	const bytes = new Uint8Array(text.length >> 1);
	for (let index = 0; index < bytes.length; index += 1) {
		bytes[index] = Number.parseInt(text.slice(index * 2, index * 2 + 2), 16);
	}
	return bytes;
}
