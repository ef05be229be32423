import { classLogLeafHash } from '../../hooks/witness/class-log-leaf.js';
import {
	verifyConsistency,
	verifyInclusion,
	type MerkleHash
} from '../../hooks/witness/merkle-log.js';
import {
	noteSignedBy,
	parseCheckpointNote,
	type Checkpoint,
	type VerifySignature
} from '../../hooks/witness/signed-note.js';
import type { ReceiptProblem } from './witness-check.js';

/** An audit event as read from an export (untrusted: only plain fields are read). */
type EventValue = Record<string, unknown>;

export interface ClassLogCheck {
	/** Receipts whose `log` part was checked (checkpoint signature, size, root, inclusion). */
	checked: number;
	problems: ReceiptProblem[];
	/** Successive checkpoints shown consistent by the proof the browser stored with the receipt. */
	consistent: number;
	/** Successive checkpoints with no stored consistency proof (checked only with `--witness`). */
	unproven: number;
	/** The export's largest checkpoint (what `--witness` compares with the server's current one). */
	last: Checkpoint | null;
}

const isObject = (value: unknown): value is EventValue =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** base64 hashes → 32-byte arrays, or null when any is not one. */
export function decodeHashes(value: unknown): MerkleHash[] | null {
	if (!Array.isArray(value) || value.length > 128) return null;
	const hashes: MerkleHash[] = [];
	for (const text of value) {
		if (typeof text !== 'string' || !/^[A-Za-z0-9+/]{43}=$/u.test(text)) return null;
		hashes.push(new Uint8Array(Buffer.from(text, 'base64')));
	}
	return hashes;
}

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/**
 * The class log parts of an export's receipts (issue 33), offline: each receipt's checkpoint is
 * a C2SP signed note by the class key (the key named by the note's origin), for the size and
 * root the receipt names; the receipt's head event — leaf `{"hash","ledger","seq"}` — is at its
 * index in that tree; and where the browser stored a consistency proof (`log_consistency` on the
 * receipt event), the previous checkpoint the export saw is a prefix of this one. The receipt's
 * own signature is checked by `checkReceipts`; receipts it refused are skipped here.
 */
export function checkReceiptLogs(
	events: readonly unknown[],
	classKey: Uint8Array,
	verifySignature: VerifySignature,
	receiptSignatureValid: (receipt: unknown, signature: unknown) => boolean
): ClassLogCheck {
	const result: ClassLogCheck = {
		checked: 0,
		problems: [],
		consistent: 0,
		unproven: 0,
		last: null
	};
	let previous: Checkpoint | null = null;
	for (const event of events) {
		if (!isObject(event) || event.type !== 'witness-receipt') continue;
		const seq = Number(event.seq);
		const receipt = event.receipt;
		if (!isObject(receipt) || receipt.log === undefined) continue;
		if (!receiptSignatureValid(receipt, event.signature)) continue;
		const problem = (text: string) => result.problems.push({ seq, problem: text });
		const log = receipt.log;
		if (
			!isObject(log) ||
			!Number.isSafeInteger(log.index) ||
			!Number.isSafeInteger(log.size) ||
			typeof log.root !== 'string' ||
			typeof log.checkpoint !== 'string'
		) {
			problem('the receipt’s class log part is malformed');
			continue;
		}
		const note = parseCheckpointNote(log.checkpoint);
		if (note instanceof Error) {
			problem(`the receipt’s checkpoint is not a signed note: ${note.message}`);
			continue;
		}
		const { checkpoint } = note;
		if (!noteSignedBy(note, checkpoint.origin, classKey, verifySignature)) {
			problem('the receipt’s checkpoint is not signed by the class key');
			continue;
		}
		if (checkpoint.size !== log.size || base64(checkpoint.root) !== log.root) {
			problem('the receipt names a tree size or root its checkpoint does not');
			continue;
		}
		const inclusion = decodeHashes(log.inclusion);
		const leaf = classLogLeafHash(
			String(receipt.ledger),
			Number(receipt.seq),
			String(receipt.head_hash)
		);
		if (
			!inclusion ||
			!verifyInclusion(leaf, Number(log.index), checkpoint.size, inclusion, checkpoint.root)
		) {
			problem(
				`the class log does not hold seq ${String(receipt.seq)} at leaf ${String(log.index)} of its checkpoint (the inclusion proof fails)`
			);
			continue;
		}
		result.checked++;
		if (previous) {
			const stored = event.log_consistency;
			if (previous.size > checkpoint.size) {
				problem(
					`the class log shrank from ${previous.size} to ${checkpoint.size} leaves between two receipts (a rewritten log)`
				);
				continue;
			}
			if (isObject(stored) && stored.from === previous.size && stored.to === checkpoint.size) {
				const hashes = decodeHashes(stored.hashes);
				if (
					!hashes ||
					!verifyConsistency(previous.size, checkpoint.size, previous.root, checkpoint.root, hashes)
				) {
					problem(
						`the class log at ${checkpoint.size} leaves does not extend the one at ${previous.size} this export saw before (a rewritten or forked log)`
					);
					continue;
				}
				result.consistent++;
			} else result.unproven++;
		}
		previous = checkpoint;
		if (!result.last || checkpoint.size >= result.last.size) result.last = checkpoint;
	}
	return result;
}

/**
 * `--witness`: the server's current checkpoint, signed by the class key, must extend the
 * largest one the export saw (a consistency proof from the server's public log endpoints). A
 * server that rewrote or dropped any leaf the export's checkpoints covered fails here. Null when
 * consistent; otherwise the problem in words.
 */
export async function checkLogAgainstServer(
	serverOrigin: string,
	last: Checkpoint,
	classKey: Uint8Array,
	verifySignature: VerifySignature,
	fetchText: (url: string) => Promise<string>
): Promise<{ current: Checkpoint | null; problem: string | null }> {
	const note = parseCheckpointNote(await fetchText(`${serverOrigin}/api/class/log/checkpoint`));
	if (note instanceof Error)
		return {
			current: null,
			problem: `the server's checkpoint is not a signed note: ${note.message}`
		};
	if (!noteSignedBy(note, note.checkpoint.origin, classKey, verifySignature))
		return { current: null, problem: "the server's checkpoint is not signed by the class key" };
	const current = note.checkpoint;
	if (current.size < last.size)
		return {
			current,
			problem: `the server's class log has ${current.size} leaves, fewer than the ${last.size} this export saw (the log was rewritten)`
		};
	const body = JSON.parse(
		await fetchText(
			`${serverOrigin}/api/class/log/proof/consistency?from=${last.size}&to=${current.size}`
		)
	) as { hashes?: unknown };
	const hashes = decodeHashes(body.hashes);
	if (!hashes || !verifyConsistency(last.size, current.size, last.root, current.root, hashes))
		return {
			current,
			problem: `the server's class log (${current.size} leaves) does not extend the checkpoint of ${last.size} leaves this export saw: the server rewrote or forked its log`
		};
	return { current, problem: null };
}
