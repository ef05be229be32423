import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedDatabase } from './embedded-database.js';
import { migrate } from './migrations.js';
import type { SqlDatabase } from './sql-database.js';

// The embedded database as the class store uses it: rows and errors as PostgreSQL gives them, one
// session at a time, the rehearsal leaving nothing behind, and a folder that keeps its data.

describe('the embedded database', () => {
	let database: SqlDatabase;

	beforeAll(async () => {
		database = await openEmbeddedDatabase(null);
		await database.query('CREATE TABLE notes (id integer PRIMARY KEY, text text, at timestamptz)');
	}, 60_000);
	afterAll(async () => {
		await database.close();
	});

	it('answers rows with their types (integers, arrays, timestamps)', async () => {
		const rows = await database.query<{ number: number; list: string[]; at: Date }>(
			"SELECT 41 + 1 AS number, $1::text[] AS list, '2026-11-26T05:00:00Z'::timestamptz AS at",
			[['a', 'b"c']]
		);
		expect(rows).toEqual([
			{ number: 42, list: ['a', 'b"c'], at: new Date('2026-11-26T05:00:00Z') }
		]);
	});

	it('does not zero-fill new write-ahead-log segments (a 20–50 ms stall under load)', async () => {
		expect(await database.query('SHOW wal_init_zero')).toEqual([{ wal_init_zero: 'off' }]);
	});

	it('commits a transaction, and rolls back one that throws', async () => {
		await database.transaction(async (transaction) => {
			await transaction.query('INSERT INTO notes (id, text) VALUES (1, $1)', ['kept']);
		});
		const failure = new Error('changed my mind');
		await expect(
			database.transaction(async (transaction) => {
				await transaction.query('INSERT INTO notes (id, text) VALUES (2, $1)', ['dropped']);
				throw failure;
			})
		).rejects.toBe(failure);
		expect(await database.query('SELECT id, text FROM notes ORDER BY id')).toEqual([
			{ id: 1, text: 'kept' }
		]);
	});

	it("keeps PostgreSQL's error code and message", async () => {
		const error = await database
			.query('INSERT INTO notes (id, text) VALUES (1, $1)', ['again'])
			.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(Error);
		expect(error).toMatchObject({ code: '23505', constraint: 'notes_pkey' });
		expect((error as Error).message).toMatch(/duplicate key/);
	});

	it('runs a query asked for during a transaction after that transaction', async () => {
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		const transaction = database.transaction(async (executor) => {
			await executor.query('INSERT INTO notes (id, text) VALUES (10, $1)', ['inside']);
			await held;
			await executor.query('UPDATE notes SET text = $1 WHERE id = 10', ['committed']);
		});
		const read = database.query<{ text: string }>('SELECT text FROM notes WHERE id = 10');
		release();
		await transaction;
		// Had it run between the transaction's statements it would have seen 'inside' (PGlite is
		// one connection); it sees the committed row.
		expect(await read).toEqual([{ text: 'committed' }]);
	});
});

describe('rehearsing appends', () => {
	it('runs batches and keeps nothing of them, not even dead rows', async () => {
		const database = await openEmbeddedDatabase(null);
		const size = async () =>
			Number(
				(
					await database.query<{ bytes: string }>(
						"SELECT pg_total_relation_size('ledger_events') AS bytes"
					)
				)[0]?.bytes
			);
		try {
			await migrate(database);
			const before = await size();
			const batches = await database.rehearseAppends?.(300);
			expect(batches).toBeGreaterThan(0);
			// Each start rehearses again: rolled back in the real tables, dead rows piled up.
			expect(await size()).toBe(before);
			await database.rehearseAppends?.(300);
			expect(await size()).toBe(before);
			const counts = await database.query<{ learners: number; ledgers: number; events: number }>(
				`SELECT (SELECT count(*) FROM learners)::int AS learners,
					(SELECT count(*) FROM ledgers)::int AS ledgers,
					(SELECT count(*) FROM ledger_events)::int AS events`
			);
			expect(counts).toEqual([{ learners: 0, ledgers: 0, events: 0 }]);
		} finally {
			await database.close();
		}
	}, 60_000);
});

describe('a folder', () => {
	const folder = mkdtempSync(join(tmpdir(), 'threadline-embedded-'));
	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	it('keeps what was committed, and refuses queries once closed', async () => {
		const first = await openEmbeddedDatabase(folder);
		await first.query('CREATE TABLE kept (value text)');
		await first.query('INSERT INTO kept VALUES ($1)', ['across a restart']);
		await first.close();
		await expect(first.query('SELECT 1')).rejects.toThrow(/closed/);

		const second = await openEmbeddedDatabase(folder);
		try {
			expect(await second.query('SELECT value FROM kept')).toEqual([{ value: 'across a restart' }]);
		} finally {
			await second.close();
		}
	}, 60_000);
});
