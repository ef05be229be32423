import type { IntentReport } from '../../../hooks/report/build-report.js';
import type { ExportSource } from './group-exports.js';
import type { GradeSummary } from './grade-protocol.js';

/** One row of the grader's table: an export being graded, graded, or unreadable. */
export type GradeRow =
	| { id: number; name: string; kind: ExportSource<Blob>['kind']; state: 'pending'; stage: string }
	| {
			id: number;
			name: string;
			kind: ExportSource<Blob>['kind'];
			state: 'graded';
			summary: GradeSummary;
	  }
	| { id: number; name: string; kind: ExportSource<Blob>['kind']; state: 'failed'; error: string };

export const sortKeys = [
	'name',
	'scenario',
	'verdict',
	'toolCalls',
	'blocks',
	'approvals',
	'rejections',
	'mismatches',
	'lessons',
	'criteria',
	'score'
] as const;
export type SortKey = (typeof sortKeys)[number];
export type SortDirection = 'ascending' | 'descending';

export const verdictFilters = ['all', 'verified', 'failed', 'unreadable'] as const;
export type VerdictFilter = (typeof verdictFilters)[number];

export interface TableFilter {
	/** Matched, case-insensitively, against the export's name and scenario. */
	text: string;
	verdict: VerdictFilter;
	/** Only exports with at least one block of this ToolError code ('' = any). */
	blockCode: string;
}

export const emptyFilter: TableFilter = { text: '', verdict: 'all', blockCode: '' };

/** Every intent and the unassigned activity of a report, for totals. */
export function allIntents(summary: GradeSummary): IntentReport[] {
	return [...summary.report.intents, summary.report.unassigned];
}

export function blocksByCode(summary: GradeSummary): Record<string, number> {
	const totals: Record<string, number> = {};
	for (const intent of allIntents(summary))
		for (const [code, count] of Object.entries(intent.blocked_by_code))
			totals[code] = (totals[code] ?? 0) + count;
	return totals;
}

function sum(summary: GradeSummary, pick: (intent: IntentReport) => number): number {
	return allIntents(summary).reduce((total, intent) => total + pick(intent), 0);
}

export function criteriaPassed(summary: GradeSummary): { passed: number; intents: number } {
	return {
		passed: summary.criteria.filter((result) => result.outcome === 'passed').length,
		intents: summary.criteria.length
	};
}

/** The value a column sorts by; unreadable and pending rows sort after every graded one. */
export function sortValue(row: GradeRow, key: SortKey): string | number | null {
	if (key === 'name') return row.name.toLowerCase();
	if (row.state !== 'graded') return null;
	const summary = row.summary;
	switch (key) {
		case 'scenario':
			return summary.scenarioLabel.toLowerCase();
		case 'verdict':
			return summary.verified ? 1 : 0;
		case 'toolCalls':
			return summary.report.tool_calls;
		case 'blocks':
			return sum(summary, (intent) =>
				Object.values(intent.blocked_by_code).reduce((total, count) => total + count, 0)
			);
		case 'approvals':
			return sum(summary, (intent) => intent.approvals);
		case 'rejections':
			return sum(summary, (intent) => intent.rejections);
		case 'mismatches':
			return sum(summary, (intent) => intent.class_mismatches);
		case 'lessons':
			return sum(summary, (intent) => intent.lessons.length);
		case 'criteria':
			return criteriaPassed(summary).passed;
		case 'score':
			return summary.score?.score ?? null;
	}
}

/** A stable sort: equal values keep the order the exports were dropped in. */
export function sortRows(
	rows: readonly GradeRow[],
	key: SortKey,
	direction: SortDirection
): GradeRow[] {
	const sign = direction === 'ascending' ? 1 : -1;
	return rows
		.map((row, position) => ({ row, position, value: sortValue(row, key) }))
		.sort((left, right) => {
			if (left.value === null || right.value === null) {
				if (left.value === right.value) return left.position - right.position;
				return left.value === null ? 1 : -1;
			}
			const order =
				typeof left.value === 'number' && typeof right.value === 'number'
					? left.value - right.value
					: String(left.value).localeCompare(String(right.value));
			return order === 0 ? left.position - right.position : order * sign;
		})
		.map((entry) => entry.row);
}

export function filterRows(rows: readonly GradeRow[], filter: TableFilter): GradeRow[] {
	const text = filter.text.trim().toLowerCase();
	return rows.filter((row) => {
		if (text) {
			const scenario = row.state === 'graded' ? row.summary.scenarioLabel.toLowerCase() : '';
			if (!row.name.toLowerCase().includes(text) && !scenario.includes(text)) return false;
		}
		if (filter.verdict === 'verified' && !(row.state === 'graded' && row.summary.verified))
			return false;
		if (filter.verdict === 'failed' && !(row.state === 'graded' && !row.summary.verified))
			return false;
		if (filter.verdict === 'unreadable' && row.state !== 'failed') return false;
		if (filter.blockCode) {
			if (row.state !== 'graded') return false;
			if (!blocksByCode(row.summary)[filter.blockCode]) return false;
		}
		return true;
	});
}

/** The next sort after a header click: same column flips, a new column starts ascending. */
export function nextSort(
	current: { key: SortKey; direction: SortDirection },
	key: SortKey
): { key: SortKey; direction: SortDirection } {
	if (current.key !== key) return { key, direction: 'ascending' };
	return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}
