import pg from 'pg';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';

/**
 * A PostgreSQL server (DATABASE_URL). Several app instances may share it: appends to one ledger
 * are serialised by a row lock on the ledger and the (ledger, seq) primary key.
 */
export async function openPostgresDatabase(
	connectionString: string,
	options: { maxConnections?: number } = {}
): Promise<SqlDatabase> {
	const pool = new pg.Pool({ connectionString, max: options.maxConnections ?? 10 });
	// An idle client that loses its server must not crash the process.
	pool.on('error', (error) => console.error(`class store: PostgreSQL: ${error.message}`));
	// Fail at start, not at the first learner's request, when the server is unreachable.
	const probe = await pool.connect();
	probe.release();
	const executor = (target: Pick<pg.Pool, 'query'>): SqlExecutor => ({
		async query<Row>(sql: string, parameters: unknown[] = []) {
			const result = await target.query(sql, parameters);
			return result.rows as Row[];
		}
	});
	return {
		kind: 'postgresql',
		...executor(pool),
		async transaction(work) {
			const client = await pool.connect();
			try {
				await client.query('BEGIN');
				const result = await work(executor(client));
				await client.query('COMMIT');
				return result;
			} catch (error) {
				await client.query('ROLLBACK').catch(() => undefined);
				throw error;
			} finally {
				client.release();
			}
		},
		close: () => pool.end()
	};
}
