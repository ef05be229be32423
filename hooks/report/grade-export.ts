import type { LineDecoding } from '../bytes/line-decoding.js';
import type { SyncContentHasher } from '../hashing/sync-sha256.js';
import type { Intent } from '../intents/intent.js';
import { parseIntents } from '../intents/parse-intents.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import type { ExportFiles } from '../ledger/read-export.js';
import { megabyteChunks, type JsonlSource } from '../ledger/read-jsonl.js';
import { verifyLedgerAndValues, type VerifyReport } from '../ledger/verify.js';
import { buildReport, type GradingReport } from './build-report.js';
import { criteriaResults, type CriteriaResult } from './criteria-results.js';
import { scoreExport, type Score } from './rubric.js';
import {
	exportScenario,
	passedSteps,
	rubricForExport,
	type ExportScenario,
	type ScenarioRubric
} from './scenario-rubric.js';

export interface GradedExport {
	report: GradingReport;
	verification: VerifyReport;
	verified: boolean;
	events: LedgerEvent[];
	intents: Intent[];
	criteria: CriteriaResult[];
	/** Only when a rubric of the export's own scenario was given. */
	score: Score | null;
	/** The scenario the export's ledger names (null: it names none). */
	scenario: ExportScenario | null;
	/** Why no loaded rubric scored this export (null when one did, or none was loaded). */
	scoreNote: string | null;
	/** Which loaded rubric scored it (its scenario id), or null. */
	rubricScenario: string | null;
	/** Step numbers (from 1) whose latest check passed. */
	stepsPassed: number[];
}

/** A chained file's bytes in chunks when the export has them, else its text. */
function jsonlSource(loaded: ExportFiles, name: 'audit.jsonl' | 'agent_trace.jsonl'): JsonlSource {
	const bytes = loaded.orchestrationFiles.get(name);
	if (bytes) return megabyteChunks(bytes);
	return name === 'audit.jsonl' ? loaded.auditJsonl : loaded.traceJsonl;
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
		/** How byte lines become text (line-decoding.ts): the CLI passes `'text-decoder'`. */
		lineDecoding?: LineDecoding;
		/** The rubrics loaded; each scores only exports of its own scenario. */
		rubrics?: readonly ScenarioRubric[];
		/** False for a bare agent_trace.jsonl + audit.jsonl: there is no workspace to compare. */
		checkFiles?: boolean;
	} = {}
): Promise<GradedExport> {
	const intentsYaml = loaded.orchestration.get('active_intents.yaml');
	const parsed = intentsYaml ? parseIntents(intentsYaml) : null;
	const intents = parsed?.ok ? parsed.document.intents : [];
	// One read of the audit log, line by line from its bytes: verify parses every line, and the
	// report uses those values rather than parsing the whole file a second time.
	const {
		report: verification,
		auditValues,
		firstUnreadableAuditLine
	} = await verifyLedgerAndValues({
		auditJsonl: jsonlSource(loaded, 'audit.jsonl'),
		traceJsonl: jsonlSource(loaded, 'agent_trace.jsonl'),
		// The whole export, as `threadline verify` checks it: workspace files, links and every
		// `.orchestration/` file (none of them for a bare jsonl pair, which says so).
		...(options.checkFiles === false
			? {}
			: {
					files: loaded.files,
					links: loaded.links,
					orchestrationFiles: loaded.orchestrationFiles
				}),
		...(options.hasher ? { hasher: options.hasher } : {}),
		...(options.lineDecoding ? { lineDecoding: options.lineDecoding } : {})
	});
	if (firstUnreadableAuditLine !== null) {
		throw new Error(`audit.jsonl line ${firstUnreadableAuditLine} is not JSON`);
	}
	const events = auditValues as LedgerEvent[];
	const report = buildReport(events, intents);
	const criteria = criteriaResults(events, intents);
	const verified = verification.ok;
	const scenario = exportScenario(events);
	const chosen = rubricForExport(options.rubrics ?? [], scenario);
	const steps = passedSteps(events);
	const score = chosen.rubric
		? scoreExport(chosen.rubric.rubric, {
				report,
				criteria,
				verified,
				unattributedFiles:
					verification.files.unattributed.length + verification.files.contentMismatches.length,
				passedSteps: steps
			})
		: null;
	return {
		report,
		verification,
		verified,
		events,
		intents,
		criteria,
		score,
		scenario,
		scoreNote: chosen.note,
		rubricScenario: chosen.rubric?.scenarioId ?? null,
		stepsPassed: [...steps].sort((left, right) => left - right)
	};
}
