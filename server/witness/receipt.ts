import { sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../../hooks/ledger/canonical-json.js';
import type { WitnessReceipt } from '../../hooks/ledger/ledger-event.js';

/** What the class server signs (one definition, beside the ledger's events). */
export type { WitnessReceipt };

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
