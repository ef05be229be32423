import { forgetQuickJs, loadQuickJs } from '../sandbox/local/load-quickjs.js';
import { defaultNodeCommandLimits } from '../sandbox/local/node-command.js';
import { readCorpusResults } from '../sandbox/local/node-runtime/corpus/corpus-results-file.js';
import {
	loadCorpusManifest,
	type CorpusLibrary
} from '../sandbox/local/node-runtime/corpus/corpus-workspace.js';
import {
	offlineSandboxFor,
	runOfflineIn,
	runWithRealNode
} from '../sandbox/local/node-runtime/corpus/run-corpus.js';
import { round } from './statistics.js';

/**
 * Issue 30's budget: `node --test` of the largest corpus suite (most tests real Node passes, by
 * the committed corpus results) offline, through the local sandbox's exec, against real Node
 * on the same files on this machine: wall time of each, median of `runs` (min/max beside), and
 * their ratio (≤ 3). The runtime's cold load (QuickJS's wasm compiled and instantiated, and the
 * sandbox created) is timed apart, once, before the runs; the offline runs use the loaded runtime
 * as a second command in a session would.
 */
export async function nodeCorpusSuiteFigure(runs = 5): Promise<{
	library: string;
	test_files: number;
	tests_node: number;
	tests_offline: number;
	runs: number;
	node_runs_with_failures: number;
	node_ms: { median: number; min: number; max: number };
	offline_ms: { median: number; min: number; max: number };
	cold_runtime_load_ms: number;
	ratio_median: number;
	budget: { ratio_median: number };
	within_budget: boolean;
}> {
	const library = largestSuite();
	forgetQuickJs();
	let started = performance.now();
	await loadQuickJs(defaultNodeCommandLimits.memoryLimitBytes);
	const { sandbox, testFiles } = await offlineSandboxFor(library);
	const coldLoadMs = performance.now() - started;
	const nodeMs: number[] = [];
	const offlineMs: number[] = [];
	let testsNode = 0;
	let testsOffline = 0;
	let nodeRunsWithFailures = 0;
	try {
		for (let run = 0; run < runs; run++) {
			const real = await runWithRealNode(library);
			// A loaded machine can fail one of real Node's timing-sensitive tests: counted, not fatal.
			if (real.exitCode !== 0) nodeRunsWithFailures += 1;
			nodeMs.push(real.wallMs);
			testsNode = real.summary.pass;
			started = performance.now();
			const offline = await runOfflineIn(sandbox, testFiles);
			offlineMs.push(performance.now() - started);
			testsOffline = offline.summary.pass;
		}
	} finally {
		await sandbox.dispose();
	}
	const node = spread(nodeMs);
	const offline = spread(offlineMs);
	const ratio = round(offline.median / node.median, 2);
	return {
		library: `${library.name} ${library.version}`,
		test_files: testFiles.length,
		tests_node: testsNode,
		tests_offline: testsOffline,
		runs,
		node_runs_with_failures: nodeRunsWithFailures,
		node_ms: node,
		offline_ms: offline,
		cold_runtime_load_ms: round(coldLoadMs, 1),
		ratio_median: ratio,
		budget: { ratio_median: 3 },
		within_budget: ratio <= 3
	};
}

/** The library whose suite real Node passes the most tests of (the committed results). */
export function largestSuite(): CorpusLibrary {
	const results = readCorpusResults();
	const largest = [...results.libraries].sort((a, b) => b.real.pass - a.real.pass)[0];
	const library = loadCorpusManifest().libraries.find((entry) => entry.name === largest?.name);
	if (!library) throw new Error('the corpus results name no library of the manifest');
	return library;
}

function spread(samples: readonly number[]): { median: number; min: number; max: number } {
	const sorted = [...samples].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const median =
		sorted.length % 2 === 1
			? (sorted[middle] ?? 0)
			: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
	return {
		median: round(median, 1),
		min: round(sorted[0] ?? 0, 1),
		max: round(sorted[sorted.length - 1] ?? 0, 1)
	};
}
