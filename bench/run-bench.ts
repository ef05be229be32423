import { nodeContentHash } from '../bin/cli/node-content-hash.js';
import os from 'node:os';
import { buildAuditLedger } from './audit-ledger.js';
import { withinBudget, type Budget } from './budget.js';
import {
	assertVerified,
	exportLedger,
	megabytesOf,
	timeVerify,
	type ExportedLedger
} from './chain-verify.js';
import { describeEnvironment, type BenchEnvironment } from './environment.js';
import { timeLedgerAppend } from './ledger-append.js';
import {
	expectAllowed,
	expectScopeViolation,
	prepareDecisionWorkload,
	timeDecisions,
	timeValidation
} from './pre-hook-decision.js';
import { timeProcessHook, type HookPayload } from './process-hook-call.js';
import { round, type TimingSummary } from './statistics.js';

export interface BenchSizes {
	intents: number;
	globsPerIntent: number;
	workspaceFiles: number;
	decisionWarmup: number;
	decisionSamples: number;
	processWarmup: number;
	processSamples: number;
	appendWarmup: number;
	appendSamples: number;
	ledgerEvents: number;
}

export const fullSizes: BenchSizes = {
	intents: 200,
	globsPerIntent: 10,
	workspaceFiles: 10_000,
	decisionWarmup: 1_000,
	decisionSamples: 20_000,
	processWarmup: 3,
	processSamples: 40,
	appendWarmup: 1_000,
	appendSamples: 10_000,
	ledgerEvents: 100_000
};

export const decisionBudget: Budget = { median_ms: 0.1, p99_ms: 1 };
export const verifyBudget = { verify_ms: 1_000 } as const satisfies Budget;

type Timed = TimingSummary & {
	warmup: number;
	budget: Budget | null;
	within_budget: boolean | null;
};

export interface BenchResult {
	environment: BenchEnvironment;
	pre_hook_decision: {
		workload: Record<string, unknown>;
		in_scope: Timed & { verdict: string };
		out_of_scope: Timed & { verdict: string };
		/** Schema validation and target resolution, which run() does before the decision. */
		validation_before_decision: TimingSummary & { budget: null; within_budget: null };
		within_budget: boolean;
	};
	process_per_hook_call: Timed & { ratio_to_in_process: number; note: string };
	chain_verify_100k: {
		events: number;
		mutation_records: number;
		audit_jsonl_mb: number;
		agent_trace_jsonl_mb: number;
		verify_ms: number;
		hasher: string;
		/** The same verify with the plain-JS hasher the browser uses, in Node (informational). */
		verify_ms_browser_hasher: number;
		verified_ok: boolean;
		build_ms_untimed: number;
		export_ms_untimed: number;
		budget: Budget;
		within_budget: boolean;
	};
	ledger_append: Timed;
	all_within_budget: boolean;
	load_average_at_end: number[];
}

function timed(summary: TimingSummary, warmup: number, budget: Budget | null): Timed {
	return {
		...summary,
		warmup,
		budget,
		within_budget: budget ? withinBudget({ ...summary }, budget) : null
	};
}

/**
 * Builds and exports the ledger in its own scope, so only the exported text is alive when verify
 * runs, as in `threadline verify`: the sealed events would otherwise add to every GC pause.
 */
async function buildAndExport(events: number, progress: (line: string) => void) {
	let started = performance.now();
	const ledger = await buildAuditLedger({
		events,
		onProgress: (built) => progress(`  ${built} events`),
		progressEvery: Math.max(1, Math.floor(events / 5))
	});
	const buildMs = performance.now() - started;
	started = performance.now();
	const exported = exportLedger(ledger);
	const exportMs = performance.now() - started;
	return { exported, events: ledger.events.length, mutations: ledger.mutations, buildMs, exportMs };
}

/** Runs every measurement in turn; `progress` gets human-readable lines (stderr in run.ts). */
export async function runBench(
	sizes: BenchSizes,
	progress: (line: string) => void = () => undefined,
	onExported: (exported: ExportedLedger) => void = () => undefined
): Promise<BenchResult> {
	const environment = describeEnvironment();

	// Decisions first, on a quiet heap: the 100k ledger later would add GC pauses to every figure.
	progress(
		`preparing ${sizes.intents} intents × ${sizes.globsPerIntent} globs, ${sizes.workspaceFiles} files`
	);
	const workload = await prepareDecisionWorkload({
		intentCount: sizes.intents,
		globsPerIntent: sizes.globsPerIntent,
		fileCount: sizes.workspaceFiles
	});
	progress(`timing ${sizes.decisionSamples} in-scope decisions`);
	const inScope = await timeDecisions(workload, workload.inScope, {
		warmup: sizes.decisionWarmup,
		samples: sizes.decisionSamples,
		check: expectAllowed
	});
	progress(`timing ${sizes.decisionSamples} out-of-scope decisions`);
	const outOfScope = await timeDecisions(workload, workload.outOfScope, {
		warmup: sizes.decisionWarmup,
		samples: sizes.decisionSamples,
		check: expectScopeViolation
	});
	const validation = timeValidation(workload, workload.inScope, sizes.decisionSamples);
	const inScopeTimed = {
		verdict: 'allow',
		...timed(inScope, sizes.decisionWarmup, decisionBudget)
	};
	const outOfScopeTimed = {
		verdict: 'deny (scope_violation)',
		...timed(outOfScope, sizes.decisionWarmup, decisionBudget)
	};

	progress(`timing ${sizes.processSamples} process-per-call hook round trips`);
	const ownedScope = workload.state.scope.patternsOf(workload.intentId);
	const payloads: HookPayload[] = workload.inScope.map((context) => ({
		tool: context.call.tool,
		tool_input: context.call.input,
		intent: { id: workload.intentId, owned_scope: ownedScope }
	}));
	const processCall = await timeProcessHook(payloads, {
		warmup: sizes.processWarmup,
		samples: sizes.processSamples,
		expected: 'allow'
	});

	progress(`timing ${sizes.appendSamples} single-event ledger appends`);
	const append = await timeLedgerAppend({
		warmup: sizes.appendWarmup,
		samples: sizes.appendSamples
	});

	progress(`building a ${sizes.ledgerEvents}-event ledger (not timed)`);
	const ledger = await buildAndExport(sizes.ledgerEvents, progress);
	progress('timing verify with node:crypto (what `threadline verify` uses)');
	const verified = await timeVerify(ledger.exported, nodeContentHash);
	assertVerified(verified.report, { events: ledger.events, records: ledger.mutations });
	progress('timing verify with the plain-JS hasher (the one the browser uses)');
	const verifiedBrowserHasher = await timeVerify(ledger.exported);
	onExported(ledger.exported);
	assertVerified(verifiedBrowserHasher.report, {
		events: ledger.events,
		records: ledger.mutations
	});
	const verifyFigures = { verify_ms: round(verified.durationMs, 1) };

	const preHookWithin = Boolean(inScopeTimed.within_budget && outOfScopeTimed.within_budget);
	const processTimed = timed(processCall, sizes.processWarmup, decisionBudget);
	const verifyWithin = withinBudget(verifyFigures, verifyBudget);
	return {
		environment,
		pre_hook_decision: {
			workload: {
				intents: sizes.intents,
				globs_per_intent: sizes.globsPerIntent,
				workspace_files: workload.workspaceFiles,
				tool: 'write_to_file',
				active_intent: workload.intentId,
				in_scope_paths: workload.inScope.length,
				out_of_scope_paths: workload.outOfScope.length,
				scheduler: 'real timers'
			},
			in_scope: inScopeTimed,
			out_of_scope: outOfScopeTimed,
			validation_before_decision: { ...validation, budget: null, within_budget: null },
			within_budget: preHookWithin
		},
		process_per_hook_call: {
			...processTimed,
			ratio_to_in_process: round(processCall.median_ms / inScope.median_ms, 0),
			note: 'one node process per call (spawn, JSON on stdin, decision on stdout); held to the in-process decision budget for comparison'
		},
		chain_verify_100k: {
			events: ledger.events,
			mutation_records: ledger.mutations,
			audit_jsonl_mb: megabytesOf(ledger.exported.auditJsonl),
			agent_trace_jsonl_mb: megabytesOf(ledger.exported.traceJsonl),
			...verifyFigures,
			hasher: 'node:crypto (threadline verify)',
			verify_ms_browser_hasher: round(verifiedBrowserHasher.durationMs, 1),
			verified_ok: verified.report.ok && verifiedBrowserHasher.report.ok,
			build_ms_untimed: round(ledger.buildMs, 0),
			export_ms_untimed: round(ledger.exportMs, 0),
			budget: verifyBudget,
			within_budget: verifyWithin
		},
		ledger_append: timed(append, sizes.appendWarmup, null),
		// The process-per-call figure is a comparison, not a Threadline budget: left out here.
		all_within_budget: preHookWithin && verifyWithin,
		load_average_at_end: os.loadavg().map((load) => round(load, 2))
	};
}
