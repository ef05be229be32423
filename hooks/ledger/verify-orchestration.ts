import { contentHash } from '../hashing/sha256.js';
import { renderAgentNotes } from './agent-notes.js';
import {
	conversationFileName,
	conversationLines,
	isConversationEvent
} from './conversation-export.js';
import { derivedOrchestrationFiles, intentsOf, startingOrchestrationTexts } from './export.js';
import { renderIntentMap } from './intent-map.js';
import { jsonlLayout } from './jsonl-layout.js';
import type { LedgerEvent } from './ledger-event.js';

export interface OrchestrationCheck {
	/** Names inside `.orchestration/` that were compared, in order. */
	checked: string[];
	/** One sentence per problem, each starting with the file's name. */
	problems: string[];
	/** What is worth saying but is no failure (an export from an older Threadline). */
	notes?: string[];
}

const orchestrationPrefix = '.orchestration/';
/** Required in every export; `conversation.jsonl` only when the ledger holds a conversation. */
const requiredFiles = [
	'active_intents.yaml',
	...derivedOrchestrationFiles.filter((name) => name !== conversationFileName)
] as const;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/**
 * Every file of the exported `.orchestration/`, byte for byte:
 * - `audit.jsonl` and `agent_trace.jsonl` must be exactly one canonical line per event or record
 *   (their chains are checked elsewhere; here: no extra blank lines, CRLF or invalid UTF-8);
 * - `intent_map.md` and `AGENT.md` are recomputed from the ledger (and the exported intents);
 * - every other file (`active_intents.yaml`, a scenario's `hooks.yaml`, …) must equal its last
 *   recorded version: the starting snapshot, then each mutation record or governance-file-write;
 * - a file the ledger never recorded is reported, and so is a recorded file that is missing.
 * The ledger events are the parsed audit lines; anything malformed becomes a problem, never a throw.
 */
export async function verifyOrchestrationFiles(
	events: readonly unknown[],
	orchestration: ReadonlyMap<string, Uint8Array>
): Promise<OrchestrationCheck> {
	const notes: string[] = [];
	const check: OrchestrationCheck = { checked: [], problems: [], notes };
	const problem = (message: string): void => {
		check.problems.push(message);
	};
	const versions = recordedVersions(events);
	const exportedIntents = orchestration.get('active_intents.yaml');
	const intentsText = exportedIntents ? decodeOrNull(exportedIntents) : null;

	for (const name of [...orchestration.keys()].sort(compareText)) {
		const bytes = orchestration.get(name) as Uint8Array;
		check.checked.push(name);
		if (name === 'audit.jsonl' || name === 'agent_trace.jsonl') {
			// Their entries were checked by the chain pass; here only their layout. CRLF line ends (a
			// checkout on Windows) and a missing final newline are the same lines.
			const layout = jsonlLayout(bytes);
			if (layout === 'invalid-utf8') problem(`${name}: is not valid UTF-8`);
			else if (layout === 'blank-lines') {
				problem(
					`${name}: has blank lines (an export holds one line per entry, with at most one final line break)`
				);
			}
		} else if (name === conversationFileName) {
			// Recomputed from the audit chain: an entry edited, dropped, added or moved differs.
			const expected = safely(() => conversationText(events));
			compareDerived(name, withoutCarriageReturns(bytes), expected, problem);
		} else if (name === 'intent_map.md') {
			const expected = safely(() =>
				renderIntentMap(events as LedgerEvent[], intentsOf(intentsText ?? undefined))
			);
			compareDerived(name, bytes, expected, problem);
		} else if (name === 'AGENT.md') {
			const start = startingOrchestrationTexts(events);
			if (start === null) {
				problem(
					`${name}: cannot be recomputed: the ledger's starting snapshot has no texts (a ledger from an older Threadline)`
				);
				continue;
			}
			const expected = safely(() =>
				renderAgentNotes(start.get(name) ?? null, events as LedgerEvent[])
			);
			compareDerived(name, bytes, expected, problem);
		} else {
			const version = versions.get(name);
			if (!version) {
				problem(`${name}: not recorded in the ledger (an unknown file in .orchestration/)`);
			} else if (version.hash === null) {
				problem(`${name}: exists, but its last record (${version.where}) deleted it`);
			} else if ((await contentHash(bytes)) !== version.hash) {
				problem(`${name}: differs from its last recorded version (${version.where})`);
			}
		}
	}
	for (const name of requiredFiles) {
		if (!orchestration.has(name)) problem(`${name}: missing from the export`);
	}
	if (!orchestration.has(conversationFileName)) {
		const entries = events.filter(isConversationEvent).length;
		if (entries > 0)
			problem(
				`${conversationFileName}: missing from the export, but the ledger holds ${entries} conversation entr${entries === 1 ? 'y' : 'ies'}`
			);
		else
			notes.push(
				`${conversationFileName}: not in this export and no conversation in its ledger (an export from a Threadline older than conversation records)`
			);
	}
	for (const [name, version] of [...versions].sort(([left], [right]) => compareText(left, right))) {
		if (
			version.hash !== null &&
			!orchestration.has(name) &&
			!requiredFiles.includes(name as never)
		) {
			problem(`${name}: recorded (${version.where}) but missing from the export`);
		}
	}
	return check;
}

function conversationText(events: readonly unknown[]): string {
	let text = '';
	for (const line of conversationLines(events as LedgerEvent[])) text += line + '\n';
	return text;
}

/** A checkout on Windows writes CRLF: the same lines. */
function withoutCarriageReturns(bytes: Uint8Array): Uint8Array {
	if (!bytes.includes(13)) return bytes;
	const text = decodeOrNull(bytes);
	return text === null ? bytes : encoder.encode(text.replaceAll('\r\n', '\n'));
}

interface Version {
	hash: string | null;
	where: string;
}

/** The last recorded version of each non-derived `.orchestration/` file, by name inside it. */
function recordedVersions(events: readonly unknown[]): Map<string, Version> {
	const versions = new Map<string, Version>();
	let snapshotSeen = false;
	for (const event of events) {
		if (!isObject(event)) continue;
		const seq = typeof event.seq === 'number' ? event.seq : '?';
		if (event.type === 'workspace-snapshot' && isObject(event.files) && !snapshotSeen) {
			// Only the starting snapshot: a later one must not launder an unrecorded change.
			snapshotSeen = true;
			for (const [path, hash] of Object.entries(event.files)) {
				const name = orchestrationName(path);
				if (name !== null && typeof hash === 'string' && !isDerived(name)) {
					versions.set(name, { hash, where: `the starting snapshot, seq ${seq}` });
				}
			}
		} else if (event.type === 'governance-file-write' && typeof event.path === 'string') {
			const name = orchestrationName(event.path);
			if (name !== null && !isDerived(name)) {
				const hash = typeof event.file_hash === 'string' ? event.file_hash : null;
				versions.set(name, { hash, where: `governance-file-write, seq ${seq}` });
			}
		} else if (event.type === 'mutation-record' && isObject(event.trace)) {
			const trace = event.trace;
			const links = isObject(trace.metadata) ? trace.metadata['dev.threadline'] : undefined;
			if (!isObject(links) || !Array.isArray(trace.files)) continue;
			for (const file of trace.files) {
				if (!isObject(file) || typeof file.path !== 'string') continue;
				const name = orchestrationName(file.path);
				if (name === null || isDerived(name)) continue;
				const hash =
					links.operation === 'delete' || typeof links.file_hash !== 'string'
						? null
						: links.file_hash;
				versions.set(name, { hash, where: `mutation record, seq ${seq}` });
			}
		}
	}
	return versions;
}

function compareDerived(
	name: string,
	bytes: Uint8Array,
	expected: string | null,
	problem: (message: string) => void
): void {
	if (expected === null) {
		problem(`${name}: cannot be recomputed: the ledger is malformed`);
		return;
	}
	if (!sameBytes(bytes, encoder.encode(expected))) {
		const text = decodeOrNull(bytes);
		const line = text === null ? null : firstDifferentLine(text, expected);
		problem(
			`${name}: differs from what the ledger gives${line === null ? '' : ` (first at line ${line})`}`
		);
	}
}

function firstDifferentLine(actual: string, expected: string): number {
	const left = actual.split('\n');
	const right = expected.split('\n');
	for (let index = 0; index < Math.max(left.length, right.length); index++) {
		if (left[index] !== right[index]) return index + 1;
	}
	return 1;
}

function orchestrationName(path: string): string | null {
	const composed = path.normalize('NFC');
	return composed.startsWith(orchestrationPrefix)
		? composed.slice(orchestrationPrefix.length)
		: null;
}

function isDerived(name: string): boolean {
	return (derivedOrchestrationFiles as readonly string[]).includes(name);
}

function safely(render: () => string): string | null {
	try {
		return render();
	} catch {
		return null;
	}
}

function decodeOrNull(bytes: Uint8Array): string | null {
	try {
		return strictUtf8.decode(bytes);
	} catch {
		return null;
	}
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
	if (left.length !== right.length) return false;
	for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
	return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compareText(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}
