import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type { QueuedRecord } from '../../../sandbox/local/indexeddb-workspace-files.js';
import {
	compactionRecords,
	eventRunRecords,
	eventsOfRecords,
	largestRun,
	type StoredRun
} from './event-runs.js';

/** Sealed-looking events: what eventsOfRecords checks is the shape and the seq. */
const events = (from: number, count: number): LedgerEvent[] =>
	Array.from(
		{ length: count },
		(_, index) =>
			({ seq: from + index, type: 'lesson-record', hash: `h${from + index}` }) as LedgerEvent
	);

/** A store as a sorted map of key → value, with queued writes applied in order. */
function applied(stored: Map<number, unknown>, records: readonly QueuedRecord[]) {
	const next = new Map(stored);
	for (const record of records) {
		if ('delete' in record) next.delete(record.key as number);
		else next.set(record.key as number, record.value);
	}
	return [...next.entries()]
		.sort(([left], [right]) => left - right)
		.map(([key, value]) => ({ key, value }));
}

describe('event runs', () => {
	it('stores events as runs of at most largestRun under their first seq, and reads them back', () => {
		const all = events(1, largestRun * 2 + 5);
		const records = eventRunRecords(all);
		expect(records.map((record) => record.key)).toEqual([1, largestRun + 1, 2 * largestRun + 1]);
		const read = eventsOfRecords(applied(new Map(), records), 1);
		expect(read).toEqual({
			events: all,
			runs: [
				{ key: 1, count: largestRun },
				{ key: largestRun + 1, count: largestRun },
				{ key: 2 * largestRun + 1, count: 5 }
			],
			problem: null
		});
	});

	it('reads a ledger stored one event per record, before runs, and one that mixes both', () => {
		const all = events(1, 6);
		const legacy = all.map((event) => ({ key: event.seq, value: event }));
		expect(eventsOfRecords(legacy, 1).events).toEqual(all);
		const mixed = [
			{ key: 1, value: all[0] },
			{ key: 2, value: all.slice(1, 4) },
			{ key: 5, value: all[4] },
			{ key: 6, value: [all[5]] }
		];
		expect(eventsOfRecords(mixed, 1)).toMatchObject({ events: all, problem: null });
	});

	it('names the first record that is edited, moved, duplicated, overlapping or missing', () => {
		const all = events(1, 6);
		const cases: [string, { key: unknown; value: unknown }[], number, string][] = [
			[
				'an event under another seq',
				[
					{ key: 1, value: all.slice(0, 2) },
					{ key: 7, value: all[2] }
				],
				2,
				'key 7 is not a sealed event with that seq'
			],
			[
				'a run with a wrong seq inside (the events before it are kept)',
				[{ key: 1, value: [all[0], all[2]] }],
				1,
				'key 1 is not a sealed event with that seq'
			],
			[
				'a gap',
				[
					{ key: 1, value: all.slice(0, 2) },
					{ key: 4, value: all.slice(3, 5) }
				],
				2,
				'key 4 does not follow the stored event 2'
			],
			[
				'an overlap',
				[
					{ key: 1, value: all.slice(0, 3) },
					{ key: 3, value: all.slice(2, 5) }
				],
				3,
				'key 3 does not follow the stored event 3'
			],
			[
				'a first record after seq 1',
				[{ key: 2, value: all.slice(1, 3) }],
				0,
				'key 2 comes first, but a ledger starts at seq 1'
			],
			['an empty run', [{ key: 1, value: [] }], 0, 'key 1 is not a run of sealed events'],
			[
				'a key that is not a seq',
				[{ key: '1', value: all[0] }],
				0,
				'key 1 is not a run of sealed events'
			],
			[
				'something else',
				[{ key: 1, value: 'text' }],
				0,
				'key 1 is not a sealed event with that seq'
			],
			[
				'an unsealed event',
				[{ key: 1, value: { seq: 1, type: 'lesson-record' } }],
				0,
				'key 1 is not a sealed event with that seq'
			],
			[
				'a run too long',
				[{ key: 1, value: events(1, largestRun + 1) }],
				0,
				'key 1 is not a run of sealed events'
			]
		];
		for (const [label, records, kept, problem] of cases) {
			const read = eventsOfRecords(records as { key: IDBValidKey; value: unknown }[], 1);
			expect(read.events, label).toEqual(all.slice(0, kept));
			expect(read.problem, label).toBe(`stored event under ${problem}`);
		}
	});

	it('reads up to a seq without looking at the events after it', () => {
		const all = events(1, 6);
		const damagedAfter = [{ key: 1, value: [...all.slice(0, 4), { seq: 99 }] }];
		expect(eventsOfRecords(damagedAfter, 1, 4)).toMatchObject({
			events: all.slice(0, 4),
			problem: null
		});
		expect(eventsOfRecords(damagedAfter, 1).problem).toBe(
			'stored event under key 1 is not a sealed event with that seq'
		);
		const later = [
			{ key: 1, value: all.slice(0, 3) },
			// Not even a run: past seq 3, so never looked at.
			{ key: 4, value: [] }
		];
		expect(eventsOfRecords(later, 1, 3)).toMatchObject({ events: all.slice(0, 3), problem: null });
	});

	it('reads a window that starts inside the ledger when no first seq is asked for', () => {
		const all = events(1, 10);
		const window = [
			{ key: 4, value: all.slice(3, 8) },
			{ key: 9, value: all.slice(8) }
		];
		expect(eventsOfRecords(window)).toMatchObject({ events: all.slice(3), problem: null });
	});

	it('merges small runs into runs of at most largestRun, leaving full ones, and reads the same events', () => {
		const all = events(1, largestRun + 30);
		// A full run, then commits of 1 to 4 events.
		const stored = new Map<number, unknown>([[1, all.slice(0, largestRun)]]);
		const runs: StoredRun[] = [{ key: 1, count: largestRun }];
		for (let start = largestRun; start < all.length;) {
			const count = Math.min(1 + (start % 4), all.length - start);
			stored.set(start + 1, all.slice(start, start + count));
			runs.push({ key: start + 1, count });
			start += count;
		}
		const records = compactionRecords(all, runs);
		expect(records.some((record) => record.key === 1)).toBe(false);
		const after = applied(stored, records);
		expect(after.map((record) => record.key)).toEqual([1, largestRun + 1]);
		expect(eventsOfRecords(after, 1)).toMatchObject({ events: all, problem: null });
		// Nothing left to merge.
		expect(compactionRecords(all, eventsOfRecords(after, 1).runs)).toEqual([]);
	});

	it('writes at most the merged runs it is allowed, each still whole', () => {
		const all = events(1, 3 * largestRun);
		const runs: StoredRun[] = all.map((event) => ({ key: event.seq, count: 1 }));
		const stored = new Map<number, unknown>(all.map((event) => [event.seq, event]));
		const records = compactionRecords(all, runs, { groups: 2 });
		const after = applied(stored, records);
		expect(after).toHaveLength(2 + largestRun);
		expect(eventsOfRecords(after, 1)).toMatchObject({ events: all, problem: null });
	});
});
