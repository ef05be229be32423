import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
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
		close: () => database.close()
	};
}
