import type { GradingReport } from './build-report.js';
import { csvHeader, reportCsvRows, reportSummaryCsvRow } from './render-report.js';
import type { Score } from './rubric.js';

export interface CsvExport {
	/** The export's file or folder name, as the grader gave it. */
	name: string;
	report: GradingReport;
	verified: boolean;
	score: Score | null;
}

/** Columns added when a rubric scores the exports; without one the CSV is as it always was. */
const scoreColumns = ['score', 'max_score'];

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
	return entry.score ? `,${entry.score.score},${entry.score.maximum}` : ',,';
}
