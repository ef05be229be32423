import type { AgentTraceRecord } from '../../../hooks/ledger/agent-trace-record.js';
import { canonicalJson } from '../../../hooks/ledger/canonical-json.js';
import {
	loadSyncContentHasher,
	type SyncContentHasher
} from '../../../hooks/hashing/sync-sha256.js';
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
 * Checks events that continue a chain (events another tab appended, or those stored after the
 * verified checkpoint), with the same hash rules as the chain that sealed them, without rehashing
 * what came before.
 */
export async function checkContinuation(
	heads: ChainHeads,
	events: readonly LedgerEvent[]
): Promise<ChainIntegrity> {
	const hash = await loadSyncContentHasher();
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
		if (auditHash(event, hash) !== event.hash) {
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
			if (traceHash(event.trace, hash) !== links.hash) {
				return { ok: false, problem: `${where}: its trace record's hash does not match` };
			}
			trace = { seq: links.seq, hash: links.hash };
		}
		audit = { seq: event.seq, hash: event.hash };
	}
	return { ok: true };
}

/**
 * Opening a stored ledger from its verified checkpoint (the heads after the last events that were
 * checked or sealed here): every event's links (seq, prev_hash, both chains) are checked, which
 * costs no hashing; the checkpoint's own event is rehashed; and the events after it are checked
 * in full. Returns null when the checkpoint does not fit the stored events (then the whole chain
 * must be checked), or the verdict.
 *
 * What this does not catch at open: an event before the checkpoint whose content was edited in
 * IndexedDB while its `hash` and `prev_hash` fields were left alone. The full check (Verify, the
 * export's `threadline verify`) still does; and anyone who can edit IndexedDB can also rewrite the
 * checkpoint or recompute the whole chain, so the checkpoint is a speed-up, never evidence.
 */
export function checkFromCheckpoint(
	events: readonly LedgerEvent[],
	checkpoint: ChainHeads
): Promise<ChainIntegrity | null> {
	return checkEventsFromCheckpoint(events, checkpoint, 'from-genesis');
}

/**
 * The same check on the last events only (the stored runs from the checkpoint's run on), for an
 * open that reads the rest of the history afterwards: the first event's link to the one before it,
 * and the trace chain before the tail's first trace record, are left to the check of the whole
 * history (checkFromCheckpoint once it is read), which runs before anything is appended.
 */
export function checkTailFromCheckpoint(
	tail: readonly LedgerEvent[],
	checkpoint: ChainHeads
): Promise<ChainIntegrity | null> {
	return checkEventsFromCheckpoint(tail, checkpoint, 'tail');
}

async function checkEventsFromCheckpoint(
	events: readonly LedgerEvent[],
	checkpoint: ChainHeads,
	start: 'from-genesis' | 'tail'
): Promise<ChainIntegrity | null> {
	const firstSeq = events[0]?.seq ?? 1;
	// How many events, from the first one here, up to and including the checkpoint's own.
	const at = checkpoint.audit.seq - firstSeq + 1;
	if (!Number.isSafeInteger(at) || at < 1 || at > events.length) return null;
	const links = checkLinks(events, at, start);
	if (!links.ok) return links.integrity;
	const head = events[at - 1] as LedgerEvent;
	if (head.hash !== checkpoint.audit.hash) return null;
	const traceAtCheckpoint = links.traceAtCheckpoint;
	// null: no trace record in the tail up to the checkpoint; the history's check compares it.
	if (
		traceAtCheckpoint !== null &&
		(traceAtCheckpoint.seq !== checkpoint.trace.seq ||
			traceAtCheckpoint.hash !== checkpoint.trace.hash)
	) {
		return null;
	}
	const hash = await loadSyncContentHasher();
	if (auditHash(head, hash) !== head.hash) return null;
	if (
		head.type === 'mutation-record' &&
		traceHash(head.trace, hash) !== head.trace.metadata['dev.threadline'].hash
	) {
		return null;
	}
	return checkContinuation(checkpoint, events.slice(at));
}

/**
 * seq and prev_hash of every event and every trace record, and the trace head after `at` events.
 * From the genesis hash for a whole ledger; a tail's first links (to events not read) are taken
 * as they are, and its trace head stays unknown (null) until its first trace record.
 */
function checkLinks(
	events: readonly LedgerEvent[],
	at: number,
	start: 'from-genesis' | 'tail'
):
	| { ok: true; traceAtCheckpoint: { seq: number; hash: string } | null }
	| { ok: false; integrity: ChainIntegrity } {
	let previous: { seq: number; hash: string } | null =
		start === 'from-genesis' ? emptyChainHeads.audit : null;
	let trace: { seq: number; hash: string } | null =
		start === 'from-genesis' ? emptyChainHeads.trace : null;
	let traceAtCheckpoint = trace;
	for (let position = 0; position < events.length; position++) {
		const event = events[position] as LedgerEvent;
		const where = `stored event seq ${String(event.seq)}`;
		if (
			previous !== null &&
			(event.seq !== previous.seq + 1 || event.prev_hash !== previous.hash)
		) {
			return {
				ok: false,
				integrity: { ok: false, problem: `${where}: does not link to seq ${previous.seq}` }
			};
		}
		if (event.type === 'mutation-record') {
			const traceLinks = event.trace?.metadata?.['dev.threadline'];
			if (
				!traceLinks ||
				typeof traceLinks.hash !== 'string' ||
				(trace !== null &&
					(traceLinks.seq !== trace.seq + 1 || traceLinks.prev_hash !== trace.hash))
			) {
				return {
					ok: false,
					integrity: {
						ok: false,
						problem: `${where}: its trace record does not continue the trace chain`
					}
				};
			}
			trace = { seq: traceLinks.seq, hash: traceLinks.hash };
		}
		previous = { seq: event.seq, hash: event.hash };
		if (position === at - 1) traceAtCheckpoint = trace;
	}
	return { ok: true, traceAtCheckpoint };
}

/** hashAuditEvent with a synchronous hasher. */
function auditHash(event: LedgerEvent, hash: SyncContentHasher): string {
	const { hash: _ignoredHash, ...body } = event;
	return hash(String(body.prev_hash) + canonicalJson(body));
}

/** hashTraceRecord with a synchronous hasher. */
function traceHash(record: AgentTraceRecord, hash: SyncContentHasher): string {
	const { hash: _ignoredHash, ...links } = record.metadata['dev.threadline'];
	const withoutHash = { ...record, metadata: { ...record.metadata, 'dev.threadline': links } };
	return hash(links.prev_hash + canonicalJson(withoutHash));
}
