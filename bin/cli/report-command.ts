import { basename } from 'node:path';
import { parseIntents } from '../../hooks/intents/parse-intents.js';
import type { LedgerEvent } from '../../hooks/ledger/ledger-event.js';
import { verifyLedger } from '../../hooks/ledger/verify.js';
import { buildReport } from '../../hooks/report/build-report.js';
import {
	csvHeader,
	renderReportMarkdown,
	reportCsvRows,
	reportSummaryCsvRow
} from '../../hooks/report/render-report.js';
import { summarizeChecks, type IntentCheck } from '../../hooks/intents/check-criteria.js';
import { checkExport, renderChecks } from './check-command.js';
import { findExports, loadExport, type LoadedExport } from './read-export-source.js';
import { nodeContentHash } from './node-ports.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';

const formats = ['md', 'csv', 'json'] as const;

export async function reportCommand(
	argv: string[],
	output: { out(text: string): void; err(text: string): void }
): Promise<number> {
	const { positional, values, flags } = parseArguments(argv, {
		values: ['format'],
		flags: ['no-criteria']
	});
	// The acceptance criteria are re-run offline (threadline check) unless asked not to.
	const withCriteria = !flags.has('no-criteria');
	if (positional.length !== 1)
		throw new UsageError(
			'report takes one export or a folder of exports: threadline report <dir|zip> [--format md|csv|json] [--no-criteria]'
		);
	const format = values.get('format') ?? 'md';
	if (!(formats as readonly string[]).includes(format))
		throw new UsageError(`--format must be one of ${formats.join(', ')}`);
	const source = positional[0] as string;

	const batch = await findExports(source);
	if (batch) {
		if (format === 'md')
			throw new UsageError('a folder of several exports is reported as --format csv or json');
		const rows: string[] = [];
		const reports: unknown[] = [];
		for (const exportPath of batch) {
			try {
				const loaded = await loadExport(exportPath);
				const { report, verified } = await reportOf(loaded);
				const checks = withCriteria ? await criteriaOf(loaded, output) : undefined;
				rows.push(
					`${reportSummaryCsvRow(report, basename(exportPath), verified)},${csvCell(checks ? summarizeChecks(checks) : 'not run')}`
				);
				reports.push({ export: basename(exportPath), verified, report, criteria: checks ?? null });
			} catch (error) {
				// One broken submission must not stop a batch: say which, and go on.
				output.err(`${exportPath}: ${(error as Error).message}`);
				reports.push({ export: basename(exportPath), error: (error as Error).message });
			}
		}
		output.out(
			format === 'csv'
				? [`${csvHeader()},criteria`, ...rows].join('\n')
				: JSON.stringify(reports, null, 2)
		);
		return 0;
	}

	const loaded = await loadExport(source);
	const { report, verified } = await reportOf(loaded);
	const checks = withCriteria ? await criteriaOf(loaded, output) : undefined;
	if (format === 'json') {
		output.out(JSON.stringify({ verified, ...report, criteria: checks ?? null }, null, 2));
	} else if (format === 'csv') {
		const intentIds = [...report.intents.map((intent) => intent.intent_id), null];
		const rows = reportCsvRows(report, basename(source), verified).map((row, index) => {
			const id = intentIds[index];
			const own = checks?.filter((check) => check.intent_id === id) ?? [];
			const cell = !checks ? 'not run' : id === null ? '' : summarizeChecks(own);
			return `${row},${csvCell(cell)}`;
		});
		output.out([`${csvHeader()},criteria`, ...rows].join('\n'));
	} else {
		output.out(
			renderReportMarkdown(
				report,
				`Threadline report — ${basename(source)}${verified ? '' : ' (verification FAILED)'}`
			)
		);
		if (checks) {
			output.out(
				`\n## Acceptance criteria (re-run offline)\n\n\`\`\`\n${renderChecks(checks)}\n\`\`\``
			);
		}
	}
	return 0;
}

async function reportOf(loaded: LoadedExport) {
	const events = loaded.auditJsonl
		.split('\n')
		.filter((line) => line.trim())
		.map((line, index) => {
			try {
				return JSON.parse(line) as LedgerEvent;
			} catch {
				throw new UsageError(`audit.jsonl line ${index + 1} is not JSON`);
			}
		});
	const intentsYaml = loaded.orchestration.get('active_intents.yaml');
	const parsed = intentsYaml ? parseIntents(intentsYaml) : null;
	const intents = parsed?.ok ? parsed.document.intents : [];
	const verification = await verifyLedger({
		auditJsonl: loaded.auditJsonl,
		traceJsonl: loaded.traceJsonl,
		files: loaded.files,
		links: loaded.links,
		orchestrationFiles: loaded.orchestrationFiles,
		hasher: nodeContentHash
	});
	return { report: buildReport(events, intents), verified: verification.ok };
}

/** The export's acceptance criteria re-run; a report still comes out when they cannot run. */
async function criteriaOf(
	loaded: LoadedExport,
	output: { err(text: string): void }
): Promise<IntentCheck[] | undefined> {
	try {
		return await checkExport(loaded);
	} catch (error) {
		output.err(`criteria not run: ${(error as Error).message}`);
		return undefined;
	}
}

function csvCell(text: string): string {
	return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
