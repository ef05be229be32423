import type { SyncContentHasher } from '../hashing/sync-sha256.js';
import type { Intent } from '../intents/intent.js';
import { parseIntents } from '../intents/parse-intents.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import type { ExportFiles } from '../ledger/read-export.js';
import { verifyLedger, type VerifyReport } from '../ledger/verify.js';
import { buildReport, type GradingReport } from './build-report.js';
import { criteriaResults, type CriteriaResult } from './criteria-results.js';
import { scoreExport, type Rubric, type Score } from './rubric.js';

export interface GradedExport {
	report: GradingReport;
	verification: VerifyReport;
	verified: boolean;
	events: LedgerEvent[];
	intents: Intent[];
	criteria: CriteriaResult[];
	/** Only when a rubric was given. */
	score: Score | null;
}

/** The audit log's events; a line that is not JSON makes the export unreportable. */
export function parseAuditEvents(auditJsonl: string): LedgerEvent[] {
	return auditJsonl
		.split('\n')
		.filter((line) => line.trim())
		.map((line, index) => {
			try {
				return JSON.parse(line) as LedgerEvent;
			} catch {
				throw new Error(`audit.jsonl line ${index + 1} is not JSON`);
			}
		});
}

/**
 * Verify, report, criteria and score of one export: the one code path behind `threadline
 * report` and the grader's page, so both give the same numbers for the same export.
 * Throws (with a sentence) when the audit log cannot be read at all.
 */
export async function gradeExport(
	loaded: ExportFiles,
	options: {
		hasher?: SyncContentHasher;
		rubric?: Rubric | null;
		/** False for a bare agent_trace.jsonl + audit.jsonl: there is no workspace to compare. */
		checkFiles?: boolean;
	} = {}
): Promise<GradedExport> {
	const events = parseAuditEvents(loaded.auditJsonl);
	const intentsYaml = loaded.orchestration.get('active_intents.yaml');
	const parsed = intentsYaml ? parseIntents(intentsYaml) : null;
	const intents = parsed?.ok ? parsed.document.intents : [];
	const verification = await verifyLedger({
		auditJsonl: loaded.auditJsonl,
		traceJsonl: loaded.traceJsonl,
		// The whole export, as `threadline verify` checks it: workspace files, links and every
		// `.orchestration/` file (none of them for a bare jsonl pair, which says so).
		...(options.checkFiles === false
			? {}
			: {
					files: loaded.files,
					links: loaded.links,
					orchestrationFiles: loaded.orchestrationFiles
				}),
		...(options.hasher ? { hasher: options.hasher } : {})
	});
	const report = buildReport(events, intents);
	const criteria = criteriaResults(events, intents);
	const verified = verification.ok;
	const score = options.rubric
		? scoreExport(options.rubric, {
				report,
				criteria,
				verified,
				unattributedFiles:
					verification.files.unattributed.length + verification.files.contentMismatches.length
			})
		: null;
	return { report, verification, verified, events, intents, criteria, score };
}
