import type { GradingReport, IntentReport } from './build-report.js';
import type { Score } from './rubric.js';

export type ReportFormat = 'md' | 'csv' | 'json';

export function renderReportMarkdown(report: GradingReport, title = 'Threadline report'): string {
	const lines = [
		`# ${title}`,
		'',
		`${report.tool_calls} tool calls by ${report.sessions.length} session(s): ${report.sessions.join(', ') || 'none'}.`,
		''
	];
	for (const intent of [...report.intents, report.unassigned]) {
		if (
			intent === report.unassigned &&
			intent.mutations === 0 &&
			Object.keys(intent.blocked_by_code).length === 0
		)
			continue;
		lines.push(
			`## ${intent.intent_id} — ${intent.name}${intent.status ? ` (${intent.status})` : ''}`,
			''
		);
		lines.push(
			`- Files touched (${intent.files_touched.length}): ${intent.files_touched.join(', ') || 'none'}`
		);
		lines.push(`- Lines changed: ${intent.lines_changed} in ${intent.mutations} mutation(s)`);
		lines.push(
			`- Refactor / evolution, declared: ${intent.declared.AST_REFACTOR} / ${intent.declared.INTENT_EVOLUTION}; computed: ${intent.computed.AST_REFACTOR} / ${intent.computed.INTENT_EVOLUTION}; mismatches: ${intent.class_mismatches}`
		);
		const blocked = Object.entries(intent.blocked_by_code).sort(([first], [second]) =>
			first.localeCompare(second)
		);
		lines.push(
			`- Blocked or failed calls: ${blocked.length ? blocked.map(([code, count]) => `${code} ×${count}`).join(', ') : 'none'}`
		);
		lines.push(`- Approvals: ${intent.approvals}; rejections: ${intent.rejections}`);
		lines.push(intent.lessons.length ? '- Lessons:' : '- Lessons: none');
		for (const lesson of intent.lessons) lines.push(`  - ${lesson}`);
		lines.push('');
	}
	return lines.join('\n');
}

export const csvColumns = [
	'export',
	'verified',
	'intent_id',
	'name',
	'status',
	'files_touched',
	'lines_changed',
	'mutations',
	'declared_refactor',
	'declared_evolution',
	'computed_refactor',
	'computed_evolution',
	'class_mismatches',
	'blocked_total',
	'blocked_by_code',
	'approvals',
	'rejections',
	'lessons'
] as const;

/** One row per intent; `exportName` and `verified` let many exports share one CSV. */
export function reportCsvRows(
	report: GradingReport,
	exportName: string,
	verified: boolean
): string[] {
	return [...report.intents, report.unassigned].map((intent) =>
		csvRow(intentCells(intent, exportName, verified))
	);
}

/** One row per export with every intent folded together (batch grading). */
export function reportSummaryCsvRow(
	report: GradingReport,
	exportName: string,
	verified: boolean
): string {
	const total = [...report.intents, report.unassigned].reduce(mergeInto, {
		...report.unassigned,
		intent_id: report.intents.map((intent) => intent.intent_id).join(' '),
		name: `${report.intents.length} intents`,
		status: `${report.intents.filter((intent) => intent.status === 'COMPLETED').length} completed`,
		files_touched: [] as string[],
		lines_changed: 0,
		mutations: 0,
		declared: { AST_REFACTOR: 0, INTENT_EVOLUTION: 0 },
		computed: { AST_REFACTOR: 0, INTENT_EVOLUTION: 0 },
		class_mismatches: 0,
		blocked_by_code: {} as Record<string, number>,
		approvals: 0,
		rejections: 0,
		lessons: [] as string[]
	});
	return csvRow(intentCells(total, exportName, verified));
}

function mergeInto(total: IntentReport, intent: IntentReport): IntentReport {
	for (const path of intent.files_touched)
		if (!total.files_touched.includes(path)) total.files_touched.push(path);
	total.lines_changed += intent.lines_changed;
	total.mutations += intent.mutations;
	total.declared.AST_REFACTOR += intent.declared.AST_REFACTOR;
	total.declared.INTENT_EVOLUTION += intent.declared.INTENT_EVOLUTION;
	total.computed.AST_REFACTOR += intent.computed.AST_REFACTOR;
	total.computed.INTENT_EVOLUTION += intent.computed.INTENT_EVOLUTION;
	total.class_mismatches += intent.class_mismatches;
	for (const [code, count] of Object.entries(intent.blocked_by_code))
		total.blocked_by_code[code] = (total.blocked_by_code[code] ?? 0) + count;
	total.approvals += intent.approvals;
	total.rejections += intent.rejections;
	total.lessons.push(...intent.lessons);
	return total;
}

function intentCells(
	intent: IntentReport,
	exportName: string,
	verified: boolean
): (string | number)[] {
	const blocked = Object.entries(intent.blocked_by_code).sort(([first], [second]) =>
		first.localeCompare(second)
	);
	return [
		exportName,
		verified ? 'yes' : 'no',
		intent.intent_id,
		intent.name,
		intent.status,
		intent.files_touched.length,
		intent.lines_changed,
		intent.mutations,
		intent.declared.AST_REFACTOR,
		intent.declared.INTENT_EVOLUTION,
		intent.computed.AST_REFACTOR,
		intent.computed.INTENT_EVOLUTION,
		intent.class_mismatches,
		blocked.reduce((sum, [, count]) => sum + count, 0),
		blocked.map(([code, count]) => `${code}:${count}`).join(' '),
		intent.approvals,
		intent.rejections,
		intent.lessons.length
	];
}

export function csvRow(cells: (string | number)[]): string {
	return cells
		.map((cell) => {
			const text = String(cell);
			// Quote when needed; a leading = + - @ is neutralised so spreadsheets do not run it as a formula.
			const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
			return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
		})
		.join(',');
}

export function csvHeader(): string {
	return csvColumns.join(',');
}

/** The rubric's lines under a report, when the scenario has a rubric. */
export function renderScoreMarkdown(score: Score): string {
	const lines = [`## Score: ${score.score} / ${score.maximum}`, ''];
	for (const line of score.lines)
		lines.push(`- ${line.label}: ${line.points >= 0 ? '+' : ''}${line.points}`);
	if (score.lines.length === 0) lines.push('- nothing scored');
	lines.push('');
	return lines.join('\n');
}

/** One export's markdown report as `threadline report <export>` prints it (and the page downloads). */
export function renderExportMarkdown(
	name: string,
	report: GradingReport,
	verified: boolean,
	score: Score | null
): string {
	return (
		renderReportMarkdown(
			report,
			`Threadline report — ${name}${verified ? '' : ' (verification FAILED)'}`
		) + (score ? `\n${renderScoreMarkdown(score)}` : '')
	);
}
