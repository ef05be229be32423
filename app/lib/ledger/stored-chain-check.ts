import type { AgentTraceRecord } from '../../../hooks/ledger/agent-trace-record.js';
import { canonicalJson } from '../../../hooks/ledger/canonical-json.js';
import { hashAuditEvent, hashTraceRecord } from '../../../hooks/ledger/ledger-chain.js';
import { genesisHash, type LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { verifyLedger } from '../../../hooks/ledger/verify.js';

export type ChainIntegrity = { ok: true } | { ok: false; problem: string };

/** Where each chain stands after a run of events: what the next event must link to. */
export interface ChainHeads {
	audit: { seq: number; hash: string };
	trace: { seq: number; hash: string };
}

export const emptyChainHeads: ChainHeads = {
	audit: { seq: 0, hash: genesisHash },
	trace: { seq: 0, hash: genesisHash }
};

/**
 * Checks the stored events exactly as `threadline verify` would check their export: both chains
 * recomputed from the genesis hash. Schema problems of single trace records are left to verify;
 * only a broken chain makes the ledger unusable for appending.
 */
export async function checkStoredChain(events: readonly LedgerEvent[]): Promise<ChainIntegrity> {
	let auditJsonl = '';
	let traceJsonl = '';
	for (const event of events) {
		auditJsonl += canonicalJson(event) + '\n';
		if (event.type === 'mutation-record') traceJsonl += canonicalJson(event.trace) + '\n';
	}
	const report = await verifyLedger({ auditJsonl, traceJsonl });
	if (report.audit.intact && report.trace.intact) return { ok: true };
	return {
		ok: false,
		problem: report.audit.problem ?? report.trace.problem ?? report.firstFailure ?? 'broken chain'
	};
}

/** The heads after `events` (which must already be checked). */
export function headsAfter(events: readonly LedgerEvent[]): ChainHeads {
	const last = events.at(-1);
	let trace: AgentTraceRecord | null = null;
	for (let position = events.length - 1; position >= 0 && !trace; position--) {
		const event = events[position];
		if (event?.type === 'mutation-record') trace = event.trace;
	}
	const links = trace?.metadata['dev.threadline'];
	return {
		audit: last ? { seq: last.seq, hash: last.hash } : { ...emptyChainHeads.audit },
		trace: links ? { seq: links.seq, hash: links.hash } : { ...emptyChainHeads.trace }
	};
}

/**
 * Checks events that continue a chain (events another tab appended), with the same hash rules as
 * the chain that sealed them, without rehashing what came before.
 */
export async function checkContinuation(
	heads: ChainHeads,
	events: readonly LedgerEvent[]
): Promise<ChainIntegrity> {
	let audit = heads.audit;
	let trace = heads.trace;
	for (const event of events) {
		const where = `stored event seq ${String(event.seq)}`;
		if (event.seq !== audit.seq + 1) {
			return { ok: false, problem: `${where}: expected seq ${audit.seq + 1}` };
		}
		if (event.prev_hash !== audit.hash) {
			return { ok: false, problem: `${where}: prev_hash does not match seq ${audit.seq}` };
		}
		if ((await hashAuditEvent(event)) !== event.hash) {
			return { ok: false, problem: `${where}: hash does not match its content` };
		}
		if (event.type === 'mutation-record') {
			const links = event.trace.metadata['dev.threadline'];
			if (links.seq !== trace.seq + 1 || links.prev_hash !== trace.hash) {
				return {
					ok: false,
					problem: `${where}: its trace record does not continue the trace chain`
				};
			}
			if ((await hashTraceRecord(event.trace)) !== links.hash) {
				return { ok: false, problem: `${where}: its trace record's hash does not match` };
			}
			trace = { seq: links.seq, hash: links.hash };
		}
		audit = { seq: event.seq, hash: event.hash };
	}
	return { ok: true };
}
