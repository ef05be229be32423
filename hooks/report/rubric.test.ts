import { describe, expect, it } from 'vitest';
import type { GradingReport, IntentReport } from './build-report.js';
import type { CriteriaResult } from './criteria-results.js';
import { rubricSchema, scoreExport } from './rubric.js';

function intent(id: string, blocks: Record<string, number>): IntentReport {
	return {
		intent_id: id,
		name: id,
		status: 'IN_PROGRESS',
		files_touched: [],
		lines_changed: 0,
		mutations: 0,
		declared: { AST_REFACTOR: 0, INTENT_EVOLUTION: 0 },
		computed: { AST_REFACTOR: 0, INTENT_EVOLUTION: 0 },
		class_mismatches: 0,
		blocked_by_code: blocks,
		approvals: 0,
		rejections: 0,
		lessons: []
	};
}

const report: GradingReport = {
	intents: [intent('INT-001', { scope_violation: 2 }), intent('INT-002', {})],
	unassigned: intent('(none)', { intent_required: 1, scope_violation: 1 }),
	tool_calls: 10,
	sessions: ['a']
};

function criteria(id: string, passed: number, total: number): CriteriaResult {
	return {
		intent_id: id,
		total,
		runnable: total,
		passed,
		outcome: passed === total && total > 0 ? 'passed' : 'not-run',
		seq: null,
		source: 'ledger'
	};
}

const rubric = rubricSchema.parse({
	criteria: [
		{ intent: 'INT-001', points: 60 },
		{ intent: 'INT-002', points: 40 }
	],
	penalties: {
		blocks: { scope_violation: 5, intent_required: 2 },
		unattributed_change: 10,
		verify_failed: 20
	}
});

describe('scoreExport', () => {
	it('adds criteria points and subtracts penalties per block, per unattributed file, for a failed verify', () => {
		const score = scoreExport(rubric, {
			report,
			criteria: [criteria('INT-001', 2, 2), criteria('INT-002', 0, 3)],
			verified: false,
			unattributedFiles: 1
		});
		expect(score.maximum).toBe(100);
		// 60 − 3×5 (scope, across intents and unassigned) − 2 − 10 − 20
		expect(score.score).toBe(13);
		expect(score.lines.map((line) => line.points)).toEqual([60, 0, -2, -15, -10, -20]);
	});

	it('gives partial credit in proportion, or none without partial_credit', () => {
		const input = {
			report,
			criteria: [criteria('INT-001', 1, 3)],
			verified: true,
			unattributedFiles: 0
		};
		const partial = scoreExport(
			{ ...rubric, penalties: { blocks: {}, unattributed_change: 0, verify_failed: 0 } },
			input
		);
		expect(partial.score).toBe(20);
		const whole = scoreExport(
			{
				...rubric,
				partial_credit: false,
				penalties: { blocks: {}, unattributed_change: 0, verify_failed: 0 }
			},
			input
		);
		expect(whole.score).toBe(0);
	});

	it('never goes below the minimum and rounds to two decimals', () => {
		const harsh = rubricSchema.parse({
			criteria: [{ intent: 'INT-001', points: 10 }],
			penalties: { blocks: { scope_violation: 100 } },
			minimum: -5
		});
		expect(
			scoreExport(harsh, { report, criteria: [], verified: true, unattributedFiles: 0 }).score
		).toBe(-5);
		const thirds = rubricSchema.parse({ criteria: [{ intent: 'INT-001', points: 10 }] });
		expect(
			scoreExport(thirds, {
				report,
				criteria: [criteria('INT-001', 1, 3)],
				verified: true,
				unattributedFiles: 0
			}).score
		).toBe(3.33);
	});

	it('rejects unknown block codes and negative points', () => {
		expect(rubricSchema.safeParse({ penalties: { blocks: { scope_violaton: 1 } } }).success).toBe(
			false
		);
		expect(rubricSchema.safeParse({ criteria: [{ intent: 'INT-001', points: -1 }] }).success).toBe(
			false
		);
	});
});
