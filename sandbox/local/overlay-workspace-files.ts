import type { EntryChange, EntryState } from '../../hooks/tools/sandbox-ports.js';
import { SandboxFileSystemError } from '../sandbox-file-system-error.js';
import { joinWorkspacePath, parentWorkspacePath } from '../workspace-path.js';
import { sameBytes } from './change-recorder.js';
import {
	compareEntryNames,
	type WorkspaceEntry,
	type WorkspaceEntryInfo,
	type WorkspaceFiles
} from './workspace-files.js';
import type { WorkspaceEntryState } from './workspace-entry-states.js';

type Layer = { kind: 'file'; data: Uint8Array; modifiedAt: number } | { kind: 'directory' } | null;

/** How much one command may write through the view (see OverlayWorkspaceFiles.write). */
export interface OverlayWriteLimit {
	maxBytes: number;
	/** Called once, when a write would pass the limit (before it fails): the command is stopped. */
	onExceeded?: (message: string) => void;
}

/**
 * A copy-on-write view of a WorkspaceFiles store: what a command runs against. Reads fall through
 * to the base; writes, deletes and new folders stay here, so nothing a command does reaches the
 * workspace until the governed side has checked the whole set (`proposal`) and `commit`s part of
 * it. Every primitive keeps the store's rules (a folder must be empty to go, a parent must exist),
 * so a path's ancestors and descendants are always touched before it can change kind.
 *
 * Everything written stays in memory until the command ends, so a `limit` caps the bytes one
 * command may write: every write counts its whole content (overwriting one file again and again
 * counts each time), except that a write which only extends a file this view already holds (an
 * append: the old content is its start) counts the bytes it adds. The layer can therefore never
 * hold more than the limit. Past it the write fails with EDQUOT, and so does every later one.
 */
export class OverlayWorkspaceFiles implements WorkspaceFiles {
	/** Path → what the command left there (`null`: removed). Only touched paths are here. */
	private readonly layer = new Map<string, Layer>();
	/** Folder → names created in it by the command, so `list` finds them without a scan. */
	private readonly added = new Map<string, Set<string>>();

	/** Bytes counted against the limit so far. */
	private written = 0;
	/** Set once the limit was passed: why every later write fails. */
	private exceeded: string | undefined;

	constructor(
		readonly base: WorkspaceFiles,
		private readonly now: () => number = Date.now,
		private readonly limit: OverlayWriteLimit = { maxBytes: Number.POSITIVE_INFINITY }
	) {}

	/** Bytes this view has counted against its limit (see the class comment). */
	get bytesWritten(): number {
		return this.written;
	}

	/** The sentence saying which limit was passed; undefined while within it. */
	get limitExceeded(): string | undefined {
		return this.exceeded;
	}

	async stat(path: string): Promise<WorkspaceEntryInfo | null> {
		if (!this.layer.has(path)) return this.base.stat(path);
		const entry = this.layer.get(path) ?? null;
		if (!entry) return null;
		return entry.kind === 'file'
			? { kind: 'file', size: entry.data.byteLength, modifiedAt: entry.modifiedAt }
			: { kind: 'directory', size: 0 };
	}

	async read(path: string): Promise<Uint8Array> {
		if (!this.layer.has(path)) return this.base.read(path);
		const entry = this.layer.get(path) ?? null;
		if (!entry) throw new SandboxFileSystemError('ENOENT', 'open', path);
		if (entry.kind !== 'file') throw new SandboxFileSystemError('EISDIR', 'read', path);
		return entry.data.slice();
	}

	async write(path: string, data: Uint8Array): Promise<void> {
		const existing = await this.stat(path);
		if (existing?.kind === 'directory') throw new SandboxFileSystemError('EISDIR', 'write', path);
		if (!existing) await this.requireParentFolder(path, 'open');
		this.charge(path, this.addedBytes(path, data));
		this.set(path, { kind: 'file', data: data.slice(), modifiedAt: this.now() });
	}

	/**
	 * What a write counts: all of `data`, or only its tail when it extends a file this view
	 * already holds (whose bytes were counted when they came here).
	 */
	private addedBytes(path: string, data: Uint8Array): number {
		const held = this.layer.get(path);
		if (held?.kind !== 'file' || held.data.byteLength > data.byteLength) return data.byteLength;
		const previous = held.data;
		for (let index = 0; index < previous.byteLength; index += 1) {
			if (previous[index] !== data[index]) return data.byteLength;
		}
		return data.byteLength - previous.byteLength;
	}

	private charge(path: string, bytes: number): void {
		if (this.exceeded === undefined && this.written + bytes > this.limit.maxBytes) {
			this.exceeded = `this command wrote more than ${describeBytes(this.limit.maxBytes)} to the workspace, the limit for one command`;
			this.limit.onExceeded?.(this.exceeded);
		}
		if (this.exceeded !== undefined)
			throw new SandboxFileSystemError('EDQUOT', 'write', path, this.exceeded);
		this.written += bytes;
	}

	async delete(path: string): Promise<void> {
		if (path === '') throw new SandboxFileSystemError('EPERM', 'rm', path, 'the workspace root');
		const existing = await this.stat(path);
		if (!existing) throw new SandboxFileSystemError('ENOENT', 'rm', path);
		if (existing.kind === 'directory' && (await this.list(path)).length > 0) {
			throw new SandboxFileSystemError('ENOTEMPTY', 'rm', path);
		}
		this.set(path, null);
	}

	async makeDirectory(path: string): Promise<void> {
		if (path === '' || (await this.stat(path))) {
			throw new SandboxFileSystemError('EEXIST', 'mkdir', path);
		}
		await this.requireParentFolder(path, 'mkdir');
		this.set(path, { kind: 'directory' });
	}

	async list(path: string): Promise<WorkspaceEntry[]> {
		const info = await this.stat(path);
		if (!info) throw new SandboxFileSystemError('ENOENT', 'scandir', path);
		if (info.kind !== 'directory') throw new SandboxFileSystemError('ENOTDIR', 'scandir', path);
		const names = new Map<string, 'file' | 'directory'>();
		// The base's entries only count while the base's folder is the one here: a folder removed
		// and made again had every entry removed first, and each of those is in the layer.
		if ((await this.base.stat(path))?.kind === 'directory') {
			for (const entry of await this.base.list(path)) names.set(entry.name, entry.kind);
		}
		for (const name of this.added.get(path) ?? []) names.set(name, 'file');
		const entries: WorkspaceEntry[] = [];
		for (const name of names.keys()) {
			const child = joinWorkspacePath(path, name);
			const kind = this.layer.has(child)
				? this.layer.get(child)?.kind
				: (names.get(name) as 'file' | 'directory');
			if (kind) entries.push({ name, kind });
		}
		return entries.sort((left, right) => compareEntryNames(left.name, right.name));
	}

	/** Every path whose state differs from the base, parents before children. */
	async proposal(): Promise<EntryChange[]> {
		const changes: EntryChange[] = [];
		for (const path of [...this.layer.keys()].sort(compareTreeOrder)) {
			const before = await stateOf(this.base, path);
			const after = layerState(this.layer.get(path) ?? null);
			if (!sameState(before, after)) changes.push({ path, before, after });
		}
		return changes;
	}

	private set(path: string, entry: Layer): void {
		this.layer.set(path, entry);
		if (entry) {
			const parent = parentWorkspacePath(path);
			let names = this.added.get(parent);
			if (!names) this.added.set(parent, (names = new Set()));
			names.add(path.slice(parent === '' ? 0 : parent.length + 1));
		}
	}

	private async requireParentFolder(path: string, operation: string): Promise<void> {
		const parent = parentWorkspacePath(path);
		if (parent === '') return;
		const info = await this.stat(parent);
		if (!info) throw new SandboxFileSystemError('ENOENT', operation, path);
		if (info.kind !== 'directory') throw new SandboxFileSystemError('ENOTDIR', operation, path);
	}
}

/** "64 MiB", "1.5 MiB", "512 bytes". */
export function describeBytes(bytes: number): string {
	const mebibytes = bytes / (1024 * 1024);
	if (mebibytes >= 1)
		return `${Number.isInteger(mebibytes) ? mebibytes : mebibytes.toFixed(1)} MiB`;
	return `${bytes} bytes`;
}

/** A store path's state, in the transaction's terms. */
export async function stateOf(files: WorkspaceFiles, path: string): Promise<EntryState> {
	const info = await files.stat(path);
	if (!info) return { kind: 'absent' };
	if (info.kind === 'directory') return { kind: 'folder' };
	return { kind: 'file', data: await files.read(path) };
}

function layerState(entry: Layer): EntryState {
	if (!entry) return { kind: 'absent' };
	return entry.kind === 'file' ? { kind: 'file', data: entry.data } : { kind: 'folder' };
}

export function sameState(left: EntryState, right: EntryState): boolean {
	if (left.kind !== right.kind) return false;
	if (left.kind === 'file' && right.kind === 'file') return sameBytes(left.data, right.data);
	if (left.kind === 'link' && right.kind === 'link') return left.target === right.target;
	return true;
}

/** Parents before children, siblings by name: the order a tree is built in. */
export function compareTreeOrder(left: string, right: string): number {
	return compareEntryNames(left.split('/').join('\u0000'), right.split('/').join('\u0000'));
}

/**
 * Gives exactly these paths their after-state in `files`, all or nothing: the whole set is first
 * applied to a throwaway overlay (so a set that cannot apply, e.g. a folder that would not be
 * empty, fails before the store is touched), then to the store. Strict on purpose: a folder is
 * only removed when empty and a parent is never created implicitly, so a commit can never take
 * along a path it was not given.
 */
export async function applyEntryChanges(
	files: WorkspaceFiles,
	entries: readonly EntryChange[]
): Promise<void> {
	const states = entryStatesToApply(entries);
	await applyStrictly(new OverlayWorkspaceFiles(files), states);
	await applyStrictly(files, states);
}

/** Removals deepest first, then everything else parents first. */
function entryStatesToApply(entries: readonly EntryChange[]): WorkspaceEntryState[] {
	const removals = entries
		.filter((entry) => entry.after.kind === 'absent')
		.sort((left, right) => compareTreeOrder(right.path, left.path));
	const additions = entries
		.filter((entry) => entry.after.kind !== 'absent')
		.sort((left, right) => compareTreeOrder(left.path, right.path));
	const states: WorkspaceEntryState[] = [];
	for (const { path } of removals) states.push({ path, kind: 'absent' });
	for (const { path, after } of additions) {
		if (after.kind === 'file') states.push({ path, kind: 'file', data: after.data });
		else if (after.kind === 'folder') states.push({ path, kind: 'directory' });
		else throw new SandboxFileSystemError('ENOTSUP', 'symlink', path, 'links are not stored');
	}
	return states;
}

async function applyStrictly(files: WorkspaceFiles, states: WorkspaceEntryState[]): Promise<void> {
	for (const state of states) {
		const existing = await files.stat(state.path);
		if (state.kind === 'absent') {
			if (existing) await files.delete(state.path);
			continue;
		}
		const wanted = state.kind === 'file' ? 'file' : 'directory';
		if (existing && existing.kind !== wanted) await files.delete(state.path);
		if (state.kind === 'file') await files.write(state.path, state.data);
		else if (existing?.kind !== 'directory') await files.makeDirectory(state.path);
	}
}

/** The file-level view of entry changes (folders and links left out), as FileChange records. */
export function fileChangesOf(entries: readonly EntryChange[]) {
	return entries.flatMap((entry) => {
		const before = entry.before.kind === 'file' ? entry.before.data : null;
		const after = entry.after.kind === 'file' ? entry.after.data : null;
		if (before === null && after === null) return [];
		if (before !== null && after !== null && sameBytes(before, after)) return [];
		const type: 'created' | 'modified' | 'deleted' =
			before === null ? 'created' : after === null ? 'deleted' : 'modified';
		return [{ path: entry.path, type, before, after }];
	});
}
