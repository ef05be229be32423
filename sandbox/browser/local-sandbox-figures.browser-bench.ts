import { expect, it } from 'vitest';
import { IndexedDbWorkspaceFiles } from '../local/indexeddb-workspace-files.js';
import { MemoryWorkspaceFiles } from '../local/memory-workspace-files.js';
import { createWorkerLocalSandbox } from './worker-local-sandbox.js';

// Figures, not assertions (timings vary with the machine): prints one line
// `THREADLINE_BENCH {json}`. The only checks are of correctness, so a broken run cannot report a
// fast wrong answer. Run: npx vitest run --config vitest.browser.config.ts --project browser-bench

const fileCount = 1_000;
const filesPerFolder = 50;
const grepRuns = 15;
const restoreRuns = 7;

/** 1,000 small TypeScript-like files in 20 folders; every tenth has one TODO line. */
function workspaceOfThousandFiles(): Record<string, Uint8Array> {
	const encoder = new TextEncoder();
	const files: Record<string, Uint8Array> = {};
	for (let index = 0; index < fileCount; index += 1) {
		const lines = [
			`// module ${index}`,
			`export function value${index}(input: number): number {`,
			`\treturn input * ${index} + ${index % 7};`,
			'}',
			index % 10 === 0 ? '// TODO: cover this with a test' : '// covered',
			`export const name${index} = 'module-${index}';`
		];
		const folder = `src/feature-${String(Math.floor(index / filesPerFolder)).padStart(2, '0')}`;
		files[`${folder}/module-${index}.ts`] = encoder.encode(`${lines.join('\n')}\n`);
	}
	return files;
}

function summarize(samples: number[]) {
	const sorted = [...samples].sort((left, right) => left - right);
	const middle = Math.floor(sorted.length / 2);
	const median =
		sorted.length % 2 === 0
			? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
			: (sorted[middle] ?? 0);
	const round = (value: number) => Math.round(value * 100) / 100;
	return {
		median_ms: round(median),
		min_ms: round(sorted[0] ?? 0),
		max_ms: round(sorted.at(-1) ?? 0),
		runs: sorted.length
	};
}

it('measures grep -r over 1,000 files in the Worker and the IndexedDB restore of 1,000 files', async () => {
	const files = workspaceOfThousandFiles();
	const expectedMatches = fileCount / 10;

	// grep -r: measured from the page, as the terminal and the agent see it (message to the
	// Worker, the search over its replica, the result back).
	const sandbox = await createWorkerLocalSandbox({ files: new MemoryWorkspaceFiles(files) });
	const grepSamples: number[] = [];
	try {
		for (let run = 0; run < 3 + grepRuns; run += 1) {
			const started = performance.now();
			const result = await sandbox.exec('grep -r TODO src');
			const elapsed = performance.now() - started;
			expect(result.exitCode).toBe(0);
			expect(result.output.trim().split('\n')).toHaveLength(expectedMatches);
			if (run >= 3) grepSamples.push(elapsed);
		}
	} finally {
		await sandbox.dispose();
	}

	// Restore: open the database and load every entry into memory, as a page reload does.
	const name = `threadline-bench-restore-${Date.now()}`;
	await (await IndexedDbWorkspaceFiles.open(name, { initialFiles: async () => files })).close();
	const restoreSamples: number[] = [];
	try {
		for (let run = 0; run < 1 + restoreRuns; run += 1) {
			const started = performance.now();
			const restored = await IndexedDbWorkspaceFiles.open(name);
			const elapsed = performance.now() - started;
			expect(restored.restoredFrom).toBe('database');
			expect(restored.snapshot().size).toBe(fileCount);
			await restored.close();
			if (run >= 1) restoreSamples.push(elapsed);
		}
	} finally {
		await IndexedDbWorkspaceFiles.deleteDatabase(name);
	}

	const grep = summarize(grepSamples);
	const restore = summarize(restoreSamples);
	const figures = {
		grep_r_1000_files_worker: {
			...grep,
			budget_ms: 50,
			within_budget: grep.median_ms <= 50,
			matches: expectedMatches
		},
		indexeddb_restore_1000_files: {
			...restore,
			budget_ms: 500,
			within_budget: restore.median_ms <= 500
		},
		environment: {
			user_agent: navigator.userAgent,
			hardware_concurrency: navigator.hardwareConcurrency,
			cross_origin_isolated: crossOriginIsolated,
			measured_at: new Date().toISOString()
		}
	};
	console.log(`THREADLINE_BENCH ${JSON.stringify(figures)}`);
});
