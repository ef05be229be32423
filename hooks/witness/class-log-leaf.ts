import { encodeText } from '../hashing/text-encoding.js';
import { canonicalJson } from '../ledger/canonical-json.js';
import { leafHash, type MerkleHash } from './merkle-log.js';

/**
 * The class log's leaf for one accepted ledger event: the canonical JSON
 * `{"hash","ledger","seq"}` of the event (its ledger id, its seq, its hash), hashed as an RFC 6962
 * leaf. The server, the browser and `threadline verify` build it the same way.
 */
export function classLogLeafHash(ledger: string, seq: number, hash: string): MerkleHash {
	return leafHash(encodeText(canonicalJson({ ledger, seq, hash })));
}

/** What a receipt says about its head event's place in the class log (`receipt.log`). */
export interface ReceiptLogEntry {
	/** The head event's leaf index. */
	index: number;
	/** The tree size right after that leaf (index + 1) and its root (base64). */
	size: number;
	root: string;
	/** The signed checkpoint (C2SP signed note) for that size. */
	checkpoint: string;
	/** The leaf's inclusion proof in that tree (base64 hashes, from the leaf up). */
	inclusion: string[];
}
