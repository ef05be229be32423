import type { LedgerEvent, LedgerEventDraft } from '../ledger/ledger-event.js';
import type { EntryChange, FileChange } from '../tools/sandbox-ports.js';
import { buildTraceRecord, type TraceAuthor } from './build-trace-record.js';
import type { FileHashLookup } from './hook-types.js';
import type { ToolPipelineOptions } from './pipeline-options.js';
import { fileChangesOfEntries, folderChangesOfEntries } from './shell-transaction.js';

/**
 * The pipeline's one way into the ledger: drafts appended as they are, trace records built for
 * file changes, and file writes committed with their records in one step (the `commit` port, or
 * write-then-append in memory). Every writer drops the file-hash cache of the paths it touches.
 */
export class PipelineLedgerWriter {
	constructor(
		private readonly options: ToolPipelineOptions,
		private readonly files: FileHashLookup & { invalidate?(path: string): void }
	) {}

	append(drafts: LedgerEventDraft[]): Promise<LedgerEvent[]> {
		return drafts.length ? this.options.ledger.append(drafts) : Promise.resolve([]);
	}

	async traceDraft(change: FileChange, author: TraceAuthor): Promise<LedgerEventDraft> {
		const trace = await buildTraceRecord({
			change,
			author,
			id: this.options.ids.uuid(),
			timestamp: this.options.clock.nowIso(),
			toolVersion: this.options.toolVersion,
			revision: this.options.vcsRevision?.() ?? null
		});
		return { type: 'mutation-record', session_id: author.sessionId, trace };
	}

	async commit(
		writes: FileChange[],
		drafts: LedgerEventDraft[],
		apply?: () => Promise<void>
	): Promise<LedgerEvent[]> {
		for (const write of writes) this.files.invalidate?.(write.path);
		for (const draft of drafts) {
			if (draft.type === 'mutation-record')
				this.files.invalidate?.(draft.trace.files[0]?.path ?? '');
		}
		if (this.options.commit) {
			// Only a shell transaction passes `apply`; other callers keep the two-argument port.
			return apply
				? this.options.commit(writes, drafts, apply)
				: this.options.commit(writes, drafts);
		}
		// In memory (tests, CLI): apply first, so a refused apply leaves the ledger untouched.
		if (apply) await apply();
		for (const write of writes) {
			if (write.after === null) await this.options.fs.rm(write.path);
			else await this.options.fs.writeFile(write.path, write.after);
		}
		return drafts.length ? this.options.ledger.append(drafts) : [];
	}

	/** The ledger records of a shell transaction's committed entries: files and folders. */
	async transactionDrafts(
		entries: readonly EntryChange[],
		author: TraceAuthor,
		toolCallId: string | null
	): Promise<LedgerEventDraft[]> {
		const drafts: LedgerEventDraft[] = [];
		for (const folder of folderChangesOfEntries(entries)) {
			drafts.push({
				type: 'folder-change',
				session_id: author.sessionId,
				tool: author.tool,
				tool_call_id: toolCallId,
				path: folder.path,
				change: folder.change,
				contributor: author.contributor,
				intent_id: author.intentId
			});
		}
		for (const change of fileChangesOfEntries(entries)) {
			this.files.invalidate?.(change.path);
			drafts.push(await this.traceDraft(change, author));
		}
		return drafts;
	}
}
