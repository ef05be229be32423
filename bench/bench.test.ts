// The bench's building blocks at tiny sizes: they must measure the real thing and refuse wrong
// answers. No timing is asserted anywhere: timings depend on the machine and its load.
import { describe, expect, it } from 'vitest';
import { parseIntents } from '../hooks/intents/parse-intents.js';
import { buildAuditLedger, counterUuid } from './audit-ledger.js';
import { withinBudget } from './budget.js';
import { assertVerified, exportLedger, timeVerify } from './chain-verify.js';
import {
	generateIntentsYaml,
	generateWorkspacePaths,
	ownedScopeOf
} from './governance-workspace.js';
import { timeLedgerAppend } from './ledger-append.js';
import {
	decide,
	expectAllowed,
	expectScopeViolation,
	prepareDecisionWorkload,
	timeDecisions
} from './pre-hook-decision.js';
import { callProcessHook, type HookPayload } from './process-hook-call.js';
import { runBench, type BenchSizes } from './run-bench.js';
import { percentile, summarize } from './statistics.js';

describe('statistics', () => {
	it('reports measured values by nearest rank', () => {
		const sorted = Array.from({ length: 100 }, (_, position) => position + 1);
		expect(percentile(sorted, 0.5)).toBe(50);
		expect(percentile(sorted, 0.99)).toBe(99);
		expect(percentile([7], 0.99)).toBe(7);
		expect(summarize([3, 1, 2])).toEqual({ median_ms: 2, p99_ms: 3, mean_ms: 2, samples: 3 });
	});

	it('refuses empty samples and impossible fractions', () => {
		expect(() => summarize([])).toThrow(/zero samples/);
		expect(() => percentile([1], 0)).toThrow(/not in/);
		expect(() => percentile([1], 1.5)).toThrow(/not in/);
	});
});

describe('withinBudget', () => {
	it('checks every limit, inclusive', () => {
		expect(withinBudget({ median_ms: 0.1, p99_ms: 0.5 }, { median_ms: 0.1, p99_ms: 1 })).toBe(true);
		expect(withinBudget({ median_ms: 0.2, p99_ms: 0.5 }, { median_ms: 0.1, p99_ms: 1 })).toBe(
			false
		);
	});

	it('throws when a limited figure was not measured', () => {
		expect(() => withinBudget({ median_ms: 1 }, { p99_ms: 1 })).toThrow(/p99_ms/);
		expect(() => withinBudget({ median_ms: 1 }, {})).toThrow(/at least one/);
	});
});

describe('governance workspace', () => {
	it('generates intents that parse, with the asked number of globs', () => {
		const parsed = parseIntents(generateIntentsYaml(30, 10));
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		expect(parsed.document.intents).toHaveLength(30);
		expect(parsed.document.intents.every((intent) => intent.owned_scope.length === 10)).toBe(true);
		expect(() => generateIntentsYaml(0)).toThrow(/positive integer/);
		expect(() => ownedScopeOf(1, 11)).toThrow(/from 1 to 10/);
	});

	it('generates exactly the asked number of distinct files', () => {
		for (const count of [10, 500, 1234]) {
			const paths = generateWorkspacePaths(20, count);
			expect(paths).toHaveLength(count);
			expect(new Set(paths).size).toBe(count);
		}
	});
});

describe('pre-hook decision workload', () => {
	it('allows in-scope writes after every check and denies out-of-scope ones', async () => {
		const workload = await prepareDecisionWorkload({ intentCount: 12, fileCount: 400 });
		expect(workload.workspaceFiles).toBe(400);
		expect(workload.inScope.length).toBeGreaterThan(5);
		for (const context of workload.inScope) expectAllowed(await decide(workload, context), context);
		for (const context of workload.outOfScope)
			expectScopeViolation(await decide(workload, context), context);
		const summary = await timeDecisions(workload, workload.inScope, {
			warmup: 2,
			samples: 25,
			check: expectAllowed
		});
		expect(summary.samples).toBe(25);
	});

	it('fails loudly when the verdict is not the expected one', async () => {
		const workload = await prepareDecisionWorkload({ intentCount: 12, fileCount: 400 });
		const outside = workload.outOfScope[0];
		const inside = workload.inScope[0];
		if (!outside || !inside) throw new Error('workload has no calls');
		await expect(
			timeDecisions(workload, [outside], { warmup: 0, samples: 1, check: expectAllowed })
		).rejects.toThrow(/to be allowed by every hook, got deny/);
		// A file the session saw in another version: the stale-file check must catch it.
		const target = inside.targets[0] as string;
		workload.session.readBaselines.set(target, `sha256:${'0'.repeat(64)}`);
		const verdict = await decide(workload, inside);
		expect(verdict.denial?.decision.error.code).toBe('stale_file');
		expect(() => expectAllowed(verdict, inside)).toThrow(/stale_file/);
	});
});

describe('process-per-call hook', () => {
	const intent = { id: 'INT-007', owned_scope: ownedScopeOf(7) };
	const payload = (path: string): HookPayload => ({
		tool: 'write_to_file',
		tool_input: { path, content: 'x' },
		intent
	});

	it('answers the same scope decision as the in-process hook', async () => {
		expect((await callProcessHook(payload('packages/p7/src/lib/core.ts'))).decision).toBe('allow');
		expect((await callProcessHook(payload('src/module-7'))).decision).toBe('allow');
		expect((await callProcessHook(payload('src/module-8/index.ts'))).decision).toBe('deny');
		// The exclusion pattern wins over the folder.
		const excluded = await callProcessHook(payload('src/module-7/generated/client.ts'));
		expect(excluded).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/INT-007/) });
	});

	it('rejects when the hook fails', async () => {
		const broken = { tool: 'write_to_file' } as unknown as HookPayload;
		await expect(callProcessHook(broken)).rejects.toThrow(/exited with 2/);
	});
});

describe('audit ledger and verify', () => {
	it('builds exactly the asked number of events, about a quarter of them mutation records', async () => {
		for (const events of [12, 13, 14, 15, 101]) {
			const ledger = await buildAuditLedger({ events, intentCount: 10 });
			expect(ledger.events).toHaveLength(events);
			expect(ledger.events.map((event) => event.seq)).toEqual(
				Array.from({ length: events }, (_, position) => position + 1)
			);
		}
		const ledger = await buildAuditLedger({ events: 400 });
		const share = ledger.mutations / ledger.events.length;
		expect(share).toBeGreaterThan(0.2);
		expect(share).toBeLessThanOrEqual(0.25);
		expect(ledger.events.filter((event) => event.type === 'mutation-record')).toHaveLength(
			ledger.mutations
		);
		await expect(buildAuditLedger({ events: 11 })).rejects.toThrow(/at least 12/);
	});

	it('exports a ledger that verify accepts', async () => {
		const ledger = await buildAuditLedger({ events: 200 });
		const exported = exportLedger(ledger);
		const { report } = await timeVerify(exported);
		expect(report.ok).toBe(true);
		expect(report.trace.records).toBe(ledger.mutations);
		assertVerified(report, { events: 200, records: ledger.mutations });
		const kinds = new Set(
			ledger.events.flatMap((event) =>
				event.type === 'mutation-record'
					? [event.trace.metadata['dev.threadline'].mutation_class]
					: []
			)
		);
		// Renames are computed as refactors, new functions as evolutions: both appear.
		expect(kinds).toEqual(new Set(['AST_REFACTOR', 'INTENT_EVOLUTION']));
	});

	it('refuses a report of a tampered or short export', async () => {
		const ledger = await buildAuditLedger({ events: 100 });
		const exported = exportLedger(ledger);
		const tampered = {
			...exported,
			auditJsonl: exported.auditJsonl.replace('"decision":"allow"', '"decision":"deny"')
		};
		const { report } = await timeVerify(tampered);
		expect(() => assertVerified(report, { events: 100, records: ledger.mutations })).toThrow(
			/not ok.*audit chain broken/
		);
		const { report: intact } = await timeVerify(exported);
		expect(() => assertVerified(intact, { events: 101, records: ledger.mutations })).toThrow(
			/verified 100 events, expected 101/
		);
	});

	it('makes UUIDs the trace schema accepts', () => {
		expect(counterUuid(255)).toMatch(
			/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
		);
	});
});

describe('ledger append', () => {
	it('seals consecutive events', async () => {
		const summary = await timeLedgerAppend({ warmup: 3, samples: 20 });
		expect(summary.samples).toBe(20);
	});
});

describe('runBench', () => {
	it('produces every figure with its budget check at tiny sizes', async () => {
		const tiny: BenchSizes = {
			intents: 12,
			globsPerIntent: 10,
			workspaceFiles: 300,
			decisionWarmup: 2,
			decisionSamples: 20,
			processWarmup: 0,
			processSamples: 1,
			appendWarmup: 2,
			appendSamples: 10,
			ledgerEvents: 100
		};
		const lines: string[] = [];
		const result = await runBench(tiny, (line) => lines.push(line));
		expect(lines.length).toBeGreaterThan(3);
		expect(result.pre_hook_decision.workload.workspace_files).toBe(300);
		expect(result.pre_hook_decision.in_scope.samples).toBe(20);
		expect(typeof result.pre_hook_decision.in_scope.within_budget).toBe('boolean');
		expect(typeof result.pre_hook_decision.out_of_scope.within_budget).toBe('boolean');
		expect(result.process_per_hook_call.samples).toBe(1);
		expect(result.process_per_hook_call.ratio_to_in_process).toBeGreaterThan(0);
		expect(result.chain_verify_100k).toMatchObject({ events: 100, verified_ok: true });
		expect(typeof result.chain_verify_100k.within_budget).toBe('boolean');
		expect(result.ledger_append).toMatchObject({ samples: 10, budget: null, within_budget: null });
		expect(result.environment.cpu_count).toBeGreaterThan(0);
		expect(result.environment.chromium).toMatch(/chromium/);
		expect(JSON.parse(JSON.stringify(result))).toEqual(result);
	});
});

describe('shell transaction overhead', () => {
	it('measures the transaction against direct writes, with its budget', async () => {
		const { shellTransactionOverhead } = await import('./shell-transaction.js');
		const figure = await shellTransactionOverhead(3);
		expect(figure.workspace_files).toBe(2_000);
		expect(figure.touched_files).toBe(10);
		expect(figure.transaction_ms.samples).toBe(3);
		expect(figure.budget).toEqual({ added_median_ms: 5 });
		expect(typeof figure.within_budget).toBe('boolean');
	});
});
