import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { exportOrchestration } from '../../../hooks/ledger/export.js';
import { buildMixedLedger } from '../../../hooks/ledger/ledger-test-fixtures.js';
import { verifyLedger } from '../../../hooks/ledger/verify.js';
import { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { exportInWorker } from './export-in-worker.js';
import { IndexedDbLedger } from './indexeddb-ledger.js';
import { freshDatabaseName, openLedgerStore } from './ledger-test-kit.js';

// Runs in Chromium: the "Export .orchestration" zip built in the export Worker.

const names: string[] = [];
afterEach(async () => {
	for (const name of names.splice(0)) await IndexedDbWorkspaceFiles.deleteDatabase(name);
});

const decoder = new TextDecoder();

describe('exportInWorker', () => {
	it('zips the events it is given into an export that verifies', async () => {
		const { events, workspace } = await buildMixedLedger();
		const progress: number[] = [];
		const zip = await exportInWorker(
			{
				events: { kind: 'events', events },
				activeIntentsYaml: 'active_intents: []\n',
				intents: [],
				files: workspace,
				folder: 'demo'
			},
			(done) => progress.push(done)
		);
		const entries = unzipSync(zip);
		const audit = decoder.decode(entries['demo/.orchestration/audit.jsonl']);
		const trace = decoder.decode(entries['demo/.orchestration/agent_trace.jsonl']);
		const expected = exportOrchestration({
			events,
			activeIntentsYaml: '',
			agentMd: '',
			intents: []
		});
		expect(audit).toBe(expected.get('audit.jsonl'));
		expect((await verifyLedger({ auditJsonl: audit, traceJsonl: trace })).ok).toBe(true);
		expect(progress.length).toBeGreaterThan(0);
	});

	it('reads the stored events from IndexedDB itself (the ledger flushes first)', async () => {
		const name = freshDatabaseName();
		names.push(name);
		const store = await openLedgerStore(name, { flushDelayMs: 10_000 });
		const ledger = await IndexedDbLedger.open({ store });
		const { events } = await buildMixedLedger();
		const drafts = events.slice(0, 6).map((event) => {
			const { seq: _seq, hash: _hash, prev_hash: _prev, timestamp: _time, ...draft } = event;
			return draft as never;
		});
		await ledger.append(drafts);
		const source = await ledger.workerSource();
		expect(source).toMatchObject({ kind: 'database', name, upToSeq: 6 });
		const zip = await exportInWorker({
			events: source,
			activeIntentsYaml: '',
			intents: [],
			files: new Map()
		});
		const audit = decoder.decode(unzipSync(zip)['.orchestration/audit.jsonl']);
		expect(audit.trimEnd().split('\n')).toHaveLength(6);
		expect(audit).toBe(
			exportOrchestration({
				events: await ledger.events(),
				activeIntentsYaml: '',
				agentMd: '',
				intents: []
			}).get('audit.jsonl')
		);
		await store.close();
	});

	it('refuses an export that would carry an API key', async () => {
		const { events } = await buildMixedLedger();
		const files = new Map([['notes.txt', new TextEncoder().encode('key sk-test-1234567890')]]);
		await expect(
			exportInWorker({
				events: { kind: 'events', events },
				activeIntentsYaml: '',
				intents: [],
				files,
				secrets: ['sk-test-1234567890']
			})
		).rejects.toThrow(/contains one of your API keys/);
	});
});
