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
	return new Map([['agent_trace.jsonl', trace], ['audit.jsonl', audit], ...notesOf(input)]);
}

/**
 * The same files as UTF-8 bytes, for the zip: each jsonl line is encoded on its own into one
 * growing buffer. Concatenating 30 MB of lines first made one rope string that a single
 * non-ASCII character turned two bytes wide, and encoding it cost more than writing it.
 */
export function exportOrchestrationBytes(input: OrchestrationExportInput): Map<string, Uint8Array> {
	const audit = new LineBytes();
	const trace = new LineBytes();
	for (const event of input.events) {
		audit.push(canonicalJson(event));
		if (event.type === 'mutation-record') trace.push(canonicalJson(event.trace));
	}
	const encoder = new TextEncoder();
	return new Map([
		['agent_trace.jsonl', trace.bytes()],
		['audit.jsonl', audit.bytes()],
		...notesOf(input).map(([name, text]) => [name, encoder.encode(text)] as [string, Uint8Array])
	]);
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

/** jsonl lines written as UTF-8 into a buffer that doubles when full. */
class LineBytes {
	#buffer = new Uint8Array(1 << 16);
	#length = 0;
	readonly #encoder = new TextEncoder();

	push(line: string): void {
		// UTF-8 needs at most three bytes per UTF-16 unit, plus the line break.
		const needed = this.#length + line.length * 3 + 1;
		if (needed > this.#buffer.length) {
			const grown = new Uint8Array(Math.max(needed, this.#buffer.length * 2));
			grown.set(this.#buffer.subarray(0, this.#length));
			this.#buffer = grown;
		}
		this.#length += this.#encoder.encodeInto(line, this.#buffer.subarray(this.#length)).written;
		this.#buffer[this.#length++] = 10;
	}

	bytes(): Uint8Array {
		return this.#buffer.slice(0, this.#length);
	}
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
