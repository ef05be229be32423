import { createTestPipeline } from '../hooks/pipeline/pipeline-test-kit.js';
import { orchestrationZip } from '../app/lib/ledger/export-orchestration.js';
import { buildAuditLedger } from './audit-ledger.js';
import { summarize } from './statistics.js';

/**
 * The governed agent's own cost, without the human and the sandbox: one tool call through
 * ToolPipeline.run (validation, every pre-hook, the executor over an in-memory filesystem, the
 * Agent Trace record with ranges, hashes and the AST class, the ledger append), as the page
 * runs it between onToolCall and addToolOutput; and the export of a 10k-record ledger as a zip.
 */
export async function toolCallOverhead(samples = 300): Promise<{
	read_file: ReturnType<typeof summarize>;
	write_to_file: ReturnType<typeof summarize>;
	budget: { median_ms: number };
	within_budget: boolean;
}> {
	const module = Array.from(
		{ length: 60 },
		(_, line) => `export const value${line} = ${line} * 2;`
	).join('\n');
	const kit = createTestPipeline({
		policy: 'never',
		files: { 'src/auth/module.ts': `${module}\n` }
	});
	const select = await kit.call('select_active_intent', { intent_id: 'INT-001' });
	if (!select.ok) throw new Error('the bench could not select its intent');
	const reads: number[] = [];
	const writes: number[] = [];
	for (let index = 0; index < samples + 20; index++) {
		let started = performance.now();
		const read = await kit.call('read_file', { path: 'src/auth/module.ts' });
		const readMs = performance.now() - started;
		if (!read.ok) throw new Error(`read_file failed in the bench: ${read.error.code}`);
		started = performance.now();
		const write = await kit.call('write_to_file', {
			path: 'src/auth/module.ts',
			content: `${module}\nexport const revision = ${index};\n`,
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		const writeMs = performance.now() - started;
		if (!write.ok) throw new Error(`write_to_file failed in the bench: ${write.error.code}`);
		// The first calls warm the JIT: not counted.
		if (index >= 20) {
			reads.push(readMs);
			writes.push(writeMs);
		}
	}
	const write = summarize(writes);
	return {
		read_file: summarize(reads),
		write_to_file: write,
		budget: { median_ms: 5 },
		within_budget: write.median_ms <= 5
	};
}

/** Exports a ledger of `events` events (about a quarter are trace records) as the zip the IDE downloads. */
async function timeExport(
	eventCount: number
): Promise<{ events: number; trace_records: number; zip_mb: number; export_ms: number }> {
	const ledger = await buildAuditLedger({ events: eventCount });
	const started = performance.now();
	const zip = await orchestrationZip({
		events: ledger.events,
		activeIntentsYaml: ledger.intentsYaml,
		intents: ledger.intents,
		files: new Map([['README.md', new TextEncoder().encode('# bench\n')]]),
		folder: 'bench'
	});
	const exportMs = performance.now() - started;
	return {
		events: ledger.events.length,
		trace_records: ledger.mutations,
		zip_mb: Math.round((zip.byteLength / 1024 / 1024) * 10) / 10,
		export_ms: Math.round(exportMs)
	};
}

/**
 * "Export of 10k records ≤ 1 s", held to the stricter reading: 10k trace records (a ~42k-event
 * ledger); 10k ledger records (events) are reported too. In Node, the zip the IDE builds.
 */
export async function exportTenThousand() {
	const tenThousandEvents = await timeExport(10_000);
	const tenThousandTraceRecords = await timeExport(42_000);
	return {
		ledger_records_10k: tenThousandEvents,
		trace_records_10k: tenThousandTraceRecords,
		budget: { trace_records_10k_export_ms: 1_000 },
		within_budget: tenThousandTraceRecords.export_ms <= 1_000
	};
}
