import { basename } from 'node:path';
import type { LedgerEvent } from '../../hooks/ledger/ledger-event.js';
import { verifyLedgerAndValues, type VerifyReport } from '../../hooks/ledger/verify.js';
import { renderTranscriptMarkdown } from '../../hooks/report/render-transcript.js';
import { buildTranscript } from '../../hooks/report/transcript.js';
import { parseArguments } from './parse-arguments.js';
import { loadExport } from './read-export-source.js';
import { nodeVerifyPorts } from './node-ports.js';
import { verifyHelperThreads } from './verify-helper-thread.js';
import { UsageError } from './usage-error.js';

type Output = { out: (text: string) => void; err: (text: string) => void };

/**
 * `threadline transcript <export> [--format md|json]`: the conversation with the tool calls, hook
 * decisions, approvals and changes interleaved in ledger order, after verifying the export (the
 * chains and every `.orchestration/` file, `conversation.jsonl` included). A transcript of an
 * export that fails verify is still printed, under a line saying so, and the exit code is 1.
 */
export async function transcriptCommand(argv: string[], output: Output): Promise<number> {
	const { positional, values } = parseArguments(argv, { values: ['format'] });
	const format = values.get('format') ?? 'md';
	if (format !== 'md' && format !== 'json')
		throw new UsageError(`--format must be md or json, not ${JSON.stringify(format)}`);
	const [source, extra] = positional;
	if (!source || extra !== undefined)
		throw new UsageError('transcript needs exactly one export (a folder or a .zip)');
	const { report, events } = await readVerifiedEvents(source);
	const transcript = buildTranscript(events);
	if (format === 'json') {
		output.out(
			JSON.stringify({
				export: basename(source),
				verified: report.ok,
				first_failure: report.firstFailure,
				conversation_entries: transcript.conversationEntries,
				items: transcript.items
			})
		);
	} else {
		output.out(
			renderTranscriptMarkdown(transcript, {
				title: basename(source),
				verdict: report.ok
					? `Verified: the chains and every .orchestration/ file hold (${report.audit.events} events).`
					: `**NOT VERIFIED**: ${report.firstFailure ?? 'the export does not verify'}`
			})
		);
	}
	return report.ok ? 0 : 1;
}

/** The export's audit events after verifying it (values as parsed; shape trusted when ok). */
export async function readVerifiedEvents(
	source: string
): Promise<{ report: VerifyReport; events: LedgerEvent[] }> {
	// A large export is verified in parts on two threads, as `threadline verify` does.
	void verifyHelperThreads.prepare();
	const exported = await loadExport(source);
	const { report, auditValues } = await verifyLedgerAndValues({
		auditJsonl: exported.orchestrationFiles.get('audit.jsonl') ?? new Uint8Array(0),
		traceJsonl: exported.orchestrationFiles.get('agent_trace.jsonl') ?? new Uint8Array(0),
		orchestrationFiles: exported.orchestrationFiles,
		...nodeVerifyPorts
	});
	// A broken ledger still reads up to its damage; values that are not events are skipped.
	const events = auditValues.filter(
		(value): value is LedgerEvent =>
			typeof value === 'object' &&
			value !== null &&
			typeof (value as { type?: unknown }).type === 'string' &&
			typeof (value as { seq?: unknown }).seq === 'number' &&
			typeof (value as { session_id?: unknown }).session_id === 'string'
	);
	return { report, events };
}
