/**
 * The other digests `node:crypto` offers in the offline runtime (SHA-1, SHA-224, SHA-384, SHA-512,
 * MD5) and HMAC over any of them. Synchronous plain JS for the same reason as host-crypto.ts (the
 * QuickJS VM calls the host synchronously); checked against Node's crypto on random inputs in
 * host-hash-algorithms.test.ts. SHA-512/384 use BigInt words: slower than split 32-bit halves but
 * short and obviously correct, and test suites hash small inputs.
 */
import { sha256 } from './host-crypto.js';

export type HashAlgorithm = 'md5' | 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';

export const hashAlgorithms: readonly HashAlgorithm[] = [
	'md5',
	'sha1',
	'sha224',
	'sha256',
	'sha384',
	'sha512'
];

/** Node's accepted spellings ("SHA256", "sha-256", "RSA-SHA256") to one name, or undefined. */
export function normalizeHashName(name: string): HashAlgorithm | undefined {
	const plain = name
		.toLowerCase()
		.replace(/^rsa-/, '')
		.replace(/^sha-(\d)/, 'sha$1');
	return (hashAlgorithms as readonly string[]).includes(plain)
		? (plain as HashAlgorithm)
		: undefined;
}

const blockSizes: Record<HashAlgorithm, number> = {
	md5: 64,
	sha1: 64,
	sha224: 64,
	sha256: 64,
	sha384: 128,
	sha512: 128
};

export function digest(algorithm: HashAlgorithm, message: Uint8Array): Uint8Array {
	switch (algorithm) {
		case 'md5':
			return md5(message);
		case 'sha1':
			return sha1(message);
		case 'sha224':
			return sha224(message);
		case 'sha256':
			return sha256(message);
		case 'sha384':
			return sha512Family(message, sha384Initial).subarray(0, 48);
		case 'sha512':
			return sha512Family(message, sha512Initial);
	}
}

export function hmac(algorithm: HashAlgorithm, key: Uint8Array, message: Uint8Array): Uint8Array {
	const blockSize = blockSizes[algorithm];
	const keyBlock = new Uint8Array(blockSize);
	keyBlock.set(key.length > blockSize ? digest(algorithm, key) : key);
	const inner = new Uint8Array(blockSize + message.length);
	for (let index = 0; index < blockSize; index += 1) inner[index] = (keyBlock[index] ?? 0) ^ 0x36;
	inner.set(message, blockSize);
	const innerDigest = digest(algorithm, inner);
	const outer = new Uint8Array(blockSize + innerDigest.length);
	for (let index = 0; index < blockSize; index += 1) outer[index] = (keyBlock[index] ?? 0) ^ 0x5c;
	outer.set(innerDigest, blockSize);
	return digest(algorithm, outer);
}

/** Merkle–Damgård padding: 0x80, zeros, then the bit length in `lengthBytes` bytes. */
function pad(
	message: Uint8Array,
	blockSize: number,
	lengthBytes: number,
	littleEndian: boolean
): Uint8Array {
	const paddedLength = Math.ceil((message.length + 1 + lengthBytes) / blockSize) * blockSize;
	const padded = new Uint8Array(paddedLength);
	padded.set(message);
	padded[message.length] = 0x80;
	const view = new DataView(padded.buffer);
	const bitLength = message.length * 8;
	const high = Math.floor(bitLength / 0x100000000);
	const low = bitLength >>> 0;
	if (littleEndian) {
		view.setUint32(paddedLength - lengthBytes, low, true);
		view.setUint32(paddedLength - lengthBytes + 4, high, true);
	} else {
		view.setUint32(paddedLength - 8, high);
		view.setUint32(paddedLength - 4, low);
	}
	return padded;
}

function rotateLeft(value: number, bits: number): number {
	return (value << bits) | (value >>> (32 - bits));
}

function sha1(message: Uint8Array): Uint8Array {
	const padded = pad(message, 64, 8, false);
	const view = new DataView(padded.buffer);
	const state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
	const words = new Uint32Array(80);
	for (let offset = 0; offset < padded.length; offset += 64) {
		for (let index = 0; index < 16; index += 1) words[index] = view.getUint32(offset + index * 4);
		for (let index = 16; index < 80; index += 1) {
			words[index] = rotateLeft(
				(words[index - 3] ?? 0) ^
					(words[index - 8] ?? 0) ^
					(words[index - 14] ?? 0) ^
					(words[index - 16] ?? 0),
				1
			);
		}
		let [a, b, c, d, e] = state as [number, number, number, number, number];
		for (let index = 0; index < 80; index += 1) {
			let mixed: number;
			let constant: number;
			if (index < 20) {
				mixed = (b & c) | (~b & d);
				constant = 0x5a827999;
			} else if (index < 40) {
				mixed = b ^ c ^ d;
				constant = 0x6ed9eba1;
			} else if (index < 60) {
				mixed = (b & c) | (b & d) | (c & d);
				constant = 0x8f1bbcdc;
			} else {
				mixed = b ^ c ^ d;
				constant = 0xca62c1d6;
			}
			const temp = (rotateLeft(a, 5) + mixed + e + constant + (words[index] ?? 0)) >>> 0;
			e = d;
			d = c;
			c = rotateLeft(b, 30) >>> 0;
			b = a;
			a = temp;
		}
		const results = [a, b, c, d, e];
		for (let index = 0; index < 5; index += 1) {
			state[index] = ((state[index] ?? 0) + (results[index] ?? 0)) >>> 0;
		}
	}
	const out = new Uint8Array(20);
	const outView = new DataView(out.buffer);
	state.forEach((word, index) => outView.setUint32(index * 4, word));
	return out;
}

const md5Shifts = [
	7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14,
	20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6,
	10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21
];
const md5Constants = Array.from(
	{ length: 64 },
	(_, index) => Math.floor(Math.abs(Math.sin(index + 1)) * 0x100000000) >>> 0
);

function md5(message: Uint8Array): Uint8Array {
	const padded = pad(message, 64, 8, true);
	const view = new DataView(padded.buffer);
	const state = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
	const words = new Uint32Array(16);
	for (let offset = 0; offset < padded.length; offset += 64) {
		for (let index = 0; index < 16; index += 1)
			words[index] = view.getUint32(offset + index * 4, true);
		let [a, b, c, d] = state as [number, number, number, number];
		for (let index = 0; index < 64; index += 1) {
			let mixed: number;
			let wordIndex: number;
			if (index < 16) {
				mixed = (b & c) | (~b & d);
				wordIndex = index;
			} else if (index < 32) {
				mixed = (d & b) | (~d & c);
				wordIndex = (5 * index + 1) % 16;
			} else if (index < 48) {
				mixed = b ^ c ^ d;
				wordIndex = (3 * index + 5) % 16;
			} else {
				mixed = c ^ (b | ~d);
				wordIndex = (7 * index) % 16;
			}
			const sum = (a + mixed + (md5Constants[index] ?? 0) + (words[wordIndex] ?? 0)) >>> 0;
			a = d;
			d = c;
			c = b;
			b = (b + rotateLeft(sum, md5Shifts[index] ?? 0)) >>> 0;
		}
		const results = [a, b, c, d];
		for (let index = 0; index < 4; index += 1) {
			state[index] = ((state[index] ?? 0) + (results[index] ?? 0)) >>> 0;
		}
	}
	const out = new Uint8Array(16);
	const outView = new DataView(out.buffer);
	state.forEach((word, index) => outView.setUint32(index * 4, word, true));
	return out;
}

/** SHA-224 is SHA-256's compression with other initial values, cut to 28 bytes. */
function sha224(message: Uint8Array): Uint8Array {
	return sha256(
		message,
		[0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4]
	).subarray(0, 28);
}

const sha512Initial = [
	0x6a09e667f3bcc908n,
	0xbb67ae8584caa73bn,
	0x3c6ef372fe94f82bn,
	0xa54ff53a5f1d36f1n,
	0x510e527fade682d1n,
	0x9b05688c2b3e6c1fn,
	0x1f83d9abfb41bd6bn,
	0x5be0cd19137e2179n
];
const sha384Initial = [
	0xcbbb9d5dc1059ed8n,
	0x629a292a367cd507n,
	0x9159015a3070dd17n,
	0x152fecd8f70e5939n,
	0x67332667ffc00b31n,
	0x8eb44a8768581511n,
	0xdb0c2e0d64f98fa7n,
	0x47b5481dbefa4fa4n
];
const sha512Constants = [
	'428a2f98d728ae22',
	'7137449123ef65cd',
	'b5c0fbcfec4d3b2f',
	'e9b5dba58189dbbc',
	'3956c25bf348b538',
	'59f111f1b605d019',
	'923f82a4af194f9b',
	'ab1c5ed5da6d8118',
	'd807aa98a3030242',
	'12835b0145706fbe',
	'243185be4ee4b28c',
	'550c7dc3d5ffb4e2',
	'72be5d74f27b896f',
	'80deb1fe3b1696b1',
	'9bdc06a725c71235',
	'c19bf174cf692694',
	'e49b69c19ef14ad2',
	'efbe4786384f25e3',
	'0fc19dc68b8cd5b5',
	'240ca1cc77ac9c65',
	'2de92c6f592b0275',
	'4a7484aa6ea6e483',
	'5cb0a9dcbd41fbd4',
	'76f988da831153b5',
	'983e5152ee66dfab',
	'a831c66d2db43210',
	'b00327c898fb213f',
	'bf597fc7beef0ee4',
	'c6e00bf33da88fc2',
	'd5a79147930aa725',
	'06ca6351e003826f',
	'142929670a0e6e70',
	'27b70a8546d22ffc',
	'2e1b21385c26c926',
	'4d2c6dfc5ac42aed',
	'53380d139d95b3df',
	'650a73548baf63de',
	'766a0abb3c77b2a8',
	'81c2c92e47edaee6',
	'92722c851482353b',
	'a2bfe8a14cf10364',
	'a81a664bbc423001',
	'c24b8b70d0f89791',
	'c76c51a30654be30',
	'd192e819d6ef5218',
	'd69906245565a910',
	'f40e35855771202a',
	'106aa07032bbd1b8',
	'19a4c116b8d2d0c8',
	'1e376c085141ab53',
	'2748774cdf8eeb99',
	'34b0bcb5e19b48a8',
	'391c0cb3c5c95a63',
	'4ed8aa4ae3418acb',
	'5b9cca4f7763e373',
	'682e6ff3d6b2b8a3',
	'748f82ee5defb2fc',
	'78a5636f43172f60',
	'84c87814a1f0ab72',
	'8cc702081a6439ec',
	'90befffa23631e28',
	'a4506cebde82bde9',
	'bef9a3f7b2c67915',
	'c67178f2e372532b',
	'ca273eceea26619c',
	'd186b8c721c0c207',
	'eada7dd6cde0eb1e',
	'f57d4f7fee6ed178',
	'06f067aa72176fba',
	'0a637dc5a2c898a6',
	'113f9804bef90dae',
	'1b710b35131c471b',
	'28db77f523047d84',
	'32caab7b40c72493',
	'3c9ebe0a15c9bebc',
	'431d67c49c100d4c',
	'4cc5d4becb3e42b6',
	'597f299cfc657e2a',
	'5fcb6fab3ad6faec',
	'6c44198c4a475817'
].map((hex) => BigInt(`0x${hex}`));

const mask64 = 0xffffffffffffffffn;

function rotateRight64(value: bigint, bits: bigint): bigint {
	return ((value >> bits) | (value << (64n - bits))) & mask64;
}

function sha512Family(message: Uint8Array, initial: readonly bigint[]): Uint8Array {
	const padded = pad(message, 128, 16, false);
	const view = new DataView(padded.buffer);
	const state = [...initial];
	const words: bigint[] = Array.from({ length: 80 }, () => 0n);
	for (let offset = 0; offset < padded.length; offset += 128) {
		for (let index = 0; index < 16; index += 1)
			words[index] = view.getBigUint64(offset + index * 8);
		for (let index = 16; index < 80; index += 1) {
			const w15 = words[index - 15] ?? 0n;
			const w2 = words[index - 2] ?? 0n;
			const s0 = rotateRight64(w15, 1n) ^ rotateRight64(w15, 8n) ^ (w15 >> 7n);
			const s1 = rotateRight64(w2, 19n) ^ rotateRight64(w2, 61n) ^ (w2 >> 6n);
			words[index] = ((words[index - 16] ?? 0n) + s0 + (words[index - 7] ?? 0n) + s1) & mask64;
		}
		let [a, b, c, d, e, f, g, h] = state as [
			bigint,
			bigint,
			bigint,
			bigint,
			bigint,
			bigint,
			bigint,
			bigint
		];
		for (let index = 0; index < 80; index += 1) {
			const s1 = rotateRight64(e, 14n) ^ rotateRight64(e, 18n) ^ rotateRight64(e, 41n);
			const choice = (e & f) ^ (~e & mask64 & g);
			const temp1 =
				(h + s1 + choice + (sha512Constants[index] ?? 0n) + (words[index] ?? 0n)) & mask64;
			const s0 = rotateRight64(a, 28n) ^ rotateRight64(a, 34n) ^ rotateRight64(a, 39n);
			const majority = (a & b) ^ (a & c) ^ (b & c);
			h = g;
			g = f;
			f = e;
			e = (d + temp1) & mask64;
			d = c;
			c = b;
			b = a;
			a = (temp1 + s0 + majority) & mask64;
		}
		const results = [a, b, c, d, e, f, g, h];
		for (let index = 0; index < 8; index += 1) {
			state[index] = ((state[index] ?? 0n) + (results[index] ?? 0n)) & mask64;
		}
	}
	const out = new Uint8Array(64);
	const outView = new DataView(out.buffer);
	state.forEach((word, index) => outView.setBigUint64(index * 8, word));
	return out;
}
