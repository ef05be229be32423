import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import { decodeText, encodeText } from '../../../hooks/hashing/text-encoding.js';
import { normalizeWorkspacePath } from '../../../hooks/paths/normalize-path.js';
import {
	governancePathKind,
	governancePathLabel,
	isGovernancePath
} from '../../../hooks/paths/protected-paths.js';
import type {
	DirectoryEntry,
	FileChange,
	FileStat,
	FileWatchEvent,
	SandboxFileSystem
} from '../../../hooks/tools/sandbox-ports.js';
import { fileKind } from '../editor/file-kind.js';
import { ancestorsOf, buildTreeRows, listWorkspace } from './file-tree-model.js';
import { noChangeMarks, type ChangeMarks } from '../changes/change-marks.js';

import { restorableViewState, type WorkspaceViewState } from './workspace-view-state.js';
/** A diff shown full width in the editor area (the changes view, a tool card, the trace). */
export interface OpenDiff {
	path: string;
	/** The tab's and the diff's accessible name, e.g. "Changes to src/app.ts (this session)". */
	title: string;
	original: string | null;
	modified: string | null;
	/** Why there is no diff to show (binary, content not kept); null when there is one. */
	unavailable: string | null;
}

export interface OpenFile {
	path: string;
	kind: 'text' | 'binary';
	/** What the editor shows (unsaved edits included). */
	content: string;
	/** The content last loaded from or saved to the workspace. */
	savedContent: string;
	size: number;
	/** Why the file cannot be edited, when it cannot. */
	readOnlyReason: string | null;
	/** A command or an agent changed the file while it had unsaved edits. */
	conflict: { message: string; diskContent: string | null } | null;
}

export interface WorkspaceOptions {
	/**
	 * How a person's save reaches the workspace. The default writes through the filesystem; the
	 * governed agent issue routes it through the pipeline so the ledger records it as `human`.
	 */
	saveAsHuman?: (path: string, content: string | Uint8Array | null) => Promise<void>;
}

/**
 * The single source of truth for the IDE's files, open tabs and dirty state. The tree and the
 * editor read it; the sandbox's filesystem is behind it. Every write made through this object
 * (editor, tree, agent tools) updates the state directly; changes the shell makes arrive through
 * `applyChanges` (terminal) or the filesystem's `watch` (agent commands), one direction each, so
 * there are no echo loops.
 */
export class Workspace implements SandboxFileSystem {
	readonly files = new SvelteMap<string, number>();
	readonly folders = new SvelteSet<string>();
	readonly expanded = new SvelteSet<string>();
	tabs = $state<OpenFile[]>([]);
	activePath = $state<string | null>(null);
	/** The last failed operation, in words a person can act on; cleared by the next success. */
	error = $state<string | null>(null);
	readonly rows = $derived(
		buildTreeRows(this.files.keys(), this.folders, this.expanded, this.deletedPaths())
	);
	readonly activeFile = $derived(this.tabs.find((tab) => tab.path === this.activePath) ?? null);
	readonly dirtyCount = $derived(
		this.tabs.filter((tab) => tab.content !== tab.savedContent).length
	);
	/** The diff in the editor area's diff tab (one at a time, like a preview tab). */
	diff = $state.raw<OpenDiff | null>(null);
	/** Whether the diff tab, not a file, fills the editor area. */
	showingDiff = $state(false);
	/** Where the tree's change marks come from (the session's ledger); none until set. */
	changeSource = $state.raw<(() => ChangeMarks) | null>(null);
	readonly changeMarks: ChangeMarks = $derived(this.changeSource?.() ?? noChangeMarks);
	/** Shows a changed file's diff (set with `changeSource`): a deleted file's row opens this. */
	showChange = $state.raw<((path: string) => void) | null>(null);
	private readonly stopWatching: () => void;

	constructor(
		private readonly inner: SandboxFileSystem,
		private readonly options: WorkspaceOptions = {}
	) {
		this.stopWatching = inner.watch((event) => void this.followWatchEvent(event));
	}

	dispose(): void {
		this.stopWatching();
	}

	/** Reads the whole file list from the filesystem (after load, reset or import). */
	async refresh(): Promise<void> {
		const listing = await listWorkspace(this.inner);
		this.files.clear();
		for (const [path, size] of listing.files) this.files.set(path, size);
		this.folders.clear();
		for (const folder of listing.folders) this.folders.add(folder);
		for (const tab of this.tabs) {
			if (!this.files.has(tab.path))
				tab.conflict = {
					message: 'This file no longer exists in the workspace.',
					diskContent: null
				};
		}
	}

	isDirty(path: string): boolean {
		const tab = this.tabs.find((candidate) => candidate.path === path);
		return tab ? tab.content !== tab.savedContent : false;
	}

	/** Governance paths (`.intentignore` too: protection changes in the intents panel only). */
	isLocked(path: string): boolean {
		return isGovernancePath(path);
	}

	toggleFolder(path: string, open?: boolean): void {
		const shouldOpen = open ?? !this.expanded.has(path);
		if (shouldOpen) this.expanded.add(path);
		else this.expanded.delete(path);
	}

	reveal(path: string): void {
		for (const folder of ancestorsOf(path)) this.expanded.add(folder);
	}

	private deletedPaths(): string[] {
		const deleted: string[] = [];
		for (const [path, status] of this.changeMarks.files)
			if (status === 'deleted') deleted.push(path);
		return deleted;
	}

	/** Shows a diff full width in the editor area (replacing the diff shown before). */
	showDiff(diff: OpenDiff): void {
		this.diff = diff;
		this.showingDiff = true;
		this.reveal(diff.path);
	}

	closeDiff(): void {
		this.diff = null;
		this.showingDiff = false;
	}

	/** The open tabs, the active one and the open folders, for the next reload. */
	viewState(): WorkspaceViewState {
		return {
			tabs: this.tabs.map((tab) => tab.path),
			active: this.activePath,
			expanded: [...this.expanded]
		};
	}

	/** Reopens a saved view state: the tabs and folders that still exist, the active tab last. */
	async restoreViewState(saved: WorkspaceViewState): Promise<void> {
		const state = restorableViewState(saved, {
			file: (path) => this.files.has(path),
			folder: (path) => this.folders.has(path)
		});
		for (const folder of state.expanded) this.expanded.add(folder);
		for (const path of state.tabs) {
			if (this.tabs.some((tab) => tab.path === path)) continue;
			const tab = await this.loadTab(path);
			if (tab) this.tabs.push(tab);
		}
		if (state.active && this.tabs.some((tab) => tab.path === state.active))
			this.activate(state.active);
	}

	/** Makes a file tab the one shown (and leaves the diff tab). */
	activate(path: string): void {
		this.activePath = path;
		this.showingDiff = false;
	}

	async open(path: string): Promise<void> {
		const existing = this.tabs.find((tab) => tab.path === path);
		if (existing) {
			this.activate(path);
			this.reveal(path);
			return;
		}
		const tab = await this.loadTab(path);
		if (!tab) return;
		this.tabs.push(tab);
		this.activate(path);
		this.reveal(path);
	}

	close(path: string): void {
		const index = this.tabs.findIndex((tab) => tab.path === path);
		if (index === -1) return;
		this.tabs.splice(index, 1);
		if (this.activePath === path)
			this.activePath = this.tabs[Math.min(index, this.tabs.length - 1)]?.path ?? null;
	}

	edit(path: string, content: string): void {
		const tab = this.tabs.find((candidate) => candidate.path === path);
		if (tab && !tab.readOnlyReason) tab.content = content;
	}

	/** Saves a tab as a person's edit. Returns false (with `error` set) when it could not. */
	async save(path: string): Promise<boolean> {
		const tab = this.tabs.find((candidate) => candidate.path === path);
		if (!tab) return false;
		if (tab.readOnlyReason) return this.fail(`${path} is read-only: ${tab.readOnlyReason}`);
		const content = tab.content;
		try {
			if (this.options.saveAsHuman) await this.options.saveAsHuman(path, content);
			else await this.inner.writeFile(path, content);
		} catch (error) {
			return this.fail(
				`Could not save ${path}: ${messageOf(error)}. Your edits are still in the editor.`
			);
		}
		tab.savedContent = content;
		tab.conflict = null;
		tab.size = encodeText(content).byteLength;
		this.files.set(path, tab.size);
		this.error = null;
		return true;
	}

	/** Keeps the person's edits (and overwrites on the next save) or takes the disk's version. */
	resolveConflict(path: string, choice: 'keep-mine' | 'take-theirs'): void {
		const tab = this.tabs.find((candidate) => candidate.path === path);
		if (!tab?.conflict) return;
		if (choice === 'take-theirs') {
			if (tab.conflict.diskContent === null) {
				this.close(path);
				return;
			}
			tab.content = tab.conflict.diskContent;
			tab.savedContent = tab.conflict.diskContent;
		}
		tab.conflict = null;
	}

	/** Creates a file (a person's action). The path is normalised; `.orchestration/` and `.git/` are refused. */
	async createFile(rawPath: string, content: string | Uint8Array = ''): Promise<string | null> {
		const path = this.checkedPath(rawPath);
		if (path === null) return null;
		if (this.files.has(path) || this.folders.has(path))
			return this.failNull(`${path} already exists.`);
		try {
			await this.writeAsHuman(path, content);
		} catch (error) {
			return this.failNull(`Could not create ${path}: ${messageOf(error)}`);
		}
		this.reveal(path);
		this.error = null;
		return path;
	}

	async createFolder(rawPath: string): Promise<string | null> {
		const path = this.checkedPath(rawPath);
		if (path === null) return null;
		if (this.files.has(path) || this.folders.has(path))
			return this.failNull(`${path} already exists.`);
		try {
			await this.mkdir(path, { recursive: true });
		} catch (error) {
			return this.failNull(`Could not create the folder ${path}: ${messageOf(error)}`);
		}
		this.reveal(path);
		this.expanded.add(path);
		this.error = null;
		return path;
	}

	async renamePath(from: string, rawTo: string): Promise<string | null> {
		if (this.isLocked(from))
			return this.failNull(`${from} is protected and cannot be renamed here.`);
		const to = this.checkedPath(rawTo);
		if (to === null) return null;
		if (to === from) return to;
		if (this.files.has(to) || this.folders.has(to)) return this.failNull(`${to} already exists.`);
		try {
			if (this.folders.has(from)) {
				const inside = [...this.files.keys()].filter((path) => path.startsWith(`${from}/`));
				for (const path of inside) {
					const bytes = await this.inner.readFile(path);
					await this.writeAsHuman(`${to}${path.slice(from.length)}`, bytes);
					await this.removeAsHuman(path);
				}
				await this.inner.rm(from, { recursive: true }).catch(() => undefined);
				this.forgetFolder(from);
				for (const tab of this.tabs) {
					if (!tab.path.startsWith(`${from}/`)) continue;
					const moved = `${to}${tab.path.slice(from.length)}`;
					if (this.activePath === tab.path) this.activePath = moved;
					tab.path = moved;
					tab.conflict = null;
				}
			} else {
				const bytes = await this.inner.readFile(from);
				await this.writeAsHuman(to, bytes);
				await this.removeAsHuman(from);
				for (const tab of this.tabs) {
					if (tab.path !== from) continue;
					tab.path = to;
					tab.conflict = null;
				}
			}
		} catch (error) {
			return this.failNull(`Could not rename ${from}: ${messageOf(error)}`);
		}
		if (this.activePath === from) this.activePath = to;
		this.reveal(to);
		this.error = null;
		return to;
	}

	async removePath(path: string): Promise<boolean> {
		if (this.isLocked(path)) return this.fail(`${path} is protected and cannot be deleted here.`);
		try {
			if (this.folders.has(path)) {
				for (const file of [...this.files.keys()].filter((candidate) =>
					candidate.startsWith(`${path}/`)
				)) {
					await this.removeAsHuman(file);
				}
				await this.inner.rm(path, { recursive: true }).catch(() => undefined);
				this.forgetFolder(path);
			} else {
				await this.removeAsHuman(path);
			}
		} catch (error) {
			return this.fail(`Could not delete ${path}: ${messageOf(error)}`);
		}
		for (const tab of [...this.tabs])
			if (tab.path === path || tab.path.startsWith(`${path}/`)) this.close(tab.path);
		this.error = null;
		return true;
	}

	/**
	 * Files a command changed (the terminal reports them; agent commands through `watch`):
	 * the tree follows, clean editors reload, editors with unsaved edits get a conflict notice.
	 */
	async applyChanges(changes: readonly FileChange[]): Promise<void> {
		for (const change of changes) {
			if (change.after === null) this.noteRemoved(change.path);
			else this.noteWritten(change.path, change.after);
		}
	}

	// --- SandboxFileSystem: everything written through here updates the IDE at once ---

	readFile(path: string): Promise<Uint8Array> {
		return this.inner.readFile(path);
	}

	readTextFile(path: string): Promise<string> {
		return this.inner.readTextFile(path);
	}

	async writeFile(path: string, data: string | Uint8Array): Promise<void> {
		await this.inner.writeFile(path, data);
		this.noteWritten(path, typeof data === 'string' ? encodeText(data) : data);
	}

	readdir(path: string): Promise<DirectoryEntry[]> {
		return this.inner.readdir(path);
	}

	stat(path: string): Promise<FileStat | null> {
		return this.inner.stat(path);
	}

	async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
		await this.inner.mkdir(path, options);
		for (const folder of [...ancestorsOf(path), path]) this.folders.add(folder);
	}

	async rm(path: string, options?: { recursive?: boolean }): Promise<void> {
		await this.inner.rm(path, options);
		if (this.folders.has(path)) this.forgetFolder(path);
		else this.noteRemoved(path);
	}

	async rename(from: string, to: string): Promise<void> {
		const bytes = await this.inner.readFile(from);
		await this.inner.rename(from, to);
		this.noteRemoved(from);
		this.noteWritten(to, bytes);
	}

	watch(listener: (event: FileWatchEvent) => void): () => void {
		return this.inner.watch(listener);
	}

	// --- internals ---

	private async loadTab(path: string): Promise<OpenFile | null> {
		try {
			const bytes = await this.inner.readFile(path);
			const kind = fileKind(bytes);
			if (kind.kind !== 'text') {
				// Binary and very large files are not put into the editor; the tab explains why.
				return {
					path,
					kind: 'binary',
					content: '',
					savedContent: '',
					size: kind.size,
					readOnlyReason: kind.reason,
					conflict: null
				};
			}
			const readOnlyReason = this.isLocked(path)
				? governancePathKind(path) === 'intentignore'
					? 'Which intents are protected changes with the Protected switch in the intents panel, not by hand.'
					: 'Governance files are changed through the intents editor, not by hand.'
				: kind.readOnlyReason;
			return {
				path,
				kind: 'text',
				content: kind.text,
				savedContent: kind.text,
				size: kind.size,
				readOnlyReason,
				conflict: null
			};
		} catch (error) {
			this.fail(`Could not open ${path}: ${messageOf(error)}`);
			return null;
		}
	}

	private noteWritten(path: string, bytes: Uint8Array): void {
		this.files.set(path, bytes.byteLength);
		for (const folder of ancestorsOf(path)) this.folders.add(folder);
		const tab = this.tabs.find((candidate) => candidate.path === path);
		if (!tab || tab.kind !== 'text') return;
		const decoded = decodeText(bytes);
		const text = decoded.ok ? decoded.text : '';
		if (text === tab.savedContent) return;
		if (tab.content === tab.savedContent) {
			tab.content = text;
			tab.savedContent = text;
			tab.size = bytes.byteLength;
		} else {
			tab.conflict = {
				message:
					'This file changed in the workspace while you had unsaved edits. Your edits are kept until you choose.',
				diskContent: text
			};
		}
	}

	private noteRemoved(path: string): void {
		this.files.delete(path);
		const tab = this.tabs.find((candidate) => candidate.path === path);
		if (tab)
			tab.conflict = { message: 'This file was deleted in the workspace.', diskContent: null };
	}

	private forgetFolder(folder: string): void {
		for (const path of [...this.files.keys()])
			if (path.startsWith(`${folder}/`)) this.noteRemoved(path);
		for (const path of [...this.folders])
			if (path === folder || path.startsWith(`${folder}/`)) this.folders.delete(path);
		this.expanded.delete(folder);
	}

	private async followWatchEvent(event: FileWatchEvent): Promise<void> {
		if (event.type === 'deleted') {
			if (this.folders.has(event.path)) this.forgetFolder(event.path);
			else this.noteRemoved(event.path);
			return;
		}
		const stat = await this.inner.stat(event.path);
		if (stat?.kind === 'file') this.noteWritten(event.path, await this.inner.readFile(event.path));
		else if (stat?.kind === 'directory') this.folders.add(event.path);
	}

	private async writeAsHuman(path: string, content: string | Uint8Array): Promise<void> {
		const bytes = typeof content === 'string' ? encodeText(content) : content;
		// Uploads and renames are people's changes too (bytes, not only editor text): recorded.
		if (this.options.saveAsHuman) await this.options.saveAsHuman(path, bytes);
		else await this.inner.writeFile(path, bytes);
		this.noteWritten(path, bytes);
	}

	private async removeAsHuman(path: string): Promise<void> {
		if (this.options.saveAsHuman) await this.options.saveAsHuman(path, null);
		else await this.inner.rm(path);
		this.noteRemoved(path);
	}

	private checkedPath(rawPath: string): string | null {
		const normalised = normalizeWorkspacePath(rawPath.trim());
		if (!normalised.ok)
			return this.failNull(`"${rawPath}" is not a usable path: ${normalised.reason}`);
		const kind = governancePathKind(normalised.path);
		if (kind)
			return this.failNull(
				kind === 'intentignore'
					? `${normalised.path} is protected: protect or unprotect an intent with its switch in the intents panel.`
					: `${normalised.path} is protected: ${governancePathLabel(kind)} is changed only by governance.`
			);
		return normalised.path;
	}

	private fail(message: string): false {
		this.error = message;
		return false;
	}

	private failNull(message: string): null {
		this.error = message;
		return null;
	}
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
