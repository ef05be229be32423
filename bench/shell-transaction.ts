import { agentPathCheck, reviewEntryChanges } from '../hooks/pipeline/shell-transaction.js';
import { MemoryWorkspaceFiles } from '../sandbox/local/memory-workspace-files.js';
import {
	applyEntryChanges,
	OverlayWorkspaceFiles
} from '../sandbox/local/overlay-workspace-files.js';
import { round, summarize } from './statistics.js';

/**
 * What running a shell command as a transaction adds (issue 7): a command touching 10 files in a
 * 2,000-file workspace. The command's own work (just-bash parsing and running it) is the same
 * either way, so the figure compares the data path: writing the 10 files straight into the store
 * (the old, ungoverned way) against writing them into the copy-on-write overlay, building the
 * proposal, checking the whole set against protected paths and the intent's scope, and
 * committing it to the store in one step. Median of the per-sample difference.
 */
export async function shellTransactionOverhead(samples = 200): Promise<{
	workspace_files: number;
	touched_files: number;
	direct_ms: ReturnType<typeof summarize>;
	transaction_ms: ReturnType<typeof summarize>;
	added_median_ms: number;
	budget: { added_median_ms: number };
	within_budget: boolean;
}> {
	const initial: Record<string, string> = {};
	for (let index = 0; index < 2_000; index++) {
		initial[`src/module${index % 40}/file${index}.ts`] = `export const value = ${index};\n`;
	}
	const touched = Array.from({ length: 10 }, (_, index) => `src/module${index}/file${index}.ts`);
	const check = agentPathCheck({
		intentId: 'INT-001',
		isInScope: (_intent, path) => path.startsWith('src/'),
		scopeMessage: (intent, path) => `${intent} may not change ${path}`
	});
	const encoder = new TextEncoder();
	const direct: number[] = [];
	const transaction: number[] = [];
	for (let sample = 0; sample < samples + 20; sample++) {
		const content = (path: string) => encoder.encode(`${path} revision ${sample}\n`);
		const plain = new MemoryWorkspaceFiles(initial);
		let started = performance.now();
		for (const path of touched) await plain.write(path, content(path));
		const directMs = performance.now() - started;

		const governed = new MemoryWorkspaceFiles(initial);
		started = performance.now();
		const overlay = new OverlayWorkspaceFiles(governed);
		for (const path of touched) await overlay.write(path, content(path));
		const review = reviewEntryChanges(await overlay.proposal(), check);
		if (review.refused.length > 0) throw new Error('the bench transaction refused a change');
		await applyEntryChanges(governed, review.allowed);
		const transactionMs = performance.now() - started;
		// The first samples warm the JIT: not counted.
		if (sample >= 20) {
			direct.push(directMs);
			transaction.push(transactionMs);
		}
	}
	const added = direct.map((directMs, index) => (transaction[index] ?? 0) - directMs);
	const addedMedian = round(summarize(added).median_ms);
	return {
		workspace_files: 2_000,
		touched_files: touched.length,
		direct_ms: summarize(direct),
		transaction_ms: summarize(transaction),
		added_median_ms: addedMedian,
		budget: { added_median_ms: 5 },
		within_budget: addedMedian <= 5
	};
}
