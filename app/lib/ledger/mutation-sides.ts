import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';

/** The content hashes on either side of one recorded change; `null`: no file on that side. */
export interface MutationSides {
	seq: number;
	path: string;
	before: string | null;
	after: string | null;
	/** False when the ledger does not say what the file held before (no snapshot or earlier record). */
	beforeKnown: boolean;
}

/**
 * For the trace panel's diff of a `mutation-record`: its `after` is the record's file hash; its
 * `before` is the path's state just before it, from the latest earlier record of the same path,
 * else the latest earlier workspace snapshot (a path missing from a snapshot did not exist).
 * `null` when `seq` is not a mutation record.
 */
export function mutationSides(events: readonly LedgerEvent[], seq: number): MutationSides | null {
	const position = positionOf(events, seq);
	const event = position === -1 ? undefined : events[position];
	if (event?.type !== 'mutation-record') return null;
	const path = event.trace.files[0]?.path;
	if (path === undefined) return null;
	const after = event.trace.metadata['dev.threadline'].file_hash;
	for (let earlier = position - 1; earlier >= 0; earlier--) {
		const candidate = events[earlier];
		if (candidate?.type === 'mutation-record' && candidate.trace.files[0]?.path === path) {
			const before = candidate.trace.metadata['dev.threadline'].file_hash;
			return { seq, path, before, after, beforeKnown: true };
		}
		if (candidate?.type === 'workspace-snapshot') {
			return { seq, path, before: candidate.files[path] ?? null, after, beforeKnown: true };
		}
	}
	return { seq, path, before: null, after, beforeKnown: false };
}

function positionOf(events: readonly LedgerEvent[], seq: number): number {
	// Seqs are consecutive from 1, so the position is usually seq - 1.
	const guess = seq - 1;
	if (events[guess]?.seq === seq) return guess;
	return events.findIndex((event) => event.seq === seq);
}
