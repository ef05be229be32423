import { jsSha256Hex } from '../hashing/js-sha256.js';

/**
 * The class log's Merkle tree, hashed as RFC 6962 / RFC 9162 (leaf `SHA-256(0x00 ‖ data)`, node
 * `SHA-256(0x01 ‖ left ‖ right)`). Pure and synchronous: the server, the learner's browser and
 * the CLI compute and check the same proofs. Hashes are 32-byte arrays; sizes and indices are
 * plain numbers (a class log stays far below 2^53 leaves), halved arithmetically, not with `>>`.
 */
export type MerkleHash = Uint8Array;

function sha256(bytes: Uint8Array): MerkleHash {
	const hex = jsSha256Hex(bytes);
	const out = new Uint8Array(32);
	for (let index = 0; index < 32; index++)
		out[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
	return out;
}

/** SHA-256 of the empty string: the root of the empty tree. */
export const emptyTreeRoot: MerkleHash = sha256(new Uint8Array(0));

export function leafHash(data: Uint8Array): MerkleHash {
	const input = new Uint8Array(data.length + 1);
	input[0] = 0x00;
	input.set(data, 1);
	return sha256(input);
}

/**
 * How interior nodes are hashed when proofs are computed from many leaves: `nodeHash` by
 * default; the server passes one over node:crypto (the same bytes, ~50× faster than the plain
 * JavaScript SHA-256 over a large tree).
 */
export type NodeHasher = (left: MerkleHash, right: MerkleHash) => MerkleHash;

export function nodeHash(left: MerkleHash, right: MerkleHash): MerkleHash {
	const input = new Uint8Array(65);
	input[0] = 0x01;
	input.set(left, 1);
	input.set(right, 33);
	return sha256(input);
}

export function sameHash(left: MerkleHash, right: MerkleHash): boolean {
	if (left.length !== right.length) return false;
	let difference = 0;
	for (let index = 0; index < left.length; index++)
		difference |= (left[index] ?? 0) ^ (right[index] ?? 0);
	return difference === 0;
}

/** The largest power of two strictly below `n` (n ≥ 2). */
function splitPoint(n: number): number {
	let k = 1;
	while (k * 2 < n) k *= 2;
	return k;
}

/** MTH(D[start:end]) over leaf hashes (RFC 6962 §2.1). */
function subtreeRoot(
	leaves: readonly MerkleHash[],
	start: number,
	end: number,
	hash: NodeHasher
): MerkleHash {
	const n = end - start;
	if (n === 0) return emptyTreeRoot;
	if (n === 1) return leaves[start] as MerkleHash;
	const k = splitPoint(n);
	return hash(
		subtreeRoot(leaves, start, start + k, hash),
		subtreeRoot(leaves, start + k, end, hash)
	);
}

/** The root of the tree whose leaf hashes are `leaves`. */
export function treeRoot(leaves: readonly MerkleHash[], hash: NodeHasher = nodeHash): MerkleHash {
	return subtreeRoot(leaves, 0, leaves.length, hash);
}

function checkSize(size: number, available: number): void {
	if (!Number.isSafeInteger(size) || size < 0 || size > available)
		throw new RangeError(`tree size ${size} is not between 0 and ${available}`);
}

/** PATH(index, D[0:size]): the audit path of leaf `index` in the tree of the first `size` leaves. */
export function inclusionProof(
	leaves: readonly MerkleHash[],
	index: number,
	size: number,
	hash: NodeHasher = nodeHash
): MerkleHash[] {
	checkSize(size, leaves.length);
	if (!Number.isSafeInteger(index) || index < 0 || index >= size)
		throw new RangeError(`leaf index ${index} is not in a tree of size ${size}`);
	const path: MerkleHash[] = [];
	const walk = (m: number, start: number, end: number): void => {
		const n = end - start;
		if (n <= 1) return;
		const k = splitPoint(n);
		if (m < k) {
			walk(m, start, start + k);
			path.push(subtreeRoot(leaves, start + k, end, hash));
		} else {
			walk(m - k, start + k, end);
			path.push(subtreeRoot(leaves, start, start + k, hash));
		}
	};
	walk(index, 0, size);
	return path;
}

/** PROOF(from, D[0:to]) (RFC 6962 §2.1.2); empty when `from` is 0 or equals `to`. */
export function consistencyProof(
	leaves: readonly MerkleHash[],
	from: number,
	to: number,
	hash: NodeHasher = nodeHash
): MerkleHash[] {
	checkSize(to, leaves.length);
	checkSize(from, to);
	if (from === 0 || from === to) return [];
	const proof: MerkleHash[] = [];
	const walk = (m: number, start: number, end: number, complete: boolean): void => {
		const n = end - start;
		if (m === n) {
			if (!complete) proof.push(subtreeRoot(leaves, start, end, hash));
			return;
		}
		const k = splitPoint(n);
		if (m <= k) {
			walk(m, start, start + k, complete);
			proof.push(subtreeRoot(leaves, start + k, end, hash));
		} else {
			walk(m - k, start + k, end, false);
			proof.push(subtreeRoot(leaves, start, start + k, hash));
		}
	};
	walk(from, 0, to, true);
	return proof;
}

const odd = (value: number): boolean => value % 2 === 1;
const half = (value: number): number => Math.floor(value / 2);

/** RFC 9162 §2.1.3.2: whether `proof` puts a leaf with `leafHashValue` at `index` under `root`. */
export function verifyInclusion(
	leafHashValue: MerkleHash,
	index: number,
	size: number,
	proof: readonly MerkleHash[],
	root: MerkleHash
): boolean {
	if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size)
		return false;
	let fn = index;
	let sn = size - 1;
	let hash = leafHashValue;
	for (const sibling of proof) {
		if (sn === 0) return false;
		if (odd(fn) || fn === sn) {
			hash = nodeHash(sibling, hash);
			if (!odd(fn)) {
				while (!odd(fn) && fn !== 0) {
					fn = half(fn);
					sn = half(sn);
				}
			}
		} else hash = nodeHash(hash, sibling);
		fn = half(fn);
		sn = half(sn);
	}
	return sn === 0 && sameHash(hash, root);
}

/**
 * RFC 9162 §2.1.4.2: whether `proof` shows the tree (`toSize`, `toRoot`) extends the tree
 * (`fromSize`, `fromRoot`) — nothing of the first was changed, removed or reordered. Every tree
 * extends the empty one (empty proof); a tree is consistent with itself only with an empty proof.
 */
export function verifyConsistency(
	fromSize: number,
	toSize: number,
	fromRoot: MerkleHash,
	toRoot: MerkleHash,
	proof: readonly MerkleHash[]
): boolean {
	if (!Number.isSafeInteger(fromSize) || !Number.isSafeInteger(toSize)) return false;
	if (fromSize < 0 || fromSize > toSize) return false;
	if (fromSize === 0) return proof.length === 0;
	if (fromSize === toSize) return proof.length === 0 && sameHash(fromRoot, toRoot);
	if (proof.length === 0) return false;
	const path = isPowerOfTwo(fromSize) ? [fromRoot, ...proof] : [...proof];
	let fn = fromSize - 1;
	let sn = toSize - 1;
	while (odd(fn)) {
		fn = half(fn);
		sn = half(sn);
	}
	let fr = path[0] as MerkleHash;
	let sr = path[0] as MerkleHash;
	for (const c of path.slice(1)) {
		if (sn === 0) return false;
		if (odd(fn) || fn === sn) {
			fr = nodeHash(c, fr);
			sr = nodeHash(c, sr);
			if (!odd(fn)) {
				while (!odd(fn) && fn !== 0) {
					fn = half(fn);
					sn = half(sn);
				}
			}
		} else sr = nodeHash(sr, c);
		fn = half(fn);
		sn = half(sn);
	}
	return sameHash(fr, fromRoot) && sameHash(sr, toRoot) && sn === 0;
}

function isPowerOfTwo(value: number): boolean {
	let v = value;
	while (v > 1) {
		if (odd(v)) return false;
		v = half(v);
	}
	return v === 1;
}

/**
 * The roots of the perfect subtrees a tree of `size` leaves is made of, largest (leftmost) first:
 * one per set bit of `size`, so at most 64. The server keeps only this, and from it answers an
 * append's root and its newest leaf's inclusion proof without reading older leaves.
 */
export type Frontier = readonly MerkleHash[];

/** The frontier after appending a leaf to a tree of `size` leaves with frontier `frontier`. */
export function frontierAppend(
	frontier: Frontier,
	size: number,
	leaf: MerkleHash,
	hash: NodeHasher = nodeHash
): MerkleHash[] {
	const next = [...frontier, leaf];
	let carried = size;
	while (odd(carried)) {
		const right = next.pop() as MerkleHash;
		const left = next.pop() as MerkleHash;
		next.push(hash(left, right));
		carried = half(carried);
	}
	return next;
}

/** The tree's root from its frontier: folded right to left. */
export function frontierRoot(frontier: Frontier, hash: NodeHasher = nodeHash): MerkleHash {
	if (frontier.length === 0) return emptyTreeRoot;
	let root = frontier[frontier.length - 1] as MerkleHash;
	for (let index = frontier.length - 2; index >= 0; index--)
		root = hash(frontier[index] as MerkleHash, root);
	return root;
}

/**
 * The inclusion proof of the leaf appended to a tree whose frontier (before the append) was
 * `frontier`, in the tree of size+1 leaves: that frontier, smallest subtree first.
 */
export function newestLeafProof(frontier: Frontier): MerkleHash[] {
	return [...frontier].reverse();
}
