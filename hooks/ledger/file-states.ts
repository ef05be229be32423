import type { LedgerEvent } from './ledger-event.js';

/**
 * What the ledger says each path held after some event: a `sha256:` hash, or `null` when there
 * was no file. Paths the ledger never mentioned are absent from the map (unknown, not "no file").
 */
export type FileStates = Map<string, string | null>;

/** What the ledger says of folders made or removed by commands (files have their own records). */
export type FolderStates = Map<string, 'created' | 'deleted'>;

export interface LedgerStates {
	files: FileStates;
	folders: FolderStates;
}

/**
 * Replays the ledger up to and including the event `seq` (all events when omitted): a workspace
 * snapshot sets every file it lists (and makes files it does not list absent), a mutation record
 * sets its file, a governance file write sets that file, a folder change sets its folder. Refused
 * changes (`change-revert`) never reached the workspace, so they change nothing.
 */
export function ledgerStatesAfter(
	events: readonly LedgerEvent[],
	seq: number = Number.POSITIVE_INFINITY
): LedgerStates {
	const files: FileStates = new Map();
	const folders: FolderStates = new Map();
	for (const event of events) {
		if (event.seq > seq) break;
		applyEvent(files, folders, event);
	}
	return { files, folders };
}

function applyEvent(files: FileStates, folders: FolderStates, event: LedgerEvent): void {
	switch (event.type) {
		case 'workspace-snapshot':
			for (const path of files.keys()) files.set(path, null);
			for (const [path, hash] of Object.entries(event.files)) files.set(path, hash);
			return;
		case 'mutation-record': {
			const path = event.trace.files[0]?.path;
			if (path !== undefined) files.set(path, event.trace.metadata['dev.threadline'].file_hash);
			return;
		}
		case 'governance-file-write':
			files.set(event.path, event.file_hash);
			return;
		case 'folder-change':
			folders.set(event.path, event.change);
			return;
		default:
			return;
	}
}

/** One file the session changed, from its state at the starting snapshot to its state now. */
export interface SessionFileChange {
	path: string;
	status: 'new' | 'modified' | 'deleted';
	/** Hash at the start (`null`: no file then). */
	before: string | null;
	/** Hash now (`null`: deleted). */
	after: string | null;
	/** The last event that changed it. */
	lastSeq: number;
	/** Who changed it: the agents, the person, or both. */
	contributors: ('ai' | 'human')[];
}

export interface SessionFolderChange {
	path: string;
	status: 'new' | 'deleted';
	lastSeq: number;
}

export interface SessionChanges {
	files: SessionFileChange[];
	folders: SessionFolderChange[];
	/** The seq of the starting snapshot changes are counted from; null when the ledger has none. */
	baseSeq: number | null;
}

/**
 * Every file and folder the agents or the person changed since the workspace's starting
 * snapshot, by their net effect (a file changed and changed back is not listed), sorted by path.
 * Governance files the system rewrites (`governance-file-write`) are not people's changes.
 */
export function sessionChanges(events: readonly LedgerEvent[]): SessionChanges {
	const snapshot = events.find((event) => event.type === 'workspace-snapshot');
	const baseSeq = snapshot?.seq ?? null;
	const base = snapshot?.type === 'workspace-snapshot' ? snapshot.files : {};
	const touched = new Map<string, { lastSeq: number; contributors: Set<'ai' | 'human'> }>();
	const folderHistory = new Map<string, { first: 'created' | 'deleted'; lastSeq: number }>();
	const now = ledgerStatesAfter(events);
	for (const event of events) {
		if (baseSeq !== null && event.seq <= baseSeq) continue;
		if (event.type === 'mutation-record') {
			const path = event.trace.files[0]?.path;
			if (path === undefined) continue;
			const entry = touched.get(path) ?? { lastSeq: event.seq, contributors: new Set() };
			entry.lastSeq = event.seq;
			const contributor = event.trace.files[0]?.conversations[0]?.contributor.type;
			entry.contributors.add(contributor === 'human' ? 'human' : 'ai');
			touched.set(path, entry);
		} else if (event.type === 'folder-change') {
			const entry = folderHistory.get(event.path);
			if (entry) entry.lastSeq = event.seq;
			else folderHistory.set(event.path, { first: event.change, lastSeq: event.seq });
		}
	}
	const files: SessionFileChange[] = [];
	for (const [path, { lastSeq, contributors }] of touched) {
		const before = base[path] ?? null;
		const after = now.files.get(path) ?? null;
		if (before === after) continue;
		const status = before === null ? 'new' : after === null ? 'deleted' : 'modified';
		files.push({ path, status, before, after, lastSeq, contributors: [...contributors].sort() });
	}
	const folders: SessionFolderChange[] = [];
	for (const [path, { first, lastSeq }] of folderHistory) {
		const last = now.folders.get(path);
		// Made and removed again (or the other way round): no net change.
		if (last === undefined || (first === 'created') !== (last === 'created')) continue;
		folders.push({ path, status: last === 'created' ? 'new' : 'deleted', lastSeq });
	}
	files.sort((left, right) => comparePaths(left.path, right.path));
	folders.sort((left, right) => comparePaths(left.path, right.path));
	return { files, folders, baseSeq };
}

function comparePaths(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}
