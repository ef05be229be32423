import type { GradingReport } from './build-report.js';
import { csvHeader, csvRow, reportCsvRows, reportSummaryCsvRow } from './render-report.js';
import type { Score } from './rubric.js';

export interface CsvExport {
	/** The export's file or folder name, as the grader gave it. */
	name: string;
	report: GradingReport;
	verified: boolean;
	score: Score | null;
	/** The scenario id the export's ledger names (absent or null: none). */
	scenario?: string | null;
	/** Why no rubric scored it (rubricForExport), when none did. */
	scoreNote?: string | null;
}

/**
 * Columns added when rubrics score the exports; without one the CSV is as it always was. Each row
 * names its scenario, and an export no rubric applies to says why in `score_note`.
 */
const scoreColumns = ['scenario', 'score', 'max_score', 'score_note'];

/**
 * The class CSV (`threadline report <folder> --format csv` and the grader page's download): one
 * summary row per export, in name order, so the page and the CLI give the same bytes.
 */
export function classCsv(exports: readonly CsvExport[], scored: boolean): string {
	const sorted = [...exports].sort((left, right) =>
		left.name < right.name ? -1 : left.name > right.name ? 1 : 0
	);
	const header = scored ? `${csvHeader()},${scoreColumns.join(',')}` : csvHeader();
	const rows = sorted.map(
		(entry) =>
			reportSummaryCsvRow(entry.report, entry.name, entry.verified) + scoreCells(entry, scored)
	);
	return [header, ...rows].join('\n');
}

/** One export's CSV: a row per intent (`threadline report <export> --format csv`). */
export function exportCsv(entry: CsvExport, scored: boolean): string {
	const header = scored ? `${csvHeader()},${scoreColumns.join(',')}` : csvHeader();
	return [
		header,
		...reportCsvRows(entry.report, entry.name, entry.verified).map(
			(row) => row + scoreCells(entry, scored)
		)
	].join('\n');
}

function scoreCells(entry: CsvExport, scored: boolean): string {
	if (!scored) return '';
	return `,${csvRow([
		entry.scenario ?? '',
		entry.score?.score ?? '',
		entry.score?.maximum ?? '',
		entry.score ? '' : (entry.scoreNote ?? '')
	])}`;
}
