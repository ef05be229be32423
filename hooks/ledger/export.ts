import { parseIntents } from '../intents/parse-intents.js';
import { renderAgentNotes } from './agent-notes.js';
import { canonicalJson } from './canonical-json.js';
import {
	conversationEntryCount,
	conversationFileName,
	conversationLines
} from './conversation-export.js';
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
	'AGENT.md',
	conversationFileName
] as const;

/**
 * A file of `.orchestration/` as the export generates it: the jsonl files as their lines (each
 * without its newline), so a zip writer can encode and compress them a block at a time instead of
 * holding 40 MB of text and its bytes at once; the notes as whole texts.
 */
export type OrchestrationContent =
	{ kind: 'lines'; lines: () => Iterable<string>; count: number } | { kind: 'text'; text: string };

/**
 * The files of `.orchestration/` by name, in the order the other export functions list them. The
 * jsonl files hold one canonical JSON line per event or trace record, each ending in a newline,
 * so verify can recompute every hash from the text; `intent_map.md` and `AGENT.md` are rendered
 * from the ledger (and the exported intents) by the same functions verify uses to recompute them.
 */
export function orchestrationContents(
	input: OrchestrationExportInput
): Map<string, OrchestrationContent> {
	const events = input.events;
	let traceRecords = 0;
	for (const event of events) if (event.type === 'mutation-record') traceRecords++;
	const contents = new Map<string, OrchestrationContent>([
		['agent_trace.jsonl', { kind: 'lines', lines: () => traceLines(events), count: traceRecords }],
		['audit.jsonl', { kind: 'lines', lines: () => auditLines(events), count: events.length }],
		[
			conversationFileName,
			{
				kind: 'lines',
				lines: () => conversationLines(events),
				count: conversationEntryCount(events)
			}
		]
	]);
	for (const [name, text] of notesOf(input)) contents.set(name, { kind: 'text', text });
	return contents;
}

function* auditLines(events: readonly LedgerEvent[]): Iterable<string> {
	for (const event of events) yield canonicalJson(event);
}

/** The canonical line of each trace record, in order: `agent_trace.jsonl` without its newlines. */
export function* traceLines(events: readonly LedgerEvent[]): Iterable<string> {
	for (const event of events)
		if (event.type === 'mutation-record') yield canonicalJson(event.trace);
}

/** The files of `.orchestration/` as text (see orchestrationContents). */
export function exportOrchestration(input: OrchestrationExportInput): Map<string, string> {
	const files = new Map<string, string>();
	for (const [name, content] of orchestrationContents(input)) {
		if (content.kind === 'text') files.set(name, content.text);
		else {
			let text = '';
			for (const line of content.lines()) text += line + '\n';
			files.set(name, text);
		}
	}
	return files;
}

/** The derived notes and the intents file, after the two jsonl files. */
function notesOf(input: OrchestrationExportInput): [string, string][] {
	const start = startingOrchestrationTexts(input.events);
	return [
		['intent_map.md', renderIntentMap(input.events, intentsOf(input.activeIntentsYaml))],
		[
			'AGENT.md',
			start === null ? input.agentMd : renderAgentNotes(start.get('AGENT.md') ?? null, input.events)
		],
		['active_intents.yaml', input.activeIntentsYaml]
	];
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
