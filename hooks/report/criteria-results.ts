import type { Intent } from '../intents/intent.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';

/**
 * What the ledger says about each intent's acceptance criteria. The ledger records a
 * `complete_intent` call and its outcome, not each criterion's exit code, so this is per intent:
 * `passed` (complete_intent succeeded: every runnable criterion exited 0), `failed` (the last
 * complete_intent ended in an error), `not-run`. Re-running them is `threadline check`'s job.
 */
export type CriteriaOutcome = 'passed' | 'failed' | 'not-run';

export interface CriteriaResult {
	intent_id: string;
	/** Criteria listed for the intent (runnable and descriptive). */
	total: number;
	/** Criteria with a `run:` command, the ones complete_intent executes. */
	runnable: number;
	/** How many are counted as passing: all when `passed`, none otherwise. */
	passed: number;
	outcome: CriteriaOutcome;
	/** The seq of the tool-call-finish the outcome comes from; null when not run. */
	seq: number | null;
	/** Where the result comes from, in words, so a page can say it. */
	source: 'ledger';
}

export function criteriaResults(
	events: readonly LedgerEvent[],
	intents: readonly Intent[]
): CriteriaResult[] {
	const intentOfCall = new Map<string, string>();
	const outcomes = new Map<string, { outcome: CriteriaOutcome; seq: number }>();
	for (const event of events) {
		if (event.type === 'tool-call-start' && event.tool === 'complete_intent') {
			const input = event.input as { intent_id?: unknown } | null;
			if (input && typeof input.intent_id === 'string')
				intentOfCall.set(event.tool_call_id, input.intent_id);
		} else if (event.type === 'tool-call-finish' && event.tool === 'complete_intent') {
			const intentId = intentOfCall.get(event.tool_call_id) ?? event.intent_id ?? null;
			if (intentId === null) continue;
			// A block before execution (wrong intent, not active) says nothing about the criteria.
			if (!event.ok && event.code !== 'command_failed') continue;
			outcomes.set(intentId, { outcome: event.ok ? 'passed' : 'failed', seq: event.seq });
		}
	}
	return intents.map((intent) => {
		const total = intent.acceptance_criteria.length;
		const runnable = intent.acceptance_criteria.filter(
			(criterion) => typeof criterion !== 'string'
		).length;
		const recorded = outcomes.get(intent.id);
		const outcome = recorded?.outcome ?? 'not-run';
		return {
			intent_id: intent.id,
			total,
			runnable,
			passed: outcome === 'passed' ? total : 0,
			outcome,
			seq: recorded?.seq ?? null,
			source: 'ledger' as const
		};
	});
}
