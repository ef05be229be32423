import type { SessionChanges, SessionFileChange } from '../../../hooks/ledger/file-states.js';
import type { CheckpointPlan } from '../../../hooks/ledger/checkpoint-plan.js';

export type ChangeStatus = SessionFileChange['status'];

/** What the file tree shows of the session's changes: a mark per path, a dot on folders. */
export interface ChangeMarks {
	files: ReadonlyMap<string, ChangeStatus>;
	/** Folders holding a changed (or deleted) file, or changed themselves. */
	folders: ReadonlySet<string>;
}

export const noChangeMarks: ChangeMarks = { files: new Map(), folders: new Set() };

export function changeMarksOf(changes: SessionChanges): ChangeMarks {
	const files = new Map<string, ChangeStatus>();
	const folders = new Set<string>();
	const addAncestors = (path: string) => {
		const segments = path.split('/');
		for (let end = 1; end < segments.length; end++) folders.add(segments.slice(0, end).join('/'));
	};
	for (const change of changes.files) {
		files.set(change.path, change.status);
		addAncestors(change.path);
	}
	for (const folder of changes.folders) {
		addAncestors(folder.path);
		folders.add(folder.path);
	}
	return { files, folders };
}

/** One letter as editors show it (A added, M modified, D deleted) and the words for it. */
export function changeLetter(status: ChangeStatus): 'A' | 'M' | 'D' {
	return status === 'new' ? 'A' : status === 'modified' ? 'M' : 'D';
}

export function changeWords(status: ChangeStatus): string {
	return status === 'new' ? 'new file' : status === 'modified' ? 'modified' : 'deleted';
}

/** Who changed a file, in words. */
export function contributorWords(contributors: readonly ('ai' | 'human')[]): string {
	if (contributors.length === 2) return 'the agent and you';
	return contributors[0] === 'human' ? 'you' : 'the agent';
}

/** The confirmation's text for a restore: what will change, in plain words. */
export function describePlan(
	plan: CheckpointPlan,
	unsavedTabs: number,
	question = `Restore the workspace to how it was right after event #${plan.seq}?`
): string {
	const parts: string[] = [];
	if (plan.writes.length) parts.push(`${count(plan.writes.length, 'file')} written back`);
	if (plan.deletes.length) parts.push(`${count(plan.deletes.length, 'file')} deleted`);
	if (plan.createFolders.length)
		parts.push(`${count(plan.createFolders.length, 'folder')} made again`);
	if (plan.removeFolders.length)
		parts.push(`${count(plan.removeFolders.length, 'folder')} removed (when empty)`);
	const what = parts.length
		? `${parts.join(', ')}.`
		: 'Nothing to change: the files are already as they were then.';
	const kept = plan.kept.length
		? ` ${plan.kept.join(', ')} ${plan.kept.length === 1 ? 'is' : 'are'} kept: governance files change only through governance.`
		: '';
	const unsaved = unsavedTabs
		? ` ${count(unsavedTabs, 'open file')} with unsaved edits will ask whether to keep them.`
		: '';
	return `${question} ${what}${kept} The restore is recorded in the ledger as your change, so later events stay in the history and you can restore forward again.${unsaved}`;
}

function count(value: number, noun: string): string {
	return `${value} ${noun}${value === 1 ? '' : 's'}`;
}
