import { canonicalJson } from './canonical-json.js';
import { renderIntentMap } from './intent-map.js';
import type { LedgerEvent } from './ledger-event.js';
import type { Intent } from '../intents/intent.js';

export interface OrchestrationExportInput {
	/** Sealed events, in seq order. */
	events: readonly LedgerEvent[];
	activeIntentsYaml: string;
	agentMd: string;
	intents: Intent[];
}

/**
 * The files of `.orchestration/` by name. The jsonl files hold one canonical JSON line per event
 * or trace record, each ending in a newline, so verify can recompute every hash from the text.
 */
export function exportOrchestration(input: OrchestrationExportInput): Map<string, string> {
	let audit = '';
	let trace = '';
	for (const event of input.events) {
		audit += canonicalJson(event) + '\n';
		if (event.type === 'mutation-record') trace += canonicalJson(event.trace) + '\n';
	}
	return new Map([
		['agent_trace.jsonl', trace],
		['audit.jsonl', audit],
		['intent_map.md', renderIntentMap(input.events, input.intents)],
		['AGENT.md', input.agentMd],
		['active_intents.yaml', input.activeIntentsYaml]
	]);
}
