import type { SqlExecutor } from './sql-database.js';

/**
 * Where the store's copy of a learner's own ledger ends, or null when the learner has no ledger
 * with this id: one primary-key lookup filtered by learner, the same work whether the id does
 * not exist or belongs to another learner, so neither answer nor time tells them apart.
 */
export async function learnerLedgerHead(
	database: SqlExecutor,
	ledgerId: string,
	learnerId: string
): Promise<{ seq: number; hash: string } | null> {
	const rows = await database.query<{ head_seq: number; head_hash: string }>(
		'SELECT head_seq, head_hash FROM ledgers WHERE id = $1 AND learner_id = $2',
		[ledgerId, learnerId]
	);
	const row = rows[0];
	return row ? { seq: Number(row.head_seq), hash: row.head_hash } : null;
}
