import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../../hooks/ledger/ledger-event.js';
import { fixtureEvents } from '../testing/ledger-fixture.js';
import { appendBatchInTransaction, StaleHeadError } from './append-batch.js';
import { ClassStore, type AppendOutcome, type StoredEvent } from './class-store.js';
import type { SqlExecutor } from './sql-database.js';
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
	}, 60_000);
	// A history of its own per test: the store binds a ledger to its first event.
	beforeEach(async () => {
		events = await fixtureEvents(12);
	});
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
			{ ledger: 'ledger-0-two', learner: 'bob', events: (await fixtureEvents(3)).slice(0, 3) }
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

	it('binds a ledger to its first event: a history held elsewhere is continued, refused as a copy or as a rewrite', async () => {
		await store.appendEvents('ledger-4-one', 'ada', stored(events.slice(0, 6)), at, 'jwt-auth');
		expect(await store.ledger('ledger-4-one')).toMatchObject({
			genesis_hash: events[0]?.hash,
			scenario: 'jwt-auth'
		});
		// The same learner, the same history, a new id (the browser lost its id): continue the first.
		expect(await store.appendEvents('ledger-4-two', 'ada', stored(events.slice(0, 8)), at)).toEqual(
			{ ok: false, reason: 'held', ledger: 'ledger-4-one' }
		);
		// Another learner sending it into their own fresh ledger: a copy, refused and recorded.
		expect(
			await store.appendEvents('ledger-4-bob', 'bob', stored(events.slice(0, 6)), at)
		).toMatchObject({ ok: false, reason: 'copy', kind: 'copy', sameLearner: false });
		// The owner, rewritten from seq 4 and re-chained, laundered under a fresh id.
		const rewritten = await fixtureEvents(4, events.slice(0, 3), { sessionId: 'laundered' });
		expect(
			await store.appendEvents(
				'ledger-4-new',
				'ada',
				stored([...events.slice(0, 3), ...rewritten]),
				at
			)
		).toMatchObject({ ok: false, reason: 'copy', kind: 'rewrite', fromSeq: 4, sameLearner: true });
		const copies = await store.copies('ledger-4-one');
		expect(copies.map((copy) => [copy.ledger, copy.kind, copy.from_seq])).toEqual([
			['ledger-4-bob', 'copy', 6],
			['ledger-4-new', 'rewrite', 4]
		]);
		expect(await store.ledgerLines('ledger-4-bob')).toEqual([]);
		expect(await store.ledgerLines('ledger-4-new')).toEqual([]);
	});

	it('lets only one of two ledgers starting the same history in one batch take it', async () => {
		const outcomes = await together([
			{ ledger: 'ledger-5-ada', learner: 'ada', events: events.slice(0, 3) },
			{ ledger: 'ledger-5-bob', learner: 'bob', events: events.slice(0, 3) }
		]);
		expect(outcomes[0]).toMatchObject({ ok: true, seq: 3 });
		expect(outcomes[1]).toMatchObject({ ok: false, reason: 'copy', kind: 'copy' });
	});

	it('moves a head only from the head it read: a head moved meanwhile fails the batch, never two heads', async () => {
		const ledger = 'ledger-6-stale';
		await store.appendEvents(ledger, 'ada', stored(events.slice(0, 2)), at);
		// Another writer moves the head between this batch's read and its write (as a writer that
		// ignored the row lock, or an isolation level weaker than assumed, would).
		// (In the batch's own transaction: the embedded database has one connection.)
		const meddling = (transaction: SqlExecutor): SqlExecutor => ({
			query: async (sql, parameters) => {
				if (sql.trimStart().startsWith('UPDATE ledgers AS l'))
					await transaction.query('UPDATE ledgers SET head_seq = 3, head_hash = $1 WHERE id = $2', [
						events[2]?.hash,
						ledger
					]);
				return transaction.query(sql, parameters);
			}
		});
		await expect(
			store.database.transaction((transaction) =>
				appendBatchInTransaction(meddling(transaction), [
					{ ledgerId: ledger, learnerId: 'ada', events: stored(events.slice(2, 4)), receivedAt: at }
				])
			)
		).rejects.toBeInstanceOf(StaleHeadError);
		// Rolled back: retried, the append extends the one stored head.
		expect(await store.appendEvents(ledger, 'ada', stored(events.slice(2, 4)), at)).toMatchObject({
			ok: true,
			seq: 4
		});
		expect((await store.ledgerLines(ledger)).map((line) => JSON.parse(line).seq)).toEqual([
			1, 2, 3, 4
		]);
	});

	it('gives every stored event one leaf of the class log, in order, and each receipt its head leaf', async () => {
		const outcomes = await together([
			{ ledger: 'ledger-7-one', learner: 'ada', events: events.slice(0, 3) },
			{ ledger: 'ledger-7-two', learner: 'bob', events: (await fixtureEvents(2)).slice(0, 2) }
		]);
		const [one, two] = outcomes.map((outcome) =>
			outcome.ok && 'log' in outcome ? outcome.log : undefined
		);
		expect(two?.index).toBe((one?.index ?? 0) + 2);
		const rows = await store.database.query<{ index: string; ledger_id: string; seq: number }>(
			'SELECT index, ledger_id, seq FROM log_leaves WHERE index > $1 - 3 AND index <= $2 ORDER BY index',
			[one?.index, two?.index]
		);
		expect(rows.map((row) => `${row.ledger_id}:${row.seq}`)).toEqual([
			'ledger-7-one:1',
			'ledger-7-one:2',
			'ledger-7-one:3',
			'ledger-7-two:1',
			'ledger-7-two:2'
		]);
	});
});
