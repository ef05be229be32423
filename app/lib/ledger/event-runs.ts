import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type {
	QueuedRecord,
	StoredRecord
} from '../../../sandbox/local/indexeddb-workspace-files.js';
import { ledgerStores } from './ledger-record-store.js';

/**
 * How the events are stored: one IndexedDB record per run of consecutive events, keyed by the
 * seq of its first event, the value an array of the events. Ledgers stored before runs hold one
 * event per record (the event itself); both read the same way.
 *
 * Why: Chromium reads records one at a time however they are asked for, and a record of under
 * 64 KB costs ~40 µs (measured with getAll, 10k events of the bench's ledger: 440–550 ms one per
 * record, 80–130 ms in runs of 1,000; runs of up to 80 events, under 64 KB, were as slow as one
 * per record). Opening a ledger, and the export and verify Workers, read every event.
 */
export const largestRun = 1_000;

/** The records that store `events` (consecutive, in seq order) as runs of at most largestRun. */
export function eventRunRecords(events: readonly LedgerEvent[]): QueuedRecord[] {
	const records: QueuedRecord[] = [];
	for (let start = 0; start < events.length; start += largestRun) {
		const run = events.slice(start, start + largestRun);
		records.push({ store: ledgerStores.events, key: (run[0] as LedgerEvent).seq, value: run });
	}
	return records;
}

/** A stored record's place: its key and how many events it holds. */
export interface StoredRun {
	key: number;
	count: number;
}

export interface StoredEvents {
	events: LedgerEvent[];
	runs: StoredRun[];
	/** The first record that is not a run of sealed events under their own seqs, right after the one before. */
	problem: string | null;
}

/**
 * The events of stored records (in key order). Each event must be sealed and sit under its own
 * seq (a run's key plus its position), and each record must start right after the one before
 * (at `firstSeq` for the first, when given): a record edited, moved, duplicated or dropped is a
 * problem, and the events before it are returned.
 */
export function eventsOfRecords(
	records: readonly StoredRecord[],
	firstSeq?: number,
	/** Events after this seq are neither checked nor returned (a Worker reading up to a seq). */
	lastSeq = Infinity
): StoredEvents {
	const events: LedgerEvent[] = [];
	const runs: StoredRun[] = [];
	let expected = firstSeq;
	for (const record of records) {
		const key = record.key;
		const run: unknown[] = Array.isArray(record.value) ? record.value : [record.value];
		const problem = (reason: string) => ({
			events,
			runs,
			problem: `stored event under key ${String(key)} ${reason}`
		});
		// Past what was asked for: not read, so nothing there can fail the read.
		if (typeof key === 'number' && key > lastSeq) break;
		if (typeof key !== 'number' || run.length === 0 || run.length > largestRun) {
			return problem('is not a run of sealed events');
		}
		for (let position = 0; position < run.length && key + position <= lastSeq; position++) {
			// The events before a bad one in the same run are kept, as they were one per record.
			if (!isSealedEvent(run[position], key + position)) {
				return problem('is not a sealed event with that seq');
			}
			if (position === 0 && expected !== undefined && key !== expected) {
				return problem(
					expected === 1
						? 'comes first, but a ledger starts at seq 1'
						: `does not follow the stored event ${expected - 1}`
				);
			}
			events.push(run[position] as LedgerEvent);
		}
		runs.push({ key, count: run.length });
		expected = key + run.length;
	}
	return { events, runs, problem: null };
}

function isSealedEvent(value: unknown, seq: number): boolean {
	if (typeof value !== 'object' || value === null) return false;
	const event = value as Partial<LedgerEvent>;
	return typeof event.type === 'string' && typeof event.hash === 'string' && event.seq === seq;
}

/**
 * The writes that merge neighbouring small runs into runs of up to largestRun (the events are
 * `events`, as read with `runs`): a run stored per commit holds a few events, and a ledger of a
 * thousand tool calls would otherwise be read a few events at a time. Runs already full stay;
 * at most `groups` merged runs are written. Empty when nothing would merge.
 */
export function compactionRecords(
	events: readonly LedgerEvent[],
	runs: readonly StoredRun[],
	{ groups = Infinity }: { groups?: number } = {}
): QueuedRecord[] {
	const records: QueuedRecord[] = [];
	let merged = 0;
	let offset = 0;
	let group: StoredRun[] = [];
	let groupCount = 0;
	let groupOffset = 0;
	const flushGroup = () => {
		if (group.length > 1 && merged < groups) {
			merged++;
			const first = group[0] as StoredRun;
			for (const run of group.slice(1)) {
				records.push({ store: ledgerStores.events, key: run.key, delete: true });
			}
			records.push({
				store: ledgerStores.events,
				key: first.key,
				value: events.slice(groupOffset, groupOffset + groupCount)
			});
		}
		group = [];
		groupCount = 0;
	};
	for (const run of runs) {
		if (groupCount + run.count > largestRun) flushGroup();
		if (group.length === 0) groupOffset = offset;
		group.push(run);
		groupCount += run.count;
		offset += run.count;
	}
	flushGroup();
	return records;
}
