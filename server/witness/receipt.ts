import { sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../../hooks/ledger/canonical-json.js';
import type { ReceiptLogEntry } from '../../hooks/witness/class-log-leaf.js';

/**
 * What the class server signs: the ledger's head as it stored it, and when, with the identity
 * the ledger was bound to at its first append (its learner, its seq 1, its scenario), so an
 * export whose receipts were moved to another history or learner is caught offline.
 */
export interface WitnessReceipt {
	ledger: string;
	/** The learner id the ledger belongs to, and their display name (absent in older receipts). */
	learner?: string;
	learner_name?: string;
	/** The hash of the ledger's seq 1 (absent for ledgers stored before ledgers were bound). */
	genesis_hash?: string;
	scenario?: string;
	seq: number;
	head_hash: string;
	received_at: string;
	/**
	 * The head event's place in the class log (absent when the append stored nothing new, or in
	 * receipts from before the log): its leaf index, the signed checkpoint of the tree right after
	 * it, and its inclusion proof there (hooks/witness/class-log-leaf.ts).
	 */
	log?: ReceiptLogEntry;
}

export interface SignedReceipt {
	receipt: WitnessReceipt;
	/** Ed25519 over the canonical JSON of `receipt`, base64. */
	signature: string;
}

export function signReceipt(receipt: WitnessReceipt, privateKey: KeyObject): SignedReceipt {
	return { receipt, signature: signCanonical(receipt, privateKey) };
}

/**
 * Ed25519 over the canonical JSON of `value`, base64: receipts and ledger birth certificates
 * (a certificate has `kind`, a receipt `seq` and `head_hash`: neither passes for the other).
 */
export function signCanonical(value: object, privateKey: KeyObject): string {
	return sign(null, Buffer.from(canonicalJson(value), 'utf8'), privateKey).toString('base64');
}

/** Whether `signature` is the key's signature over the canonical JSON of `receipt`. */
export function receiptSignatureValid(
	receipt: unknown,
	signature: unknown,
	publicKey: KeyObject
): boolean {
	if (typeof signature !== 'string' || typeof receipt !== 'object' || receipt === null)
		return false;
	try {
		return verify(
			null,
			Buffer.from(canonicalJson(receipt), 'utf8'),
			publicKey,
			Buffer.from(signature, 'base64')
		);
	} catch {
		return false;
	}
}
