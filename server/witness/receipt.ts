import { sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../../hooks/ledger/canonical-json.js';

/** What the class server signs: the ledger's head as it stored it, and when. */
export interface WitnessReceipt {
	ledger: string;
	seq: number;
	head_hash: string;
	received_at: string;
}

export interface SignedReceipt {
	receipt: WitnessReceipt;
	/** Ed25519 over the canonical JSON of `receipt`, base64. */
	signature: string;
}

export function signReceipt(receipt: WitnessReceipt, privateKey: KeyObject): SignedReceipt {
	const signature = sign(null, Buffer.from(canonicalJson(receipt), 'utf8'), privateKey);
	return { receipt, signature: signature.toString('base64') };
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
