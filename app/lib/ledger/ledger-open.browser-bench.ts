import { expect, it } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { checkpointRecord, IndexedDbLedger } from './indexeddb-ledger.js';
import { eventRunRecords } from './event-runs.js';
import { freshDatabaseName, openLedgerStore } from './ledger-test-kit.js';
import { headsAfter } from './stored-chain-check.js';

// Figures, not assertions: prints `THREADLINE_BENCH {json}` with the time `IndexedDbLedger.open`
// takes in Chromium for a stored ledger of 10k and of 100k events with its verified checkpoint
// (the bench's own 100k-event ledger, left by `npm run bench` in node_modules/.cache/), and the
// time until the rest of its history is read and linked (whenHistoryLoaded: writes, events() and
// diffs wait for it). The full check that follows runs in the verify Worker and is not timed.

const folder = '/node_modules/.cache/threadline-bench';

async function storedLedger(events: readonly LedgerEvent[]): Promise<string> {
	const name = freshDatabaseName();
	const store = await openLedgerStore(name, { flushDelayMs: 0 });
	for (let start = 0; start < events.length; start += 5_000) {
		store.queueRecords(
			// Stored as the app stores them once merged: runs of a thousand (event-runs.ts).
			eventRunRecords(events.slice(start, start + 5_000))
		);
		await store.flush();
	}
	store.queueRecords([checkpointRecord(headsAfter(events))]);
	await store.flush();
	await store.close();
	return name;
}

async function timeOpen(
	events: readonly LedgerEvent[],
	runs = 3
): Promise<{ open: number; history: number }> {
	let phase = performance.now();
	const name = await storedLedger(events);
	console.log(`stored ${events.length} events in ${Math.round(performance.now() - phase)} ms`);
	const timings: number[] = [];
	const histories: number[] = [];
	try {
		for (let run = 0; run < runs; run++) {
			const started = performance.now();
			const store = await openLedgerStore(name, { flushDelayMs: 0 });
			const ledger = await IndexedDbLedger.open({ store });
			timings.push(performance.now() - started);
			expect(ledger.integrity).toEqual({ ok: true });
			expect(ledger.lastSeq).toBe(events.length);
			await ledger.whenHistoryLoaded();
			histories.push(performance.now() - started);
			expect(ledger.integrity).toEqual({ ok: true });
			expect(ledger.eventsSince(0)).toHaveLength(events.length);
			phase = performance.now();
			expect(await ledger.whenFullyChecked()).toEqual({ ok: true });
			console.log(`full check in the Worker: ${Math.round(performance.now() - phase)} ms`);
			await store.close();
		}
	} finally {
		await IndexedDbWorkspaceFiles.deleteDatabase(name);
	}
	return { open: median(timings), history: median(histories) };
}

function median(values: number[]): number {
	const sorted = [...values].sort((left, right) => left - right);
	return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 10) / 10;
}

it('measures opening a stored ledger with its checkpoint', async () => {
	const response = await fetch(`${folder}/audit.jsonl`);
	if (!response.ok) {
		console.log(
			`THREADLINE_BENCH ${JSON.stringify({ ledger_open: { error: 'no bench ledger: run npm run bench' } })}`
		);
		return;
	}
	const text = await response.text();
	const events = text
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => JSON.parse(line) as LedgerEvent);
	const tenThousand = await timeOpen(events.slice(0, 10_000));
	const hundredThousand = await timeOpen(events, 1);
	const figures = {
		ledger_open: {
			events_10k_ms: tenThousand.open,
			events_100k_ms: hundredThousand.open,
			history_loaded_10k_ms: tenThousand.history,
			history_loaded_100k_ms: hundredThousand.history,
			note: 'IndexedDbLedger.open with the verified checkpoint present: the runs from the checkpoint’s on are read and checked (links, hashes after the checkpoint) and the ledger is usable; history_loaded_*: from the same start until the rest of the history is read and every link checked (writes, events() and diffs wait for it); the full check runs afterwards in the verify Worker (not timed). Median of 3 runs for 10k, one run for 100k.',
			budget: { events_10k_ms: 150, events_100k_ms: 600 },
			within_budget: tenThousand.open <= 150 && hundredThousand.open <= 600
		}
	};
	console.log(`THREADLINE_BENCH ${JSON.stringify(figures)}`);
}, 600_000);
