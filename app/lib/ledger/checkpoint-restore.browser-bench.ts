import { expect, it } from 'vitest';
import { restoreCheckpoint } from '../../../hooks/pipeline/restore-checkpoint.js';
import { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { IndexedDbLedger } from './indexeddb-ledger.js';
import { bytes, freshDatabaseName, governedPipeline, openLedgerStore } from './ledger-test-kit.js';

// Figures, not assertions: prints `THREADLINE_BENCH {json}` with the time a checkpoint restore
// of a 1,000-file workspace takes in Chromium, end to end as the IDE does it: the plan from the
// ledger, every content read from the ledger's IndexedDB blobs in one transaction and checked
// against its hash, and one governed commit (1,000 human trace records sealed and stored with
// the files in one IndexedDB transaction). Each run is a fresh workspace whose 1,000 files were
// all changed after the checkpoint (the worst case: every file written back). Median of 7 runs.

const fileCount = 1_000;
const runs = 7;

const source = (index: number, version: number) =>
	`// module ${index}, version ${version}\nexport function value${index}(input: number): number {\n\treturn input * ${version} + ${index};\n}\n`;

async function timeOneRestore(): Promise<number> {
	const name = freshDatabaseName();
	const files: Record<string, Uint8Array> = {};
	for (let index = 0; index < fileCount; index++)
		files[`src/module-${Math.floor(index / 50)}/file-${index}.ts`] = bytes(source(index, 0));
	const store = await openLedgerStore(name, { initialFiles: async () => files, flushDelayMs: 0 });
	try {
		const ledger = await IndexedDbLedger.open({ store });
		const { pipeline, fs } = governedPipeline(store, ledger);
		const paths = Object.keys(files);
		await pipeline.recordWorkspaceSnapshot(paths);
		const checkpoint = ledger.lastSeq;
		await pipeline.recordHumanChanges({
			files: paths.map((path, index) => ({ path, content: bytes(source(index, 1)) })),
			tool: 'bench'
		});
		await store.flush();
		const started = performance.now();
		const result = await restoreCheckpoint({
			events: await ledger.events(),
			seq: checkpoint,
			content: (hash) => ledger.blob(hash),
			contents: (hashes) => ledger.blobs(hashes),
			pipeline
		});
		const elapsed = performance.now() - started;
		// Correctness, so a broken run cannot report a fast wrong answer.
		expect(result.ok && result.plan.writes.length).toBe(fileCount);
		expect(await fs.readTextFile(paths[7] as string)).toBe(source(7, 0));
		return elapsed;
	} finally {
		await store.close();
		await IndexedDbWorkspaceFiles.deleteDatabase(name);
	}
}

it('measures restoring a 1,000-file workspace to a checkpoint', async () => {
	const timings: number[] = [];
	for (let run = 0; run < runs; run++) timings.push(await timeOneRestore());
	const runsMs = timings.map((timing) => Math.round(timing));
	timings.sort((left, right) => left - right);
	const median = Math.round((timings[Math.floor(timings.length / 2)] ?? 0) * 10) / 10;
	const figures = {
		checkpoint_restore: {
			files: fileCount,
			restore_ms: median,
			runs_ms: runsMs,
			note: 'Restore to a checkpoint of a 1,000-file workspace whose files all changed after it: plan from the ledger, contents read from IndexedDB in one transaction and checked against their hashes, one governed commit of 1,000 human trace records with the files. A fresh workspace per run; median of 7 runs (the first runs pay for JIT warm-up and IndexedDB compaction varies, so 3 runs swung by 200 ms).',
			budget: { restore_ms: 500 },
			within_budget: median <= 500
		}
	};
	console.log(`THREADLINE_BENCH ${JSON.stringify(figures)}`);
}, 300_000);
