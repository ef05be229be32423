import type { Intent } from '../../../hooks/intents/intent.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type { VerifyReport } from '../../../hooks/ledger/verify.js';
import type { GradingReport } from '../../../hooks/report/build-report.js';
import type { CriteriaResult } from '../../../hooks/report/criteria-results.js';
import type { Score } from '../../../hooks/report/rubric.js';
import type { ExportScenario, ScenarioRubric } from '../../../hooks/report/scenario-rubric.js';
import type { ExportSource } from './group-exports.js';

/** The page → Worker messages. Files travel as `File`/`Blob` handles: the Worker reads them. */
export type GradeRequest =
	| { type: 'grade'; id: number; source: ExportSource<Blob>; rubrics: ScenarioRubric[] }
	| { type: 'detail'; id: number }
	| { type: 'rescore'; rubrics: ScenarioRubric[] }
	| { type: 'forget'; id: number };

/** What the table needs of one export: small, so 60 of them cross to the page cheaply. */
export interface GradeSummary {
	id: number;
	name: string;
	kind: ExportSource<Blob>['kind'];
	/**
	 * A key for "same scenario": the scenario the ledger names (id and content hash), else, for a
	 * ledger that names none, the intents' ids and names.
	 */
	scenarioKey: string;
	/** The scenario's id and title as the ledger names it, else its intents. */
	scenarioLabel: string;
	/** The scenario the export's ledger names (null: none). */
	scenario: ExportScenario | null;
	/** Why no loaded rubric scored it (null when one did, or none is loaded). */
	scoreNote: string | null;
	/** Step numbers (from 1) whose latest check passed. */
	stepsPassed: number[];
	verified: boolean;
	/** Whether workspace files were compared (not for a bare jsonl pair). */
	filesChecked: boolean;
	firstFailure: string | null;
	/** The audit seq where time travel stops (the failing record), when the chain breaks. */
	stopSeq: number | null;
	chain: { audit: boolean; trace: boolean };
	schemaInvalid: number;
	contentMismatches: number;
	unattributed: string[];
	missing: number;
	events: number;
	report: GradingReport;
	criteria: CriteriaResult[];
	classMismatches: number;
	score: Score | null;
}

export interface GradeDetail {
	id: number;
	events: LedgerEvent[];
	intents: Intent[];
	verification: VerifyReport;
	/** Texts of the file versions the ledger names, by `sha256:` hash (hash-checked). */
	contents: [hash: string, text: string][];
}

export type GradeResponse =
	| { type: 'progress'; id: number; stage: string }
	| { type: 'graded'; summary: GradeSummary }
	| { type: 'failed'; id: number; name: string; kind: ExportSource<Blob>['kind']; error: string }
	| { type: 'detail'; detail: GradeDetail }
	| { type: 'rescored'; scores: { id: number; score: Score | null; scoreNote: string | null }[] };
