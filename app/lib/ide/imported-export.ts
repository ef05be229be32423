import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { readExportFiles, unzipEntries, zipEntries } from '../../../hooks/ledger/read-export.js';
import { readJsonl } from '../../../hooks/ledger/read-jsonl.js';
import { verifyLedger, type VerifyReport } from '../../../hooks/ledger/verify.js';
import { normalizeWorkspacePath } from '../../../hooks/paths/normalize-path.js';
import { readWorkspaceZip } from './workspace-zip.js';

/** Files of `.orchestration/` that an export derives from the ledger: not workspace files. */
const derivedOrchestrationFiles = new Set([
	'audit.jsonl',
	'agent_trace.jsonl',
	'conversation.jsonl'
]);

export type ReadImport =
	| { kind: 'plain'; files: Record<string, Uint8Array>; skipped: string[] }
	| {
			kind: 'export';
			files: Record<string, Uint8Array>;
			skipped: string[];
			/** The ledger events as exported; a tampered export may carry anything here. */
			events: LedgerEvent[];
			report: VerifyReport;
	  };

/**
 * Reads a zip the person imports. A zip with `.orchestration/audit.jsonl` is an export: its ledger
 * comes with it and is verified exactly as `threadline verify` does (same files, same function), so
 * the workspace is never given a fresh history over someone else's files. Any other zip is plain
 * files and starts a new history.
 */
export async function readImport(bytes: Uint8Array): Promise<ReadImport> {
	const entries = unzipEntries(bytes);
	const exported = readExportFiles(entries);
	if ('error' in exported) return { kind: 'plain', ...readWorkspaceZip(bytes) };
	const report = await verifyLedger({
		auditJsonl: exported.auditJsonl,
		traceJsonl: exported.traceJsonl,
		files: exported.files
	});
	const files: Record<string, Uint8Array> = {};
	const skipped: string[] = [];
	const encoder = new TextEncoder();
	const add = (path: string, content: Uint8Array) => {
		const normalised = normalizeWorkspacePath(path);
		if (!normalised.ok || normalised.path === '') skipped.push(path);
		else files[normalised.path] = content;
	};
	for (const [path, content] of exported.files) add(path, content);
	for (const [name, text] of exported.orchestration) {
		if (!derivedOrchestrationFiles.has(name)) add(`.orchestration/${name}`, encoder.encode(text));
	}
	return { kind: 'export', files, skipped, events: eventsOf(exported.auditJsonl), report };
}

/**
 * A share link's history as the export it came from: the link's files plus its `.orchestration/`
 * files (which replace the workspace's of the same name, as in the export), read back by
 * readImport like any imported zip.
 */
export function sharedExportZip(
	files: Record<string, Uint8Array>,
	history: Readonly<Record<string, string>>
): Uint8Array {
	const entries = new Map(Object.entries(files));
	const encoder = new TextEncoder();
	for (const [name, text] of Object.entries(history))
		entries.set(`.orchestration/${name}`, encoder.encode(text));
	return zipEntries(entries);
}

/**
 * The audit log's lines as events, kept verbatim (never re-sealed): the stored chain check and
 * verify then see exactly what the zip holds. Lines that are not events stop the list there, and
 * the verify report already names that line.
 */
function eventsOf(auditJsonl: string): LedgerEvent[] {
	const events: LedgerEvent[] = [];
	for (const entry of readJsonl(auditJsonl)) {
		const value = entry.value as Partial<LedgerEvent> | undefined;
		if (
			entry.error !== undefined ||
			typeof value !== 'object' ||
			value === null ||
			typeof value.type !== 'string' ||
			typeof value.hash !== 'string' ||
			value.seq !== events.length + 1
		)
			break;
		events.push(value as LedgerEvent);
	}
	return events;
}
