import { parseIntents } from '../intents/parse-intents.js';
import { renderAgentNotes } from './agent-notes.js';
import { canonicalJson } from './canonical-json.js';
import { renderIntentMap } from './intent-map.js';
import type { LedgerEvent } from './ledger-event.js';
import type { Intent } from '../intents/intent.js';

export interface OrchestrationExportInput {
	/** Sealed events, in seq order. */
	events: readonly LedgerEvent[];
	activeIntentsYaml: string;
	/**
	 * The workspace's `AGENT.md`; used only for ledgers whose snapshot did not record its starting
	 * text (older ledgers). Otherwise AGENT.md is recomputed from the ledger, as verify does.
	 */
	agentMd: string;
	/** Unused: the intents are read from `activeIntentsYaml`, exactly as verify reads them. */
	intents?: Intent[];
}

/** The files of `.orchestration/` that are computed from the ledger, never copied. */
export const derivedOrchestrationFiles = [
	'agent_trace.jsonl',
	'audit.jsonl',
	'intent_map.md',
	'AGENT.md'
] as const;

/**
 * The files of `.orchestration/` by name. The jsonl files hold one canonical JSON line per event
 * or trace record, each ending in a newline, so verify can recompute every hash from the text;
 * `intent_map.md` and `AGENT.md` are rendered from the ledger (and the exported intents) by the
 * same functions verify uses to recompute them.
 */
export function exportOrchestration(input: OrchestrationExportInput): Map<string, string> {
	let audit = '';
	let trace = '';
	for (const event of input.events) {
		audit += canonicalJson(event) + '\n';
		if (event.type === 'mutation-record') trace += canonicalJson(event.trace) + '\n';
	}
	const start = startingOrchestrationTexts(input.events);
	return new Map([
		['agent_trace.jsonl', trace],
		['audit.jsonl', audit],
		['intent_map.md', renderIntentMap(input.events, intentsOf(input.activeIntentsYaml))],
		[
			'AGENT.md',
			start === null ? input.agentMd : renderAgentNotes(start.get('AGENT.md') ?? null, input.events)
		],
		['active_intents.yaml', input.activeIntentsYaml]
	]);
}

/** The intents an exported `active_intents.yaml` declares; none when it does not parse. */
export function intentsOf(activeIntentsYaml: string | undefined): Intent[] {
	if (activeIntentsYaml === undefined) return [];
	const parsed = parseIntents(activeIntentsYaml);
	return parsed.ok ? parsed.document.intents : [];
}

/**
 * The starting texts the first workspace snapshot recorded (by name inside `.orchestration/`),
 * or null when the ledger has no snapshot with texts.
 */
export function startingOrchestrationTexts(events: readonly unknown[]): Map<string, string> | null {
	for (const event of events) {
		if (!isObject(event) || event.type !== 'workspace-snapshot') continue;
		if (!isObject(event.texts)) return null;
		const texts = new Map<string, string>();
		for (const [name, text] of Object.entries(event.texts)) {
			if (typeof text === 'string') texts.set(name, text);
		}
		return texts;
	}
	return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
