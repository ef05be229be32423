/**
 * The one SQL surface the class store is written against. Both backends speak PostgreSQL's
 * dialect (PGlite is PostgreSQL compiled to WebAssembly), so one set of queries serves both.
 */
export interface SqlExecutor {
	query<Row = Record<string, unknown>>(sql: string, parameters?: unknown[]): Promise<Row[]>;
}

export interface SqlDatabase extends SqlExecutor {
	/** `embedded` (PGlite in THREADLINE_DATA_DIR) or `postgresql` (DATABASE_URL). */
	readonly kind: 'embedded' | 'postgresql';
	/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
	transaction<Result>(work: (transaction: SqlExecutor) => Promise<Result>): Promise<Result>;
	close(): Promise<void>;
	/**
	 * Runs the group commit for about `milliseconds` on made-up ledgers and rolls it all back, so
	 * the first learners' appends do not pay for a cold engine (append-rehearsal.ts). The number
	 * of batches rehearsed.
	 */
	rehearseAppends?(milliseconds: number): Promise<number>;
}
