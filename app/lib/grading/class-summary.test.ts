import { describe, expect, it } from 'vitest';
import type { GradeSummary } from './grade-protocol.js';
import { classSummary, classSummaryByScenario, compareExports } from './class-summary.js';

function summary(
	name: string,
	scenario: string,
	completed: boolean,
	verified = true
): GradeSummary {
	const intent = {
		intent_id: 'INT-001',
		name: 'x',
		status: completed ? 'COMPLETED' : 'IN_PROGRESS',
		files_touched: ['src/a.ts'],
		lines_changed: 1,
		mutations: 1,
		declared: {},
		computed: {},
		class_mismatches: 0,
		blocked_by_code: {},
		approvals: 0,
		rejections: 0,
		lessons: []
	};
	return {
		id: 1,
		name,
		kind: 'zip',
		scenarioKey: `scenario:${scenario}:sha256:c`,
		scenarioLabel: `${scenario} — The ${scenario}`,
		scenario: {
			id: scenario,
			title: `The ${scenario}`,
			source: 'built-in',
			contentHash: 'sha256:c'
		},
		scoreNote: null,
		stepsPassed: verified ? [1] : [],
		verified,
		filesChecked: true,
		firstFailure: verified ? null : 'audit.jsonl line 4 (seq 4): hash does not match',
		stopSeq: null,
		chain: { audit: verified, trace: true },
		schemaInvalid: 0,
		contentMismatches: 0,
		unattributed: [],
		missing: 0,
		events: 5,
		report: {
			intents: [intent],
			unassigned: { ...intent, intent_id: '(none)' },
			tool_calls: 1,
			sessions: []
		},
		criteria: [],
		classMismatches: 0,
		score: null
	} as unknown as GradeSummary;
}

describe('the class summary per scenario', () => {
	it('never adds up one intent id across scenarios', () => {
		const all = [
			summary('a', 'jwt-auth', true),
			summary('b', 'jwt-auth', false),
			summary('c', 'weather-api', true)
		];
		// The whole class mixes them (INT-001 completed by 2 of 3): per scenario it does not.
		expect(classSummary(all).intents).toEqual([{ intentId: 'INT-001', completed: 2 }]);
		const groups = classSummaryByScenario(all);
		expect(
			groups.map((group) => [group.label, group.summary.exports, group.summary.intents])
		).toEqual([
			['jwt-auth — The jwt-auth', 2, [{ intentId: 'INT-001', completed: 1 }]],
			['weather-api — The weather-api', 1, [{ intentId: 'INT-001', completed: 1 }]]
		]);
	});

	it('compares the verdict and the first failure, and refuses two scenarios', () => {
		const clean = summary('clean', 'jwt-auth', true);
		const tampered = summary('tampered', 'jwt-auth', true, false);
		const compared = compareExports(clean, tampered);
		expect(compared?.left.verdict).toBe('verified');
		expect(compared?.right.verdict).toBe('NOT verified');
		expect(compared?.right.firstFailure).toMatch(/seq 4/);
		expect(compareExports(clean, summary('other', 'weather-api', true))).toBeNull();
	});
});
