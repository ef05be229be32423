import { toolError, type ToolError } from '../errors/tool-error.js';
import { normalizeWorkspacePath } from '../paths/normalize-path.js';
import {
	governancePathKind,
	governancePathLabel,
	isGovernancePath
} from '../paths/protected-paths.js';
import type { EntryChange, FileChange } from '../tools/sandbox-ports.js';

/**
 * The governed half of a shell command's transaction: the sandbox proposes every path the command
 * changed (files, folders, links); this decides, for the whole set at once, which paths may be
 * committed. Nothing here touches files: the caller commits the allowed paths together with their
 * ledger records, or nothing.
 *
 * Policy (documented in hooks/CONTEXT.md): the allowed part of a command is committed and the
 * refused part never reaches the workspace; the caller tells the agent both lists.
 */
export type PathCheck = (path: string, entry: EntryChange) => ToolError | null;

export interface ReviewedChanges {
	allowed: EntryChange[];
	refused: { entry: EntryChange; error: ToolError }[];
}

/**
 * A path the governance core can reason about: already in its one canonical spelling. A name the
 * normaliser would fold (`\`, NFD, `.`/`..` segments) or refuse (control characters) is refused,
 * because the check would otherwise be about a different path than the one written.
 */
export function canonicalPathProblem(path: string): ToolError | null {
	const normalised = normalizeWorkspacePath(path);
	if (normalised.ok && normalised.path === path) return null;
	return toolError(
		'protected_path',
		`The command wrote a path the workspace cannot govern (${JSON.stringify(path)}${normalised.ok ? '' : `: ${normalised.reason}`}).`,
		'Use plain workspace-relative names: no backslashes, control characters or . / .. segments.'
	);
}

/** The agent's rule: governance files never, links never, then the active intent's scope. */
export function agentPathCheck(options: {
	intentId: string | null;
	isInScope: (intentId: string, path: string) => boolean;
	scopeMessage: (intentId: string, path: string) => string;
}): PathCheck {
	return (path, entry) => {
		const naming = canonicalPathProblem(path);
		if (naming) return naming;
		if (isGovernancePath(path)) {
			return toolError(
				'protected_path',
				`Protected Path: the command changed ${path}, which agents can never change.`,
				'Leave .orchestration/, .git/ and .intentignore to the human.'
			);
		}
		if (entry.after.kind === 'link') return linkRefusal(path);
		if (!options.intentId) {
			return toolError(
				'intent_required',
				`The command changed ${path} without an active intent.`,
				'Call select_active_intent before running commands that change files.'
			);
		}
		if (!options.isInScope(options.intentId, path)) {
			return toolError(
				'scope_violation',
				options.scopeMessage(options.intentId, path),
				'Change only files inside your owned_scope, or call request_scope_expansion first.'
			);
		}
		return null;
	};
}

/**
 * A person's terminal (and the npm scripts and git commands it runs): no scope rule, but the
 * governance paths and links stay out of reach. Which intents are protected changes only in the
 * intents panel, never as a side effect of a command (an agent may have written the script).
 */
export const personPathCheck: PathCheck = (path, entry) => {
	const naming = canonicalPathProblem(path);
	if (naming) return naming;
	const kind = governancePathKind(path);
	if (kind) {
		return toolError(
			'protected_path',
			`${path} is ${kind === 'intentignore' ? '' : 'under '}${governancePathLabel(kind)}, which changes only through governance, not from the shell.`,
			kind === 'intentignore'
				? 'Protect or unprotect an intent with its Protected switch in the intents panel.'
				: 'Edit the intents in the IDE; leave the ledger and .git/ alone.'
		);
	}
	if (entry.after.kind === 'link') return linkRefusal(path);
	return null;
};

function linkRefusal(path: string): ToolError {
	return toolError(
		'protected_path',
		`The command created a symbolic link at ${path}; links are not allowed in the workspace.`,
		'Copy the file instead of linking to it.'
	);
}

/**
 * Checks every entry, then widens the refusal until what is left can be committed on its own:
 * a refused path keeps its old state, so
 * - nothing may be committed below it unless it stays a folder (its old state was a folder), and
 * - when it keeps existing, every ancestor must stay a folder (no removing or replacing them).
 * A folder the command created is allowed when it is in bounds itself or holds an allowed path.
 */
export function reviewEntryChanges(
	entries: readonly EntryChange[],
	check: PathCheck
): ReviewedChanges {
	const byPath = new Map(entries.map((entry) => [entry.path, entry]));
	const refused = new Map<string, ToolError>();
	for (const entry of entries) {
		let error = check(entry.path, entry);
		if (error && entry.before.kind === 'absent' && entry.after.kind === 'folder') {
			// Judged below: a new folder is fine when an allowed path needs it.
			const needed = entries.some(
				(other) => other.path.startsWith(`${entry.path}/`) && !check(other.path, other)
			);
			if (needed && !canonicalPathProblem(entry.path) && !isGovernancePath(entry.path))
				error = null;
		}
		if (error) refused.set(entry.path, error);
	}
	for (let grew = true; grew;) {
		grew = false;
		for (const [path, error] of [...refused]) {
			const entry = byPath.get(path);
			if (!entry) continue;
			const cascade = toolError(
				error.code,
				`${error.message} (so the command's other changes that depend on ${path} were refused too)`,
				error.suggestion
			);
			for (const other of entries) {
				if (refused.has(other.path)) continue;
				const below = other.path.startsWith(`${path}/`) && entry.before.kind !== 'folder';
				const above =
					path.startsWith(`${other.path}/`) &&
					entry.before.kind !== 'absent' &&
					other.after.kind !== 'folder';
				if (below || above) {
					refused.set(other.path, cascade);
					grew = true;
				}
			}
		}
	}
	return {
		allowed: entries.filter((entry) => !refused.has(entry.path)),
		refused: entries.flatMap((entry) => {
			const error = refused.get(entry.path);
			return error ? [{ entry, error }] : [];
		})
	};
}

/** The file-level view of entry changes, as the trace records them (folders and links left out). */
export function fileChangesOfEntries(entries: readonly EntryChange[]): FileChange[] {
	const changes: FileChange[] = [];
	for (const entry of entries) {
		const before = entry.before.kind === 'file' ? entry.before.data : null;
		const after = entry.after.kind === 'file' ? entry.after.data : null;
		if (before === null && after === null) continue;
		if (before && after && sameBytes(before, after)) continue;
		changes.push({
			path: entry.path,
			type: before === null ? 'created' : after === null ? 'deleted' : 'modified',
			before,
			after
		});
	}
	return changes;
}

/** Folder (and link) creations and removals: governed like files, recorded as their own events. */
export function folderChangesOfEntries(
	entries: readonly EntryChange[]
): { path: string; change: 'created' | 'deleted' }[] {
	const folders: { path: string; change: 'created' | 'deleted' }[] = [];
	for (const entry of entries) {
		const wasFolder = entry.before.kind === 'folder';
		const isFolder = entry.after.kind === 'folder';
		if (wasFolder && !isFolder) folders.push({ path: entry.path, change: 'deleted' });
		if (!wasFolder && isFolder) folders.push({ path: entry.path, change: 'created' });
	}
	return folders;
}

/** One sentence listing what a transaction kept and refused, for the model and the person. */
export function describeReview(review: ReviewedChanges): string {
	const kept = review.allowed.map((entry) => describeEntry(entry));
	const refused = review.refused.map(
		({ entry, error }) => `${describeEntry(entry)} (${error.code})`
	);
	return (
		`Refused, never written to the workspace: ${refused.join(', ')}. ` +
		`Kept: ${kept.length ? kept.join(', ') : 'nothing'}.`
	);
}

function describeEntry(entry: EntryChange): string {
	const isFolder = entry.after.kind === 'folder' || entry.before.kind === 'folder';
	return isFolder ? `${entry.path}/` : entry.path;
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
	if (left.byteLength !== right.byteLength) return false;
	for (let index = 0; index < left.byteLength; index += 1) {
		if (left[index] !== right[index]) return false;
	}
	return true;
}
