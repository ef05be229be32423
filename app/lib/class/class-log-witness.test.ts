import { describe, expect, it } from 'vitest';
import { classLogLeafHash } from '../../../hooks/witness/class-log-leaf.js';
import {
	consistencyProof,
	inclusionProof,
	leafHash,
	treeRoot,
	type MerkleHash
} from '../../../hooks/witness/merkle-log.js';
import { checkpointBody, formatSignedNote } from '../../../hooks/witness/signed-note.js';
import { witnessClassLog } from './class-log-witness.js';

const b64 = (hash: MerkleHash) => Buffer.from(hash).toString('base64');
const origin = 'threadline/cs101';
const note = (size: number, root: MerkleHash) =>
	formatSignedNote(checkpointBody({ origin, size, root }), [
		{ name: origin, keyId: new Uint8Array(4), signature: new Uint8Array(64) }
	]);

/** A log of `others` unrelated leaves, then the ledger's seq 1..n heads at the end. */
function log(leaves: MerkleHash[], index: number, size: number) {
	const root = treeRoot(leaves.slice(0, size));
	return {
		index,
		size,
		root: b64(root),
		checkpoint: note(size, root),
		inclusion: inclusionProof(leaves, index, size).map(b64)
	};
}
const receiptFor = (seq: number, hash: string, entry: ReturnType<typeof log>) => ({
	type: 'witness-receipt' as const,
	session_id: 'class-witness',
	receipt: {
		ledger: 'ledger-1',
		seq,
		head_hash: hash,
		received_at: '2026-12-01T00:00:00Z',
		log: entry
	},
	signature: 'x'
});

describe('the browser as a witness of the class log', () => {
	const heads = ['sha256:' + 'a'.repeat(64), 'sha256:' + 'b'.repeat(64)];
	const leaves = [
		leafHash(Uint8Array.of(1)),
		leafHash(Uint8Array.of(2)),
		classLogLeafHash('ledger-1', 3, heads[0] as string),
		leafHash(Uint8Array.of(4)),
		classLogLeafHash('ledger-1', 7, heads[1] as string)
	];
	const first = log(leaves, 2, 3);
	const second = log(leaves, 4, 5);
	const honest = async (from: number, to: number) => ({
		hashes: consistencyProof(leaves, from, to).map(b64)
	});

	it('accepts an included receipt whose log extends the previous one, and keeps the proof', async () => {
		expect(
			await witnessClassLog(receiptFor(3, heads[0] as string, first), undefined, honest)
		).toEqual({
			kind: 'ok'
		});
		const verdict = await witnessClassLog(receiptFor(7, heads[1] as string, second), first, honest);
		expect(verdict).toMatchObject({ kind: 'ok', consistency: { from: 3, to: 5 } });
	});

	it('records a fork when the server’s log does not extend what it showed before', async () => {
		const rewritten = [...leaves];
		rewritten[0] = leafHash(Uint8Array.of(9));
		const forged = log(rewritten, 4, 5);
		const verdict = await witnessClassLog(
			receiptFor(7, heads[1] as string, forged),
			first,
			async (from, to) => ({ hashes: consistencyProof(rewritten, from, to).map(b64) })
		);
		expect(verdict).toMatchObject({
			kind: 'fork',
			earlier: first.checkpoint,
			later: forged.checkpoint
		});
		const shrunk = await witnessClassLog(receiptFor(3, heads[0] as string, first), second, honest);
		expect(shrunk.kind).toBe('fork');
	});

	it('records a fork when the receipt is not in its own checkpoint, and waits when offline', async () => {
		const wrong = await witnessClassLog(
			receiptFor(3, heads[1] as string, first),
			undefined,
			honest
		);
		expect(wrong.kind).toBe('fork');
		const offline = await witnessClassLog(
			receiptFor(7, heads[1] as string, second),
			first,
			async () => {
				throw new Error('offline');
			}
		);
		expect(offline.kind).toBe('unchecked');
	});
});
