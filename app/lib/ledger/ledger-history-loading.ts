import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type {
	QueuedRecord,
	StoredRecord
} from '../../../sandbox/local/indexeddb-workspace-files.js';
import { eventsOfRecords, largestRun, type StoredRun } from './event-runs.js';
import { ledgerStores, type LedgerRecordStore } from './ledger-record-store.js';
import {
	checkFromCheckpoint,
	checkStoredChain,
	checkTailFromCheckpoint,
	type ChainHeads,
	type ChainIntegrity
} from './stored-chain-check.js';
import { verifyInWorker } from './verify-in-worker.js';

/*
 * The IndexedDB ledger's history loading (moved out of indexeddb-ledger.ts, issue 31): opening a
 * stored ledger from its verified checkpoint or in full, the checkpoint record, and the full
 * check of the stored chain in the verify Worker.
 */

export interface LoadedLedger {
	/** Every stored event; with `tail`, only those from the checkpoint's run on. */
	events: LedgerEvent[];
	/** Only the last events were read (the rest is read after the open: whenHistoryLoaded). */
	tail: boolean;
	integrity: ChainIntegrity;
	state: Map<string, unknown>;
	/** The stored checkpoint, when there is one that reads as chain heads. */
	checkpoint: ChainHeads | null;
	/** The chain was checked from the checkpoint on (the rest still to check in full). */
	fromCheckpoint: boolean;
	/** The stored records the events came from (see event-runs.ts). */
	runs: StoredRun[];
}

/**
 * The state store's key for the verified checkpoint: the chain heads after the last events
 * checked (at an open) or sealed (by this app). Not a state value: `setState` refuses it.
 */
export const checkpointKey = '\u0000verified-checkpoint';

export function checkpointRecord(heads: ChainHeads): QueuedRecord {
	return { store: ledgerStores.state, key: checkpointKey, value: heads };
}

export function readCheckpoint(value: unknown): ChainHeads | null {
	const heads = value as Partial<ChainHeads> | null;
	const isHead = (head: unknown): head is { seq: number; hash: string } =>
		typeof head === 'object' &&
		head !== null &&
		Number.isSafeInteger((head as { seq?: unknown }).seq) &&
		typeof (head as { hash?: unknown }).hash === 'string';
	if (typeof heads !== 'object' || heads === null) return null;
	if (!isHead(heads.audit) || !isHead(heads.trace)) return null;
	return {
		audit: { seq: heads.audit.seq, hash: heads.audit.hash },
		trace: { seq: heads.trace.seq, hash: heads.trace.hash }
	};
}

export function sameHeads(left: ChainHeads, right: ChainHeads | null): boolean {
	return (
		right !== null &&
		left.audit.seq === right.audit.seq &&
		left.audit.hash === right.audit.hash &&
		left.trace.seq === right.trace.seq &&
		left.trace.hash === right.trace.hash
	);
}

/** The heads after `events`, which continue the chain at `heads`. */
export function headsAfterMore(heads: ChainHeads, events: readonly LedgerEvent[]): ChainHeads {
	const last = events.at(-1);
	if (!last) return heads;
	let trace = heads.trace;
	for (const event of events) {
		if (event.type === 'mutation-record') {
			const links = event.trace.metadata['dev.threadline'];
			trace = { seq: links.seq, hash: links.hash };
		}
	}
	return { audit: { seq: last.seq, hash: last.hash }, trace };
}

/**
 * The whole chain checked in the verify Worker, which reads the events from the database itself
 * (copying 100k events to it would block the page), where there is one; else here.
 */
export async function checkStoredChainOffThread(
	store: LedgerRecordStore,
	upToSeq: number,
	events: readonly LedgerEvent[]
): Promise<ChainIntegrity> {
	if (typeof Worker === 'undefined' || !store.name) return checkStoredChain(events);
	const report = await verifyInWorker({
		kind: 'database',
		name: store.name,
		store: ledgerStores.events,
		upToSeq
	});
	if (report.audit.events !== upToSeq) {
		return {
			ok: false,
			problem: `the stored ledger has ${report.audit.events} of ${upToSeq} events`
		};
	}
	if (report.audit.intact && report.trace.intact) return { ok: true };
	return {
		ok: false,
		problem: report.audit.problem ?? report.trace.problem ?? report.firstFailure ?? 'broken chain'
	};
}

/**
 * Opens a stored ledger. With a verified checkpoint past the first run, only the runs from the
 * checkpoint's own on are read and checked (checkTailFromCheckpoint): the time to open stays that
 * of a thousand events or so, however long the ledger. Anything unexpected in that tail (no
 * checkpoint event, a gap, a link or hash that does not hold) falls back to reading and checking
 * the whole ledger, which names the problem as before.
 */
export async function openLedger(store: LedgerRecordStore): Promise<LoadedLedger> {
	const { state, checkpoint } = stateOfRecords(await store.readAll(ledgerStores.state));
	// The run holding the checkpoint's event starts at most largestRun - 1 events before it.
	const tailKey = checkpoint ? checkpoint.audit.seq - largestRun + 1 : 1;
	if (!checkpoint || tailKey <= 1) return loadLedger(store);
	const read = eventsOfRecords(
		await store.readAll(ledgerStores.events, IDBKeyRange.lowerBound(tailKey))
	);
	if (read.problem !== null || read.events.length === 0) return loadLedger(store);
	const integrity = await checkTailFromCheckpoint(read.events, checkpoint).catch(() => null);
	if (integrity?.ok !== true) return loadLedger(store);
	return {
		events: read.events,
		tail: true,
		integrity,
		state,
		checkpoint,
		fromCheckpoint: true,
		runs: read.runs
	};
}

/**
 * Reads every event and the state. The chain is checked from the verified checkpoint on when the
 * checkpoint fits the stored events (see checkFromCheckpoint), and in full otherwise.
 */
export async function loadLedger(store: LedgerRecordStore): Promise<LoadedLedger> {
	const [eventRecords, stateRecords] = await Promise.all([
		store.readAll(ledgerStores.events),
		store.readAll(ledgerStores.state)
	]);
	const parsed = eventsOfRecords(eventRecords, 1);
	const { state, checkpoint } = stateOfRecords(stateRecords);
	let integrity: ChainIntegrity;
	let fromCheckpoint: ChainIntegrity | null = null;
	if (parsed.problem !== null) {
		integrity = { ok: false, problem: parsed.problem };
	} else {
		try {
			fromCheckpoint = checkpoint ? await checkFromCheckpoint(parsed.events, checkpoint) : null;
			integrity = fromCheckpoint ?? (await checkStoredChain(parsed.events));
		} catch (error) {
			// Read, but not checkable (a value JSON cannot hold, put there by hand): damaged.
			fromCheckpoint = null;
			integrity = {
				ok: false,
				problem: `the stored events cannot be checked (${error instanceof Error ? error.message : String(error)})`
			};
		}
	}
	return {
		events: parsed.events,
		tail: false,
		integrity,
		state,
		checkpoint,
		fromCheckpoint: fromCheckpoint?.ok === true,
		runs: parsed.runs
	};
}

/** The state values and the verified checkpoint, from the state store's records. */
export function stateOfRecords(records: readonly StoredRecord[]): {
	state: Map<string, unknown>;
	checkpoint: ChainHeads | null;
} {
	const state = new Map<string, unknown>();
	let checkpoint: ChainHeads | null = null;
	for (const record of records) {
		if (record.key === checkpointKey) checkpoint = readCheckpoint(record.value);
		else if (typeof record.key === 'string') state.set(record.key, record.value);
	}
	return { state, checkpoint };
}
