import { createHash, sign, type KeyObject } from 'node:crypto';
import { signEnvelope, type DsseEnvelope } from '../../hooks/formats/dsse.js';
import {
	chainedSubjects,
	inTotoPayloadType,
	ledgerPredicate,
	ledgerStatement,
	statementBytes
} from '../../hooks/formats/in-toto.js';
import { conversationFileName, conversationLines } from '../../hooks/ledger/conversation-export.js';
import { traceLines } from '../../hooks/ledger/export.js';
import type { LedgerEvent } from '../../hooks/ledger/ledger-event.js';

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const textBytes = (lines: Iterable<string>) => {
	let text = '';
	for (const line of lines) text += line + '\n';
	return new TextEncoder().encode(text);
};

/**
 * The class server's attestation of a ledger it witnessed: the same in-toto Statement v1 as
 * `threadline attest` (subjects: the chained `.orchestration/` files by SHA-256, as an export of
 * exactly this ledger holds them; predicate: both chains' heads and the receipts), computed from
 * the server's own copy and signed in a DSSE envelope with the class key. `threadline verify
 * <export> --attestation <file> --witness-key <class key>` then holds only for an export whose
 * chained files are byte for byte the ones the server stored.
 */
export async function ledgerAttestation(
	storedLines: readonly string[],
	signingKey: { privateKey: KeyObject; publicKeyBase64: string },
	toolVersion: string
): Promise<DsseEnvelope> {
	// The stored lines are the canonical audit lines; the other files are derived from them.
	const events = storedLines.map((line) => JSON.parse(line) as LedgerEvent);
	const audit = textBytes(storedLines);
	const trace = textBytes(traceLines(events));
	const files = new Map<string, Uint8Array>([
		['audit.jsonl', audit],
		['agent_trace.jsonl', trace],
		[conversationFileName, textBytes(conversationLines(events))]
	]);
	const decoder = new TextDecoder();
	const statement = ledgerStatement(
		chainedSubjects(files, sha256Hex),
		ledgerPredicate(decoder.decode(audit), decoder.decode(trace), toolVersion)
	);
	return signEnvelope(inTotoPayloadType, statementBytes(statement), {
		keyid: signingKey.publicKeyBase64,
		sign: (message) => new Uint8Array(sign(null, message, signingKey.privateKey))
	});
}
