import type { Intent } from '../../../hooks/intents/intent.js';
import { orchestrationContents, traceLines } from '../../../hooks/ledger/export.js';
import { linesToBytes } from '../../../hooks/ledger/line-blocks.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type { VerifyInput } from '../../../hooks/ledger/verify.js';
import { activeIntentsPath, agentNotesPath } from '../../../hooks/pipeline/governance-state.js';
import { zipStream, type ZipContent } from './zip-stream.js';

export interface OrchestrationZipInput {
	/** The ledger's sealed events, in seq order. */
	events: readonly LedgerEvent[];
	/** The intents in force (GovernanceState's `intentsYaml` and `intents.intents`). */
	activeIntentsYaml: string;
	intents: Intent[];
	/** The workspace's files by relative path (e.g. IndexedDbWorkspaceFiles.snapshot()). */
	files: Iterable<[string, Uint8Array]>;
	/** `AGENT.md`; the workspace's `.orchestration/AGENT.md` (or nothing) by default. */
	agentMd?: string;
	/** Put everything inside this folder (verify also accepts an export one folder down). */
	folder?: string;
	/**
	 * This browser's API keys: the export is refused if any file contains one, so a key that
	 * ended up in the workspace never leaves in a zip. Keys shorter than 8 characters are ignored.
	 */
	secrets?: readonly string[];
}

const orchestrationFolder = '.orchestration/';
const decoder = new TextDecoder();

/**
 * The entries of the "Export .orchestration" zip: `.orchestration/` as the core exports it
 * (agent_trace.jsonl, audit.jsonl, intent_map.md, AGENT.md, active_intents.yaml) plus the
 * workspace files, so `threadline verify` can check the chains and every file's content. The
 * generated files replace the workspace's files of the same name. Nothing but the ledger, the
 * intents and the workspace goes in: no settings, no keys.
 */
export function orchestrationZipEntries(input: OrchestrationZipInput): Map<string, Uint8Array> {
	const entries = new Map<string, Uint8Array>();
	for (const [path, content] of orchestrationZipContents(input)) {
		entries.set(path, content instanceof Uint8Array ? content : linesToBytes(content.lines()));
	}
	return entries;
}

/**
 * The same entries with the two jsonl files as their lines, for zipStream to encode and compress
 * a block at a time. A line or a file that holds one of the person's API keys stops the export
 * when it is reached, before any zip exists.
 */
export function orchestrationZipContents(input: OrchestrationZipInput): Map<string, ZipContent> {
	const files = new Map(input.files);
	const agentNotes = files.get(agentNotesPath);
	// issue 7 (verify): the workspace's intents file is the last recorded version (a person may
	// have saved YAML that does not parse; governance then keeps the last valid intents).
	const intentsFile = files.get(activeIntentsPath);
	const generated = orchestrationContents({
		events: input.events,
		activeIntentsYaml: intentsFile ? decoder.decode(intentsFile) : input.activeIntentsYaml,
		agentMd: input.agentMd ?? (agentNotes ? decoder.decode(agentNotes) : ''),
		intents: input.intents
	});
	const secrets = (input.secrets ?? []).filter(
		(secret) => typeof secret === 'string' && secret.length >= 8
	);
	const prefix = folderPrefix(input.folder);
	const entries = new Map<string, ZipContent>();
	for (const [path, content] of files) {
		const generatedName = path.startsWith(orchestrationFolder)
			? path.slice(orchestrationFolder.length)
			: null;
		if (generatedName !== null && generated.has(generatedName)) continue;
		// Decoded only to look for a key: a large binary file costs nothing when there is none.
		if (secrets.length > 0) refuseSecrets(path, decoder.decode(content), secrets);
		entries.set(prefix + path, content);
	}
	const encoder = new TextEncoder();
	for (const [name, content] of generated) {
		const path = orchestrationFolder + name;
		if (content.kind === 'text') {
			refuseSecrets(path, content.text, secrets);
			entries.set(prefix + path, encoder.encode(content.text));
		} else {
			const lines =
				secrets.length === 0 ? content.lines : () => checkedLines(path, content.lines(), secrets);
			entries.set(prefix + path, { kind: 'lines', lines, count: content.count });
		}
	}
	return entries;
}

function* checkedLines(
	path: string,
	lines: Iterable<string>,
	secrets: readonly string[]
): Iterable<string> {
	for (const line of lines) {
		refuseSecrets(path, line, secrets);
		yield line;
	}
}

/**
 * issue 7 (verify): what verify checks for this export — exactly the entries the zip would hold,
 * `.orchestration/` included — so the in-app Verify and `threadline verify` agree.
 */
export function exportVerifyInput(input: OrchestrationZipInput): VerifyInput {
	const files = new Map<string, Uint8Array>();
	const orchestrationFiles = new Map<string, Uint8Array>();
	for (const [path, bytes] of orchestrationZipEntries({ ...input, folder: undefined })) {
		if (path.startsWith(orchestrationFolder)) {
			orchestrationFiles.set(path.slice(orchestrationFolder.length), bytes);
		} else files.set(path, bytes);
	}
	return {
		// Whole bytes: read a megabyte at a time, or in parts beside a helper (verify-parts.ts).
		auditJsonl: orchestrationFiles.get('audit.jsonl') ?? new Uint8Array(0),
		traceJsonl: orchestrationFiles.get('agent_trace.jsonl') ?? new Uint8Array(0),
		files,
		orchestrationFiles
	};
}

/**
 * The zip itself (deterministic bytes for the same entries), written by zipStream as the export
 * Worker writes it; `onProgress` as zipStream's.
 */
export async function orchestrationZip(
	input: OrchestrationZipInput,
	onProgress?: (done: number, total: number) => void
): Promise<Uint8Array> {
	return await zipStream(orchestrationZipContents(input), { onProgress });
}

/**
 * `agent_trace.jsonl` alone ("Download agent_trace.jsonl"): one canonical line per trace record,
 * the same text the full export writes, so verify recomputes the same hashes.
 */
export function traceJsonl(events: readonly LedgerEvent[]): string {
	let text = '';
	for (const line of traceLines(events)) text += line + '\n';
	return text;
}

function folderPrefix(folder: string | undefined): string {
	if (folder === undefined || folder === '') return '';
	if (folder.includes('/') || folder.includes('\\') || folder === '.' || folder === '..') {
		throw new TypeError(`The export folder must be a single folder name, got "${folder}"`);
	}
	return `${folder}/`;
}

/** An ASCII key is found in the text whatever surrounds it; jsonl lines are checked one by one. */
function refuseSecrets(path: string, text: string, secrets: readonly string[]): void {
	if (secrets.length === 0 || !secrets.some((secret) => text.includes(secret))) return;
	throw new Error(
		path.startsWith(orchestrationFolder)
			? `The export was stopped: the ledger (${path}) contains one of your API keys, so ` +
					'it cannot leave this browser. Forget the key in Settings and use a new one.'
			: `The export was stopped: ${path} contains one of your API keys. Remove the key ` +
					'from that file, then export again.'
	);
}
