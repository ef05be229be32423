import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { rehearseAppends } from './append-rehearsal.js';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';

/**
 * The default store: PGlite (PostgreSQL in WebAssembly) in a folder. No native build and the same
 * SQL as the PostgreSQL server. One process may open a folder at a time: run one app instance
 * with the embedded store (several instances share a PostgreSQL server instead).
 * `folder` null keeps everything in memory (tests).
 */
export async function openEmbeddedDatabase(folder: string | null): Promise<SqlDatabase> {
	if (folder !== null) await mkdir(folder, { recursive: true, mode: 0o700 });
	const database = await PGlite.create(folder === null ? {} : { dataDir: folder });
	// A new write-ahead-log segment is 16 MB: zero-filling it stalled a batch of appends for
	// 20–50 ms every few seconds under the class bench's load. Off is PostgreSQL's own setting for
	// file systems that do not need the zeros; PGlite runs with fsync off, so they bought no
	// durability here (server/CONTEXT.md, "Durability").
	await database.exec('SET wal_init_zero = off');
	const executor = (target: Pick<PGlite, 'query'>): SqlExecutor => ({
		async query<Row>(sql: string, parameters: unknown[] = []) {
			const result = await target.query<Row>(sql, parameters);
			return result.rows;
		}
	});
	return {
		kind: 'embedded',
		...executor(database),
		transaction: (work) => database.transaction((transaction) => work(executor(transaction))),
		async rehearseAppends(milliseconds) {
			let batches = 0;
			const rolledBack = new Error('rehearsal over');
			await database
				.transaction(async (transaction) => {
					batches = await rehearseAppends(executor(transaction), milliseconds);
					throw rolledBack;
				})
				.catch((error: unknown) => {
					if (error !== rolledBack) throw error;
				});
			return batches;
		},
		close: () => database.close()
	};
}
