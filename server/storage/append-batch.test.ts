import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../../hooks/ledger/ledger-event.js';
import { fixtureEvents } from '../testing/ledger-fixture.js';
import { ClassStore, type AppendOutcome, type StoredEvent } from './class-store.js';
import { openEmbeddedDatabase } from './embedded-database.js';
import { migrate } from './migrations.js';

// Group commit: appends that arrive together are checked in arrival order against the heads the
// batch has moved so far, and written in a constant number of statements.

const stored = (events: readonly LedgerEvent[]): StoredEvent[] =>
	events.map((event) => ({
		seq: event.seq,
		prev_hash: event.prev_hash,
		hash: event.hash,
		line: JSON.stringify(event),
		type: event.type,
		...('decision' in event ? { decision: String(event.decision) } : {})
	}));

describe('appends sharing one transaction', () => {
	let store: ClassStore;
	let events: LedgerEvent[];
	const at = '2026-11-25T12:00:00.000Z';

	// One database for the file (PGlite takes seconds to start); each test has ledgers of its own.
	beforeAll(async () => {
		const database = await openEmbeddedDatabase(null);
		await migrate(database);
		store = new ClassStore(database);
		await store.createLearner({ id: 'ada', name: 'Ada' }, 'hash-ada');
		await store.createLearner({ id: 'bob', name: 'Bob' }, 'hash-bob');
		events = await fixtureEvents(12);
	}, 60_000);
	afterAll(async () => {
		await store.close();
	});

	/** Queues every append before the first settles, so they share a batch. */
	const together = (
		appends: { ledger: string; learner: string; events: readonly LedgerEvent[] }[]
	): Promise<AppendOutcome[]> =>
		Promise.all(
			appends.map((append) =>
				store.appendEvents(append.ledger, append.learner, stored(append.events), at)
			)
		);

	it('lets a later append of the same ledger extend an earlier one in the batch', async () => {
		const outcomes = await together([
			{ ledger: 'ledger-0-one', learner: 'ada', events: events.slice(0, 4) },
			{ ledger: 'ledger-0-one', learner: 'ada', events: events.slice(4, 8) },
			{ ledger: 'ledger-0-two', learner: 'bob', events: events.slice(0, 3) }
		]);
		expect(outcomes.map((outcome) => outcome.ok && outcome.seq)).toEqual([4, 8, 3]);
		expect((await store.ledgerLines('ledger-0-one')).map((line) => JSON.parse(line).seq)).toEqual([
			1, 2, 3, 4, 5, 6, 7, 8
		]);
		const summary = await store.ledger('ledger-0-one');
		expect(summary).toMatchObject({ head_seq: 8, head_hash: events[7]?.hash });
	});

	it('accepts a retried append whose events the batch already added, and refuses a rewrite of them', async () => {
		const rewritten = { ...events[2], hash: 'f'.repeat(64) } as LedgerEvent;
		const outcomes = await together([
			{ ledger: 'ledger-1-one', learner: 'ada', events: events.slice(0, 4) },
			{ ledger: 'ledger-1-one', learner: 'ada', events: events.slice(2, 6) },
			{ ledger: 'ledger-1-one', learner: 'ada', events: [rewritten] }
		]);
		expect(outcomes[0]).toMatchObject({ ok: true, seq: 4, stored: 4 });
		expect(outcomes[1]).toMatchObject({ ok: true, seq: 6, stored: 2 });
		expect(outcomes[2]).toMatchObject({ ok: false, reason: 'fork', storedSeq: 6 });
		expect(await store.forks('ledger-1-one')).toHaveLength(1);
		expect(await store.ledgerLines('ledger-1-one')).toHaveLength(6);
	});

	it("refuses another learner's ledger and a gap, whatever else the batch holds", async () => {
		await store.appendEvents('ledger-2-one', 'ada', stored(events.slice(0, 2)), at);
		const outcomes = await together([
			{ ledger: 'ledger-2-one', learner: 'bob', events: events.slice(2, 3) },
			{ ledger: 'ledger-2-one', learner: 'ada', events: events.slice(5, 7) },
			{ ledger: 'ledger-2-one', learner: 'ada', events: events.slice(2, 3) }
		]);
		expect(outcomes[0]).toEqual({ ok: false, reason: 'foreign' });
		expect(outcomes[1]).toMatchObject({ ok: false, reason: 'fork' });
		expect(outcomes[2]).toMatchObject({ ok: true, seq: 3 });
		expect((await store.ledger('ledger-2-one'))?.learner.id).toBe('ada');
	});

	it('counts mutation records and denied calls on the head', async () => {
		await together([{ ledger: 'ledger-3-one', learner: 'ada', events }]);
		const summary = await store.ledger('ledger-3-one');
		const mutations = events.filter((event) => event.type === 'mutation-record').length;
		const denied = events.filter(
			(event) =>
				event.type === 'tool-decision' && (event as { decision?: string }).decision === 'deny'
		).length;
		expect(summary).toMatchObject({ mutations, blocked: denied, head_seq: 12 });
	});
});
