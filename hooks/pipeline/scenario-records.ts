import type { LedgerEvent, LedgerEventDraft } from '../ledger/ledger-event.js';
import type { PipelineParts } from './pipeline-parts.js';

/** A scenario as the ledger names it (see the `scenario-load` event). */
export type ScenarioIdentity = Omit<
	Extract<LedgerEventDraft, { type: 'scenario-load' }>,
	'type' | 'session_id'
>;

/**
 * Records which scenario the workspace is, unless the ledger's last `scenario-load` already says
 * the same (a reload of the same workspace is not a new scenario; new content under the same id is).
 */
export async function recordScenarioLoad(
	parts: PipelineParts,
	identity: ScenarioIdentity
): Promise<void> {
	const release = await parts.mutex.lock();
	try {
		const last = lastScenarioLoad(await parts.options.ledger.events());
		if (last && sameIdentity(last, identity)) return;
		await parts.writer.append([{ type: 'scenario-load', session_id: 'workspace', ...identity }]);
	} finally {
		release();
	}
}

/** A step's check result (issue 28: steps are evidence), as the `step-check` event holds it. */
export type StepCheckRecord = Omit<
	Extract<LedgerEventDraft, { type: 'step-check' }>,
	'type' | 'session_id'
>;

/** Records a step's check result in the ledger: grading counts the steps passed from these. */
export async function recordStepCheck(parts: PipelineParts, check: StepCheckRecord): Promise<void> {
	const release = await parts.mutex.lock();
	try {
		await parts.writer.append([{ type: 'step-check', session_id: 'workspace', ...check }]);
	} finally {
		release();
	}
}

/** The scenario a ledger last recorded (null: none, e.g. a ledger older than issue 28). */
export function lastScenarioLoad(
	events: readonly LedgerEvent[]
): Extract<LedgerEvent, { type: 'scenario-load' }> | null {
	const last = events.findLast((event) => event.type === 'scenario-load');
	return last?.type === 'scenario-load' ? last : null;
}

function sameIdentity(left: ScenarioIdentity, right: ScenarioIdentity): boolean {
	return (
		left.scenario_id === right.scenario_id &&
		left.source === right.source &&
		left.title === right.title &&
		left.manifest_hash === right.manifest_hash &&
		left.content_hash === right.content_hash
	);
}
