import type { Intent } from '../intents/intent.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';

export interface IntentReport {
	intent_id: string;
	name: string;
	status: string;
	files_touched: string[];
	/** Lines in the changed ranges of every mutation (what a grader reads as "lines written"). */
	lines_changed: number;
	mutations: number;
	declared: { AST_REFACTOR: number; INTENT_EVOLUTION: number };
	computed: { AST_REFACTOR: number; INTENT_EVOLUTION: number };
	class_mismatches: number;
	/** Calls that ended in a ToolError, by code (blocks, rejections, failed commands). */
	blocked_by_code: Record<string, number>;
	approvals: number;
	rejections: number;
	lessons: string[];
}

export interface GradingReport {
	intents: IntentReport[];
	/** Activity under no intent: human edits, calls made before an intent was selected. */
	unassigned: IntentReport;
	tool_calls: number;
	sessions: string[];
}

const noIntent = '(none)';

/** Per-intent grading figures computed from the ledger alone, so the app and the CLI agree. */
export function buildReport(
	events: readonly LedgerEvent[],
	intents: readonly Intent[]
): GradingReport {
	const byIntent = new Map<string, IntentReport>();
	const entry = (intentId: string | null | undefined): IntentReport => {
		const key = intentId ?? noIntent;
		let report = byIntent.get(key);
		if (!report) {
			const intent = intents.find((candidate) => candidate.id === key);
			report = emptyReport(
				key,
				intent?.name ?? (key === noIntent ? 'No intent' : 'Unknown intent'),
				intent?.status ?? ''
			);
			byIntent.set(key, report);
		}
		return report;
	};
	for (const intent of intents) entry(intent.id);
	const sessions = new Set<string>();
	let toolCalls = 0;
	for (const event of events) {
		if (event.type !== 'workspace-snapshot') sessions.add(event.session_id);
		switch (event.type) {
			case 'tool-call-start':
				toolCalls++;
				break;
			case 'tool-call-finish':
				if (!event.ok && event.code) {
					const report = entry(event.intent_id);
					report.blocked_by_code[event.code] = (report.blocked_by_code[event.code] ?? 0) + 1;
				}
				break;
			case 'approval-response': {
				const report = entry(event.intent_id);
				if (event.approved) report.approvals++;
				else report.rejections++;
				break;
			}
			case 'lesson-record':
				entry(event.intent_id).lessons.push(event.lesson);
				break;
			case 'intent-status-change':
				entry(event.intent_id).status = event.to;
				break;
			case 'mutation-record': {
				const metadata = event.trace.metadata['dev.threadline'];
				const report = entry(metadata.intent_id);
				report.mutations++;
				for (const file of event.trace.files) {
					if (!report.files_touched.includes(file.path)) report.files_touched.push(file.path);
					for (const conversation of file.conversations) {
						for (const range of conversation.ranges)
							report.lines_changed += range.end_line - range.start_line + 1;
					}
				}
				report.computed[metadata.mutation_class]++;
				if (metadata.declared_mutation_class) {
					report.declared[metadata.declared_mutation_class]++;
					if (metadata.declared_mutation_class !== metadata.mutation_class)
						report.class_mismatches++;
				}
				break;
			}
		}
	}
	for (const report of byIntent.values()) report.files_touched.sort();
	const unassigned = byIntent.get(noIntent) ?? emptyReport(noIntent, 'No intent', '');
	byIntent.delete(noIntent);
	return {
		intents: [...byIntent.values()],
		unassigned,
		tool_calls: toolCalls,
		sessions: [...sessions].sort()
	};
}

function emptyReport(intentId: string, name: string, status: string): IntentReport {
	return {
		intent_id: intentId,
		name,
		status,
		files_touched: [],
		lines_changed: 0,
		mutations: 0,
		declared: { AST_REFACTOR: 0, INTENT_EVOLUTION: 0 },
		computed: { AST_REFACTOR: 0, INTENT_EVOLUTION: 0 },
		class_mismatches: 0,
		blocked_by_code: {},
		approvals: 0,
		rejections: 0,
		lessons: []
	};
}
