import { describe, expect, it } from 'vitest';
import { buildMixedLedger } from '../ledger/ledger-test-fixtures.js';
import { buildReport } from './build-report.js';
import { classCsv } from './class-csv.js';
import { csvHeader } from './render-report.js';
import { criteriaResults } from './criteria-results.js';
import type { Intent } from '../intents/intent.js';

describe('classCsv', () => {
	it('orders exports by name and adds the score columns only with a rubric', async () => {
		const { events } = await buildMixedLedger();
		const report = buildReport(events, []);
		const exports = [
			{
				name: 'b.zip',
				report,
				verified: true,
				score: null,
				scenario: 'weather-api',
				scoreNote: 'not scored: scenario "weather-api", rubric for "jwt-auth"'
			},
			{
				name: 'a.zip',
				report,
				verified: false,
				score: { score: 5, maximum: 10, lines: [] },
				scenario: 'jwt-auth'
			}
		];
		const plain = classCsv(exports, false).split('\n');
		expect(plain[0]).toBe(csvHeader());
		expect(plain.map((line) => line.split(',')[0])).toEqual(['export', 'a.zip', 'b.zip']);
		const scored = classCsv(exports, true).split('\n');
		expect(scored[0]).toBe(`${csvHeader()},scenario,score,max_score,score_note`);
		expect(scored[1]?.endsWith(',jwt-auth,5,10,')).toBe(true);
		expect(scored[2]).toMatch(
			/,weather-api,,,"not scored: scenario ""weather-api"", rubric for ""jwt-auth"""$/
		);
	});
});

describe('criteriaResults', () => {
	it('reads complete_intent outcomes from the ledger, per intent', async () => {
		const { events } = await buildMixedLedger();
		const intent = (id: string): Intent => ({
			id,
			name: id,
			status: 'IN_PROGRESS',
			owned_scope: [],
			constraints: [],
			acceptance_criteria: ['a', { description: 'b', run: 'true' }],
			parallel: false,
			extra: {}
		});
		const last = events.at(-1)?.seq ?? 0;
		const withCompletion = [
			...events,
			{
				...events[0],
				type: 'tool-call-start',
				tool: 'complete_intent',
				tool_call_id: 'done-1',
				input: { intent_id: 'INT-001' },
				seq: last + 1
			},
			{
				...events[0],
				type: 'tool-call-finish',
				tool: 'complete_intent',
				tool_call_id: 'done-1',
				ok: true,
				seq: last + 2
			},
			{
				...events[0],
				type: 'tool-call-start',
				tool: 'complete_intent',
				tool_call_id: 'done-2',
				input: { intent_id: 'INT-002' },
				seq: last + 3
			},
			{
				...events[0],
				type: 'tool-call-finish',
				tool: 'complete_intent',
				tool_call_id: 'done-2',
				ok: false,
				code: 'command_failed',
				seq: last + 4
			}
		] as typeof events;
		const results = criteriaResults(withCompletion, [
			intent('INT-001'),
			intent('INT-002'),
			intent('INT-003')
		]);
		expect(
			results.map((result) => [result.intent_id, result.outcome, result.passed, result.runnable])
		).toEqual([
			['INT-001', 'passed', 2, 1],
			['INT-002', 'failed', 0, 1],
			['INT-003', 'not-run', 0, 1]
		]);
	});
});
