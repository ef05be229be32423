import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import { buildReport } from './build-report.js';
import { rubricSchema, scoreExport } from './rubric.js';
import {
	exportScenario,
	passedSteps,
	rubricForExport,
	type ScenarioRubric
} from './scenario-rubric.js';

const rubric = (scenarioId: string): ScenarioRubric => ({
	scenarioId,
	title: scenarioId,
	rubric: rubricSchema.parse({ criteria: [{ intent: 'INT-001', points: 10 }] })
});

const event = (seq: number, body: Record<string, unknown>): LedgerEvent =>
	({
		seq,
		ts: '2026-01-01T00:00:00Z',
		prev_hash: '',
		hash: '',
		session_id: 'workspace',
		...body
	}) as unknown as LedgerEvent;

const load = (seq: number, id: string) =>
	event(seq, {
		type: 'scenario-load',
		scenario_id: id,
		title: `The ${id}`,
		source: `built-in:${id}`,
		manifest_hash: 'sha256:m',
		content_hash: 'sha256:c'
	});

describe('rubricForExport: a rubric scores only its own scenario', () => {
	it('picks the rubric of the scenario the ledger last recorded', () => {
		const scenario = exportScenario([load(2, 'jwt-auth'), load(9, 'weather-api')]);
		expect(scenario?.id).toBe('weather-api');
		const chosen = rubricForExport([rubric('jwt-auth'), rubric('weather-api')], scenario);
		expect(chosen.rubric?.scenarioId).toBe('weather-api');
		expect(chosen.note).toBeNull();
	});

	it("refuses another scenario's rubric, and says which", () => {
		const chosen = rubricForExport([rubric('jwt-auth')], exportScenario([load(2, 'weather-api')]));
		expect(chosen.rubric).toBeNull();
		expect(chosen.note).toMatch(
			/export is scenario "weather-api".*rubrics loaded are for "jwt-auth"/
		);
	});

	it('scores nothing for an export that names no scenario, or when two rubrics claim it', () => {
		expect(rubricForExport([rubric('jwt-auth')], null).note).toMatch(/does not name its scenario/);
		const two = rubricForExport([rubric('a'), rubric('a')], exportScenario([load(2, 'a')]));
		expect(two.rubric).toBeNull();
		expect(two.note).toMatch(/2 rubrics/);
		expect(rubricForExport([], null)).toEqual({ rubric: null, note: null });
	});
});

describe('steps are evidence', () => {
	it("counts a step passed by its latest check, and a rubric's step points follow it", () => {
		const check = (seq: number, step: number, passed: boolean) =>
			event(seq, { type: 'step-check', step, title: `s${step}`, intents: [], passed });
		const events = [check(3, 1, false), check(4, 1, true), check(5, 2, true), check(6, 2, false)];
		const steps = passedSteps(events);
		expect([...steps]).toEqual([1]);
		const scored = scoreExport(
			rubricSchema.parse({
				steps: [
					{ step: 1, points: 5 },
					{ step: 2, points: 7 }
				]
			}),
			{
				report: buildReport([], []),
				criteria: [],
				verified: true,
				unattributedFiles: 0,
				passedSteps: steps
			}
		);
		expect(scored.score).toBe(5);
		expect(scored.maximum).toBe(12);
		expect(scored.lines.map((line) => line.label)).toEqual(['step 1 passed', 'step 2 not passed']);
	});
});
