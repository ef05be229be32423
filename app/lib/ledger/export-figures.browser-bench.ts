import { unzipSync } from 'fflate';
import { expect, it } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { exportInWorker } from './export-in-worker.js';
import { eventRunRecords } from './event-runs.js';
import { ledgerStores } from './ledger-record-store.js';
import { freshDatabaseName, openLedgerStore } from './ledger-test-kit.js';

// Figures, not assertions: prints `THREADLINE_BENCH {json}` with the export of 10k trace records
// (the first ~42k events of the bench's ledger, stored in IndexedDB) through the export Worker,
// and the longest main-thread task meanwhile (PerformanceObserver 'longtask', which reports tasks
// over 50 ms; none means none was longer).

const folder = '/node_modules/.cache/threadline-bench';

it('measures the export Worker and the page’s longest task meanwhile', async () => {
	const response = await fetch(`${folder}/audit.jsonl`);
	if (!response.ok) {
		console.log(
			`THREADLINE_BENCH ${JSON.stringify({ export_browser: { error: 'no bench ledger: run npm run bench' } })}`
		);
		return;
	}
	const all = (await response.text()).split('\n').filter((line) => line !== '');
	const events: LedgerEvent[] = [];
	let traceRecords = 0;
	for (const line of all) {
		const event = JSON.parse(line) as LedgerEvent;
		events.push(event);
		if (event.type === 'mutation-record') traceRecords++;
		if (traceRecords === 10_000) break;
	}
	const name = freshDatabaseName();
	const store = await openLedgerStore(name, { flushDelayMs: 0 });
	try {
		for (let start = 0; start < events.length; start += 5_000) {
			// Stored as the app stores them once merged: runs of a thousand (event-runs.ts).
			store.queueRecords(eventRunRecords(events.slice(start, start + 5_000)));
			await store.flush();
		}
		const longTasks: number[] = [];
		const observer = new PerformanceObserver((list) => {
			for (const entry of list.getEntries()) longTasks.push(entry.duration);
		});
		observer.observe({ type: 'longtask', buffered: false });
		const started = performance.now();
		const zip = await exportInWorker({
			events: { kind: 'database', name, store: ledgerStores.events, upToSeq: events.length },
			activeIntentsYaml: 'active_intents: []\n',
			intents: [],
			files: new Map([['README.md', new TextEncoder().encode('# bench\n')]]),
			folder: 'bench'
		});
		const exportMs = performance.now() - started;
		// Long tasks are reported after they end: give the observer a moment.
		await new Promise((resolve) => setTimeout(resolve, 100));
		observer.disconnect();
		const audit = unzipSync(zip, {
			filter: (file) => file.name === 'bench/.orchestration/audit.jsonl'
		})['bench/.orchestration/audit.jsonl'];
		expect(audit?.length).toBeGreaterThan(0);
		const longest = longTasks.length === 0 ? 0 : Math.max(...longTasks);
		const figures = {
			export_browser: {
				events: events.length,
				trace_records_in_browser: traceRecords,
				export_ms_browser_worker: Math.round(exportMs),
				zip_mb_browser: Math.round((zip.length / 1024 / 1024) * 10) / 10,
				longest_main_thread_task_ms: Math.round(longest),
				main_thread_long_tasks: longTasks.length,
				long_task_budget: { longest_main_thread_task_ms: 50 },
				long_task_within_budget: longest <= 50
			}
		};
		console.log(`THREADLINE_BENCH ${JSON.stringify(figures)}`);
	} finally {
		await store.close();
		await IndexedDbWorkspaceFiles.deleteDatabase(name);
	}
}, 600_000);
