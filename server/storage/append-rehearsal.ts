import { randomUUID } from 'node:crypto';
import { genesisHash } from '../../hooks/ledger/ledger-event.js';
import type { PendingAppend } from './append-batch.js';
import type { SqlExecutor } from './sql-database.js';
import { appendBatchWithinQuotas, unlimitedQuotas } from './storage-quota.js';

/**
 * A rehearsal of the group commit, run when the embedded database opens, on temporary copies of
 * the tables inside a transaction that is then rolled back: nothing of it is kept. Why: PGlite is WebAssembly, and V8 first runs
 * it with its baseline compiler, optimising the hot functions only after they have run a while
 * (as it does the JavaScript around them). Measured with the class bench (200 learners starting
 * at once, 400 appends/s): a cold server answered its first seconds of receipts in up to 100+ ms
 * and set the p99 by itself; after a few seconds of appends the same server's p99 was 18 ms.
 *
 * Appends `ledgers` made-up ledgers of a made-up learner, `eventsPerAppend` events each, batch
 * after batch, for about `milliseconds`; returns the number of batches.
 */
export async function rehearseAppends(
	transaction: SqlExecutor,
	milliseconds: number,
	{ ledgers = 8, eventsPerAppend = 5 } = {}
): Promise<number> {
	// Temporary tables of the same shape shadow the real ones for this transaction (a session's
	// temporary schema is searched first), so the same statements run without touching them:
	// rolled-back rows in the real tables would stay behind as dead rows, and PGlite runs no
	// autovacuum (measured: ledger_events grew ~12 MB per start; vacuumed, still ~5 MB creeping).
	for (const table of [
		'learners',
		'ledgers',
		'ledger_events',
		'learner_usage',
		'log_leaves',
		'log_state'
	])
		await transaction.query(
			`CREATE TEMPORARY TABLE ${table} (LIKE public.${table} INCLUDING ALL) ON COMMIT DROP`
		);
	const learnerId = `rehearsal-${randomUUID()}`;
	await transaction.query('INSERT INTO learners (id, token_hash, name) VALUES ($1, $2, $3)', [
		learnerId,
		learnerId,
		'rehearsal'
	]);
	// About the size of a real event's canonical line.
	const line = JSON.stringify({ type: 'rehearsal', text: 'x'.repeat(600) });
	const heads = Array.from({ length: ledgers }, (_, index) => ({
		ledgerId: `${learnerId}-${index}`,
		seq: 0,
		hash: genesisHash
	}));
	let counter = 0;
	const nextHash = () => `sha256:${(++counter).toString(16).padStart(64, '0')}`;
	const receivedAt = new Date().toISOString();
	let batches = 0;
	const started = performance.now();
	while (performance.now() - started < milliseconds) {
		const appends: PendingAppend[] = heads.map((head) => {
			const events = Array.from({ length: eventsPerAppend }, () => {
				const event = { seq: ++head.seq, prev_hash: head.hash, hash: nextHash() };
				head.hash = event.hash;
				return { ...event, line, type: 'rehearsal' };
			});
			return { ledgerId: head.ledgerId, learnerId, events, receivedAt };
		});
		// Through the quota checks, as every real batch (unlimited: the rehearsal learner is made up).
		await appendBatchWithinQuotas(transaction, appends, unlimitedQuotas);
		batches++;
	}
	return batches;
}
