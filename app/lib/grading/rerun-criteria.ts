import type { IntentCheck } from '../../../hooks/intents/check-criteria.js';
import { checkExportCriteria } from '../../../hooks/intents/check-export-criteria.js';
import { readExportFiles, unzipEntries } from '../../../hooks/ledger/read-export.js';
import type { ExportSource } from './group-exports.js';

/**
 * "Re-run criteria" on the grader's desk: the export's acceptance criteria run again on a copy of
 * its workspace in the offline sandbox, in a Worker (the page stays responsive), through the same
 * code as `threadline check`. Nothing is uploaded and nothing is written back.
 */
export async function rerunCriteria(
	source: ExportSource<Blob>,
	options: { timeoutMs?: number } = {}
): Promise<IntentCheck[]> {
	const exported = readExportFiles(await entriesOf(source));
	if ('error' in exported) throw new Error(exported.error);
	// The sandbox (just-bash, the Node runtime) loads only when a grader asks for it.
	const [{ createWorkerLocalSandbox }, { MemoryWorkspaceFiles }] = await Promise.all([
		import('../../../sandbox/browser/worker-local-sandbox.js'),
		import('../../../sandbox/local/memory-workspace-files.js')
	]);
	// The bounds (per criterion, the deadline, criteria per export) are threadline check's:
	// hooks/intents/criteria-bounds.ts; what one command may write is the sandbox's own.
	return checkExportCriteria({
		files: exported.files,
		orchestration: exported.orchestrationFiles,
		timeoutMs: options.timeoutMs,
		nowMs: () => performance.now(),
		startSandbox: (files) => createWorkerLocalSandbox({ files: new MemoryWorkspaceFiles(files) })
	});
}

/** An export's files by path, from a zip or a picked folder; a jsonl pair has no workspace. */
async function entriesOf(source: ExportSource<Blob>): Promise<Map<string, Uint8Array>> {
	if (source.kind === 'zip')
		return unzipEntries(new Uint8Array(await source.content.arrayBuffer()));
	if (source.kind === 'folder') {
		const entries = new Map<string, Uint8Array>();
		for (const file of source.files)
			entries.set(file.path, new Uint8Array(await file.content.arrayBuffer()));
		return entries;
	}
	throw new Error(
		'this export is agent_trace.jsonl and audit.jsonl alone: without the workspace files the criteria cannot run (drop the export zip or folder)'
	);
}
