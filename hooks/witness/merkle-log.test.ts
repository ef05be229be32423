import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	consistencyProof,
	emptyTreeRoot,
	frontierAppend,
	frontierRoot,
	inclusionProof,
	leafHash,
	newestLeafProof,
	treeRoot,
	verifyConsistency,
	verifyInclusion,
	type MerkleHash
} from './merkle-log.js';

// An independent MTH straight from RFC 6962 §2.1 over node:crypto, on the raw leaf data.
const sha = (...parts: Uint8Array[]) =>
	new Uint8Array(createHash('sha256').update(Buffer.concat(parts)).digest());
function referenceRoot(data: Uint8Array[]): Uint8Array {
	if (data.length === 0) return sha();
	if (data.length === 1) return sha(Uint8Array.of(0), data[0] as Uint8Array);
	let k = 1;
	while (k * 2 < data.length) k *= 2;
	return sha(Uint8Array.of(1), referenceRoot(data.slice(0, k)), referenceRoot(data.slice(k)));
}
const leafData = (count: number) =>
	Array.from({ length: count }, (_, index) => new TextEncoder().encode(`leaf ${index}`));
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const flip = (hash: MerkleHash, bit: number): MerkleHash => {
	const copy = new Uint8Array(hash);
	copy[bit % 32] = (copy[bit % 32] as number) ^ (1 << (bit % 8));
	return copy;
};

describe('merkle log', () => {
	it('matches an independent RFC 6962 root for 0..70 leaves, and the frontier root too', () => {
		expect(hex(emptyTreeRoot)).toBe(
			'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
		);
		let frontier: MerkleHash[] = [];
		for (let n = 0; n <= 70; n++) {
			const data = leafData(n);
			const leaves = data.map(leafHash);
			expect(hex(treeRoot(leaves))).toBe(hex(referenceRoot(data)));
			expect(hex(frontierRoot(frontier))).toBe(hex(referenceRoot(data)));
			if (n < 70) {
				const next = leafHash(leafData(n + 1)[n] as Uint8Array);
				// The newest leaf's proof is the old frontier, reversed.
				const proof = newestLeafProof(frontier);
				frontier = frontierAppend(frontier, n, next);
				expect(verifyInclusion(next, n, n + 1, proof, frontierRoot(frontier))).toBe(true);
				expect(proof.map(hex)).toEqual(inclusionProof([...leaves, next], n, n + 1).map(hex));
			}
		}
	});

	it('a known RFC 6962 vector: the root of the empty-string leaf', () => {
		// SHA-256(0x00) — the leaf hash of empty data (certificate-transparency-go test vector).
		expect(hex(leafHash(new Uint8Array(0)))).toBe(
			'6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d'
		);
	});

	it('every inclusion proof verifies; a flipped hash, wrong index or wrong size fails', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 90 }), fc.nat(), fc.nat(), (size, pick, bit) => {
				const leaves = leafData(size).map(leafHash);
				const index = pick % size;
				const root = treeRoot(leaves);
				const proof = inclusionProof(leaves, index, size);
				expect(verifyInclusion(leaves[index] as MerkleHash, index, size, proof, root)).toBe(true);
				expect(
					verifyInclusion(flip(leaves[index] as MerkleHash, bit), index, size, proof, root)
				).toBe(false);
				expect(
					verifyInclusion(leaves[index] as MerkleHash, index, size, proof, flip(root, bit))
				).toBe(false);
				if (proof.length > 0) {
					const bad = [...proof];
					const at = bit % proof.length;
					bad[at] = flip(bad[at] as MerkleHash, bit);
					expect(verifyInclusion(leaves[index] as MerkleHash, index, size, bad, root)).toBe(false);
					expect(
						verifyInclusion(leaves[index] as MerkleHash, index, size, proof.slice(1), root)
					).toBe(false);
				}
				if (size > 1) {
					const other = (index + 1 + (bit % (size - 1))) % size;
					expect(verifyInclusion(leaves[index] as MerkleHash, other, size, proof, root)).toBe(
						false
					);
				}
				// The size is bound by the signed checkpoint: a proof for one size fails under the root
				// of another (the proof alone can fit two sizes' shapes).
				const grown = [...leaves, leafHash(Uint8Array.of(bit % 256))];
				expect(
					verifyInclusion(leaves[index] as MerkleHash, index, size + 1, proof, treeRoot(grown))
				).toBe(false);
				expect(
					verifyInclusion(leaves[index] as MerkleHash, index, size, [...proof, root], root)
				).toBe(false);
			}),
			{ numRuns: 300 }
		);
	});

	it('every consistency proof verifies; a flipped hash, wrong size or rewritten leaf fails', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 90 }), fc.nat(), fc.nat(), (to, pick, bit) => {
				const leaves = leafData(to).map(leafHash);
				const from = 1 + (pick % to);
				const fromRoot = treeRoot(leaves.slice(0, from));
				const toRoot = treeRoot(leaves);
				const proof = consistencyProof(leaves, from, to);
				expect(verifyConsistency(from, to, fromRoot, toRoot, proof)).toBe(true);
				expect(verifyConsistency(from, to, flip(fromRoot, bit), toRoot, proof)).toBe(false);
				expect(verifyConsistency(from, to, fromRoot, flip(toRoot, bit), proof)).toBe(false);
				if (proof.length > 0) {
					const bad = [...proof];
					const at = bit % proof.length;
					bad[at] = flip(bad[at] as MerkleHash, bit);
					expect(verifyConsistency(from, to, fromRoot, toRoot, bad)).toBe(false);
					const grown = [...leaves, leafHash(Uint8Array.of(bit % 256))];
					expect(verifyConsistency(from, to + 1, fromRoot, treeRoot(grown), proof)).toBe(false);
				}
				if (from > 1) expect(verifyConsistency(from - 1, to, fromRoot, toRoot, proof)).toBe(false);
				// A log that rewrote one of the first `from` leaves cannot prove it extends the old tree.
				const rewritten = [...leaves];
				const at = bit % from;
				rewritten[at] = flip(rewritten[at] as MerkleHash, bit);
				const forged = consistencyProof(rewritten, from, to);
				expect(verifyConsistency(from, to, fromRoot, treeRoot(rewritten), forged)).toBe(false);
			}),
			{ numRuns: 300 }
		);
	});

	it('refuses proofs for leaves or sizes outside the tree', () => {
		const leaves = leafData(4).map(leafHash);
		expect(() => inclusionProof(leaves, 4, 4)).toThrow(RangeError);
		expect(() => inclusionProof(leaves, 0, 5)).toThrow(RangeError);
		expect(() => consistencyProof(leaves, 3, 2)).toThrow(RangeError);
		expect(verifyConsistency(0, 4, emptyTreeRoot, treeRoot(leaves), [])).toBe(true);
	});
});
