import { encodeText } from '../hashing/text-encoding.js';
import { intentProtectionTool } from '../intents/governed-intent-ignore.js';
import { withIntentProtection } from '../intents/intent-ignore.js';
import type { LedgerEvent, LedgerEventDraft } from '../ledger/ledger-event.js';
import { normalizeWorkspacePath } from '../paths/normalize-path.js';
import { governancePathKind, governancePathLabel } from '../paths/protected-paths.js';
import { hookPolicyPath } from '../policies/hook-policy-schema.js';
import type { FileChange } from '../tools/sandbox-ports.js';
import type { TraceAuthor } from './build-trace-record.js';
import { activeIntentsPath, intentIgnorePath } from './governance-state.js';
import { followGovernanceFile, sameBytes, textOf, type PipelineParts } from './pipeline-parts.js';
import { hookPolicyDraft } from './workspace-records.js';

/**
 * A person saved a file in the editor: recorded with contributor `human`, like any change.
 * Of the governance paths only `.orchestration/` itself, spelled exactly, may be saved (the
 * intents editor, the hook policy): `.git/` never, and `.intentignore` never, because which
 * intents are protected changes only with setIntentProtection (the intents panel's switch),
 * never as a side effect of a save.
 */
export async function recordHumanEdit(
	parts: PipelineParts,
	edit: {
		path: string;
		content: string | Uint8Array | null;
		sessionId?: string;
	}
): Promise<LedgerEvent[]> {
	const normalised = normalizeWorkspacePath(edit.path);
	if (!normalised.ok) throw new Error(`Cannot save ${edit.path}: ${normalised.reason}`);
	const path = normalised.path;
	const kind = governancePathKind(path);
	if (kind && !(kind === 'orchestration' && path.startsWith('.orchestration/')))
		throw new Error(
			kind === 'intentignore'
				? `Cannot save ${path}: which intents are protected changes only with the Protected switch in the intents panel.`
				: `Cannot save ${path}: ${governancePathLabel(kind)} changes only through governance.`
		);
	const release = await parts.mutex.lock();
	try {
		const stat = await parts.options.fs.stat(path);
		const before = stat?.kind === 'file' ? await parts.options.fs.readFile(path) : null;
		const after =
			edit.content === null
				? null
				: typeof edit.content === 'string'
					? encodeText(edit.content)
					: edit.content;
		if (before === null && after === null) return [];
		const change: FileChange = {
			path,
			type: after === null ? 'deleted' : before === null ? 'created' : 'modified',
			before,
			after
		};
		const author: TraceAuthor = {
			sessionId: edit.sessionId ?? 'human',
			contributor: 'human',
			intentId: null,
			tool: 'editor',
			toolCallId: null,
			declaredClass: null
		};
		const record = await parts.writer.traceDraft(change, author);
		const events = await parts.writer.commit([change], [record]);
		followGovernanceFile(parts, path, after);
		if (path === hookPolicyPath)
			events.push(
				...(await parts.writer.append([await hookPolicyDraft(parts, textOf(after), 'human')]))
			);
		return events;
	} finally {
		release();
	}
}

/**
 * A person's change of many paths at once (a checkpoint restore): the files are written or
 * deleted and recorded (contributor `human`, `tool`) in one commit, folders made in the same
 * step; folders to remove go in a second recorded step once the files inside are gone (only
 * when empty then). Governance paths (`.orchestration/`, `.git/`, `.intentignore`, in any folded
 * spelling) are refused before anything is written: a restore or a step solution never changes
 * governance. Files that already hold what is asked are left alone. Returns the events recorded.
 */
export async function recordHumanChanges(
	parts: PipelineParts,
	change: {
		files: readonly { path: string; content: Uint8Array | null }[];
		createFolders?: readonly string[];
		removeFolders?: readonly string[];
		tool: string;
		sessionId?: string;
	}
): Promise<LedgerEvent[]> {
	const checked = (raw: string): string => {
		const normalised = normalizeWorkspacePath(raw);
		if (!normalised.ok) throw new Error(`Cannot change ${raw}: ${normalised.reason}`);
		const kind = governancePathKind(normalised.path);
		if (kind)
			throw new Error(
				`Cannot change ${normalised.path}: ${governancePathLabel(kind)} changes only through governance.`
			);
		return normalised.path;
	};
	const files = change.files.map((file) => ({ ...file, path: checked(file.path) }));
	const createFolders = (change.createFolders ?? []).map(checked);
	const removeFolders = (change.removeFolders ?? []).map(checked);
	const author: TraceAuthor = {
		sessionId: change.sessionId ?? 'human',
		contributor: 'human',
		intentId: null,
		tool: change.tool,
		toolCallId: null,
		declaredClass: null
	};
	const folderDraft = (path: string, kind: 'created' | 'deleted'): LedgerEventDraft => ({
		type: 'folder-change',
		session_id: author.sessionId,
		tool: change.tool,
		tool_call_id: null,
		path,
		change: kind,
		contributor: 'human',
		intent_id: null
	});
	const fs = parts.options.fs;
	const release = await parts.mutex.lock();
	try {
		const writes: FileChange[] = [];
		const drafts: LedgerEventDraft[] = [];
		const madeFolders: string[] = [];
		for (const folder of createFolders) {
			if ((await fs.stat(folder))?.kind === 'directory') continue;
			madeFolders.push(folder);
			drafts.push(folderDraft(folder, 'created'));
		}
		// Read and recorded side by side: a restore may touch a thousand files, and most of a
		// record's time is spent waiting for hashes.
		const befores = await Promise.all(
			files.map(async (file) =>
				(await fs.stat(file.path))?.kind === 'file' ? fs.readFile(file.path) : null
			)
		);
		files.forEach((file, index) => {
			const before = befores[index] ?? null;
			if (before === null && file.content === null) return;
			if (before && file.content && sameBytes(before, file.content)) return;
			writes.push({
				path: file.path,
				type: file.content === null ? 'deleted' : before === null ? 'created' : 'modified',
				before,
				after: file.content
			});
		});
		drafts.push(
			...(await Promise.all(writes.map((write) => parts.writer.traceDraft(write, author))))
		);
		const events =
			drafts.length > 0
				? await parts.writer.commit(
						writes,
						drafts,
						madeFolders.length > 0
							? async () => {
									for (const folder of madeFolders) await fs.mkdir(folder, { recursive: true });
								}
							: undefined
					)
				: [];
		for (const write of writes) followGovernanceFile(parts, write.path, write.after);
		const emptied: string[] = [];
		for (const folder of removeFolders) {
			if ((await fs.stat(folder))?.kind !== 'directory') continue;
			const inside = await fs.readdir(folder);
			if (inside.some((entry) => !emptied.includes(`${folder}/${entry.name}`))) continue;
			emptied.push(folder);
		}
		if (emptied.length > 0)
			events.push(
				...(await parts.writer.commit(
					[],
					emptied.map((folder) => folderDraft(folder, 'deleted')),
					async () => {
						for (const folder of emptied) await fs.rm(folder, { recursive: true });
					}
				))
			);
		return events;
	} finally {
		release();
	}
}

/**
 * Records changes a person's own shell command already made (the IDE's terminal): the files
 * are not written again, only attributed (contributor `human`, tool `terminal`), so verify can
 * account for every file.
 */
export async function recordAppliedChanges(
	parts: PipelineParts,
	changes: readonly FileChange[],
	options: { sessionId?: string; tool?: string } = {}
): Promise<LedgerEvent[]> {
	if (changes.length === 0) return [];
	const release = await parts.mutex.lock();
	try {
		const author: TraceAuthor = {
			sessionId: options.sessionId ?? 'human',
			contributor: 'human',
			intentId: null,
			tool: options.tool ?? 'terminal',
			toolCallId: null,
			declaredClass: null
		};
		const drafts: LedgerEventDraft[] = [];
		for (const change of changes) {
			parts.files.invalidate?.(change.path);
			drafts.push(await parts.writer.traceDraft(change, author));
		}
		const events = await parts.writer.append(drafts);
		for (const change of changes) {
			followGovernanceFile(parts, change.path, change.after);
			if (change.path === hookPolicyPath)
				events.push(
					...(await parts.writer.append([
						await hookPolicyDraft(parts, textOf(change.after), 'human')
					]))
				);
		}
		return events;
	} finally {
		release();
	}
}

/**
 * The one act that changes which intents are protected: the person's Protected switch in the
 * intents panel (after their confirmation). `.intentignore` gets or loses the intent's line,
 * recorded as a `human` change with tool `intent-protection` (the version a reload derives
 * protection from: governedIntentIgnoreHash), and the governance state follows at once.
 * Returns the events recorded (none when the intent already was as asked).
 */
export async function setIntentProtection(
	parts: PipelineParts,
	change: {
		intentId: string;
		protect: boolean;
		sessionId?: string;
	}
): Promise<LedgerEvent[]> {
	const { intentId, protect } = change;
	if (!parts.state.intent(intentId))
		throw new Error(`${intentId} is not an intent of ${activeIntentsPath}.`);
	if (/[\s#]/.test(intentId))
		throw new Error(`${JSON.stringify(intentId)} cannot be listed in ${intentIgnorePath}.`);
	const fs = parts.options.fs;
	const release = await parts.mutex.lock();
	try {
		const before =
			(await fs.stat(intentIgnorePath))?.kind === 'file'
				? await fs.readFile(intentIgnorePath)
				: null;
		// Exactly one intent changes: the ones protected now stay listed, even when the file
		// lost them outside governance (protection follows the recorded version, not the file).
		let text = withIntentProtection(textOf(before) ?? '', intentId, protect);
		for (const kept of parts.state.protectedIntentIds)
			if (kept !== intentId) text = withIntentProtection(text, kept, true);
		const after = encodeText(text);
		if (before && sameBytes(before, after)) {
			parts.state.reloadIntentIgnore(text);
			return [];
		}
		const write: FileChange = {
			path: intentIgnorePath,
			type: before === null ? 'created' : 'modified',
			before,
			after
		};
		const record = await parts.writer.traceDraft(write, {
			sessionId: change.sessionId ?? 'human',
			contributor: 'human',
			intentId: null,
			tool: intentProtectionTool,
			toolCallId: null,
			declaredClass: null
		});
		const events = await parts.writer.commit([write], [record]);
		parts.state.reloadIntentIgnore(text);
		return events;
	} finally {
		release();
	}
}
