import type { LedgerEventDraft } from '../../../hooks/ledger/ledger-event.js';
import { classLogLeafHash, type ReceiptLogEntry } from '../../../hooks/witness/class-log-leaf.js';
import {
	verifyConsistency,
	verifyInclusion,
	type MerkleHash
} from '../../../hooks/witness/merkle-log.js';
import { parseCheckpointNote, type Checkpoint } from '../../../hooks/witness/signed-note.js';
import { base64ToBytes, isValidBase64 } from '../../../hooks/scenarios/scenario-file-encoding.js';

type ReceiptDraft = Extract<LedgerEventDraft, { type: 'witness-receipt' }>;

/** What the browser concluded about a receipt's place in the class log. */
export type ClassLogVerdict =
	/** Included; `consistency` is the checked proof from the previous checkpoint, when fetched. */
	| { kind: 'ok'; consistency?: { from: number; to: number; hashes: string[] } }
	/** Not checkable now (no log part, or the proof could not be fetched): stored unproven. */
	| { kind: 'unchecked' }
	/** The server contradicted itself: the receipt's proof fails, or its log does not extend the earlier one. */
	| { kind: 'fork'; problem: string; earlier: string; later: string };

/** The sentence the IDE shows when the server's log contradicts itself. */
export const forkedMessage =
	'The class server showed a log that contradicts what it showed before: your work is kept; tell your instructor.';

function hashes(value: unknown): MerkleHash[] | null {
	if (!Array.isArray(value) || value.length > 128) return null;
	const out: MerkleHash[] = [];
	for (const text of value) {
		if (typeof text !== 'string' || !isValidBase64(text)) return null;
		const bytes = base64ToBytes(text);
		if (bytes.length !== 32) return null;
		out.push(bytes);
	}
	return out;
}

function checkpointOf(log: ReceiptLogEntry | undefined): Checkpoint | null {
	if (!log || typeof log.checkpoint !== 'string') return null;
	const note = parseCheckpointNote(log.checkpoint);
	return note instanceof Error ? null : note.checkpoint;
}

/**
 * The learner's browser as a witness of the class log (issue 33): the receipt's head event must
 * be included in the checkpoint the receipt carries, and that checkpoint's tree must extend the
 * one of the previous receipt this ledger holds (a consistency proof fetched from the server's
 * public log endpoint and checked here, then stored with the receipt so `threadline verify`
 * re-checks it offline). Signatures are not checked in the browser (it has no Ed25519 here;
 * the receipt's and checkpoint's signatures are checked by `threadline verify --witness-key`):
 * what the browser catches is a server contradicting what it signed before.
 */
export async function witnessClassLog(
	draft: ReceiptDraft,
	previous: ReceiptLogEntry | undefined,
	fetchConsistency: (from: number, to: number) => Promise<unknown>
): Promise<ClassLogVerdict> {
	const log = draft.receipt.log;
	if (!log) return { kind: 'unchecked' };
	const later = log.checkpoint;
	const current = checkpointOf(log);
	const inclusion = hashes(log.inclusion);
	const leaf = classLogLeafHash(draft.receipt.ledger, draft.receipt.seq, draft.receipt.head_hash);
	if (
		!current ||
		current.size !== log.size ||
		!inclusion ||
		!verifyInclusion(leaf, log.index, current.size, inclusion, current.root)
	) {
		return {
			kind: 'fork',
			problem: `the receipt for seq ${draft.receipt.seq} is not included in the checkpoint it carries`,
			earlier: previous?.checkpoint ?? '',
			later
		};
	}
	const before = checkpointOf(previous);
	if (!before || !previous) return { kind: 'ok' };
	if (before.size > current.size) {
		return {
			kind: 'fork',
			problem: `the class log shrank from ${before.size} to ${current.size} leaves`,
			earlier: previous.checkpoint,
			later
		};
	}
	let body: unknown;
	try {
		body = await fetchConsistency(before.size, current.size);
	} catch {
		return { kind: 'unchecked' };
	}
	const proof = hashes((body as { hashes?: unknown } | null)?.hashes);
	if (proof && verifyConsistency(before.size, current.size, before.root, current.root, proof)) {
		return {
			kind: 'ok',
			consistency: {
				from: before.size,
				to: current.size,
				hashes: (body as { hashes: string[] }).hashes
			}
		};
	}
	return {
		kind: 'fork',
		problem: `the class log at ${current.size} leaves does not extend the one at ${before.size} leaves shown before`,
		earlier: previous.checkpoint,
		later
	};
}
