import { expect, it } from 'vitest';
import type { LedgerEventDraft } from '../../../hooks/ledger/ledger-event.js';
import { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { IndexedDbLedger } from './indexeddb-ledger.js';
import { freshDatabaseName, openLedgerStore } from './ledger-test-kit.js';

// Figures, not assertions (timings vary with the machine): prints one line
// `THREADLINE_BENCH {json}` with the IndexedDB ledger append time in Chromium: one tool-decision
// event sealed (both chains) and stored in its own readwrite transaction, as the pipeline does.
// Run: npx vitest run --config vitest.browser.config.ts --project browser-bench

const warmup = 50;
const samples = 500;

it('measures IndexedDB ledger appends', async () => {
	const name = freshDatabaseName();
	const store = await openLedgerStore(name, { flushDelayMs: 0 });
	try {
		const ledger = await IndexedDbLedger.open({ store });
		const draft = (index: number): LedgerEventDraft => ({
			type: 'tool-decision',
			session_id: 'bench',
			tool: 'write_to_file',
			tool_call_id: `call-${index}`,
			decision: 'allow',
			hooks: ['gatekeeper', 'scope'],
			intent_id: 'INT-001'
		});
		for (let index = 0; index < warmup; index++) await ledger.append([draft(index)]);
		const timings: number[] = [];
		for (let index = 0; index < samples; index++) {
			const started = performance.now();
			await ledger.append([draft(warmup + index)]);
			timings.push(performance.now() - started);
		}
		// Correctness, so a broken run cannot report a fast wrong answer.
		expect(ledger.lastSeq).toBe(warmup + samples);
		timings.sort((left, right) => left - right);
		const at = (fraction: number) =>
			timings[Math.min(timings.length - 1, Math.floor(fraction * timings.length))] ?? 0;
		const round = (value: number) => Math.round(value * 1000) / 1000;
		const figures = {
			indexeddb_ledger_append: {
				median_ms: round(at(0.5)),
				p95_ms: round(at(0.95)),
				p99_ms: round(at(0.99)),
				samples,
				budget: { p95_ms: 10 },
				within_budget: at(0.95) <= 10
			}
		};
		console.log(`THREADLINE_BENCH ${JSON.stringify(figures)}`);
	} finally {
		await store.close();
		await IndexedDbWorkspaceFiles.deleteDatabase(name);
	}
});
