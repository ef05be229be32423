import type { LedgerEvent } from '../ledger/ledger-event.js';
import type { Rubric } from './rubric.js';

/**
 * A rubric and the scenario it belongs to (the `id` of the scenario.yaml it was read from). A
 * rubric scores only exports of its own scenario: a weather-api export must not get 95/100 from
 * jwt-auth's rubric because both happen to name INT-001.
 */
export interface ScenarioRubric {
	scenarioId: string;
	/** The scenario's title, for the grader's eyes. */
	title: string;
	rubric: Rubric;
}

/** The scenario an export says it is (its ledger's last `scenario-load` event). */
export interface ExportScenario {
	id: string;
	title: string;
	source: string;
	contentHash: string;
}

/** The scenario a ledger last recorded, or null (a ledger older than issue 28, a bare replay). */
export function exportScenario(events: readonly LedgerEvent[]): ExportScenario | null {
	const last = events.findLast((event) => event.type === 'scenario-load');
	if (last?.type !== 'scenario-load') return null;
	return {
		id: last.scenario_id,
		title: last.title,
		source: last.source,
		contentHash: last.content_hash
	};
}

/**
 * Which of the loaded rubrics scores this export, or why none does (`note`). No rubric loaded:
 * neither (the export is simply not scored). An export that does not name its scenario, or whose
 * scenario has no rubric (or two), is scored by none and says so.
 */
export function rubricForExport(
	rubrics: readonly ScenarioRubric[],
	scenario: ExportScenario | null
): { rubric: ScenarioRubric | null; note: string | null } {
	if (rubrics.length === 0) return { rubric: null, note: null };
	if (scenario === null)
		return {
			rubric: null,
			note: 'not scored: the export does not name its scenario (its ledger has no scenario-load event), so no rubric can be known to apply'
		};
	const matching = rubrics.filter((rubric) => rubric.scenarioId === scenario.id);
	if (matching.length === 1) return { rubric: matching[0] as ScenarioRubric, note: null };
	if (matching.length > 1)
		return {
			rubric: null,
			note: `not scored: ${matching.length} rubrics are loaded for scenario "${scenario.id}"; keep one`
		};
	const loaded = [...new Set(rubrics.map((rubric) => `"${rubric.scenarioId}"`))].join(', ');
	return {
		rubric: null,
		note: `not scored: the export is scenario "${scenario.id}" (${scenario.title}); the rubrics loaded are for ${loaded}`
	};
}

/** Step numbers (from 1) whose latest check in the ledger passed (`step-check` events). */
export function passedSteps(events: readonly LedgerEvent[]): Set<number> {
	const latest = new Map<number, boolean>();
	for (const event of events) if (event.type === 'step-check') latest.set(event.step, event.passed);
	return new Set([...latest].filter(([, passed]) => passed).map(([step]) => step));
}
