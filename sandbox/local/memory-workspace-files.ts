import { SandboxFileSystemError } from '../sandbox-file-system-error.js';
import {
	joinWorkspacePath,
	normalizeWorkspacePath,
	parentWorkspacePath
} from '../workspace-path.js';
import {
	compareEntryNames,
	type WorkspaceEntry,
	type WorkspaceEntryInfo,
	type WorkspaceFiles
} from './workspace-files.js';

type MemoryNode =
	| { kind: 'file'; data: Uint8Array; modifiedAt: number }
	| { kind: 'directory'; modifiedAt: number; children: Set<string> };

/** Initial content: workspace-relative path → text or bytes; parent folders are implied. */
export type InitialWorkspaceFiles = Record<string, string | Uint8Array>;

/**
 * One stored entry as `entryAt`/`allEntries` expose it: the stored bytes themselves, not a copy,
 * so persistence (which clones them anyway) can read 1,000 files without copying each twice.
 * Callers must not mutate `data`.
 */
export type MemoryWorkspaceEntry =
	{ path: string; kind: 'file'; data: Uint8Array } | { path: string; kind: 'directory' };

/**
 * A workspace held in memory (tests, throwaway sandboxes). Bytes are copied on the way in and out
 * so callers can never mutate stored content behind the sandbox's back.
 */
export class MemoryWorkspaceFiles implements WorkspaceFiles {
	private readonly nodes = new Map<string, MemoryNode>();
	private readonly now: () => number;

	constructor(initialFiles: InitialWorkspaceFiles = {}, options: { now?: () => number } = {}) {
		this.now = options.now ?? Date.now;
		this.nodes.set('', { kind: 'directory', modifiedAt: this.now(), children: new Set() });
		const encoder = new TextEncoder();
		for (const [rawPath, content] of Object.entries(initialFiles)) {
			const path = normalizeWorkspacePath(rawPath);
			if (path === '') throw new Error('Initial files cannot include the workspace root');
			this.createFoldersFor(path);
			this.writeSync(path, typeof content === 'string' ? encoder.encode(content) : content);
		}
	}

	/**
	 * A store holding exactly `entries` (folders may be empty; missing parents are implied), e.g. a
	 * workspace restored from IndexedDB. Paths are normalized and checked like initial files.
	 */
	static fromEntries(
		entries: Iterable<
			{ path: string; kind: 'file'; data: Uint8Array } | { path: string; kind: 'directory' }
		>,
		options: { now?: () => number } = {}
	): MemoryWorkspaceFiles {
		const files = new MemoryWorkspaceFiles({}, options);
		for (const entry of entries) {
			const path = normalizeWorkspacePath(entry.path);
			if (path === '') throw new Error('Entries cannot include the workspace root');
			if (entry.kind === 'file') {
				files.createFoldersFor(path);
				files.writeSync(path, entry.data);
			} else {
				files.createFoldersFor(path, { includingLast: true });
			}
		}
		return files;
	}

	async stat(path: string): Promise<WorkspaceEntryInfo | null> {
		const node = this.nodes.get(path);
		if (!node) return null;
		return node.kind === 'file'
			? { kind: 'file', size: node.data.byteLength, modifiedAt: node.modifiedAt }
			: { kind: 'directory', size: 0, modifiedAt: node.modifiedAt };
	}

	async read(path: string): Promise<Uint8Array> {
		const node = this.nodes.get(path);
		if (!node) throw new SandboxFileSystemError('ENOENT', 'open', path);
		if (node.kind !== 'file') throw new SandboxFileSystemError('EISDIR', 'read', path);
		return node.data.slice();
	}

	async write(path: string, data: Uint8Array): Promise<void> {
		this.writeSync(path, data);
	}

	async delete(path: string): Promise<void> {
		if (path === '') throw new SandboxFileSystemError('EPERM', 'rm', path, 'the workspace root');
		const node = this.nodes.get(path);
		if (!node) throw new SandboxFileSystemError('ENOENT', 'rm', path);
		if (node.kind === 'directory' && node.children.size > 0) {
			throw new SandboxFileSystemError('ENOTEMPTY', 'rm', path);
		}
		this.nodes.delete(path);
		const parent = this.nodes.get(parentWorkspacePath(path));
		if (parent?.kind === 'directory') {
			parent.children.delete(baseName(path));
			parent.modifiedAt = this.now();
		}
	}

	async makeDirectory(path: string): Promise<void> {
		if (this.nodes.has(path)) throw new SandboxFileSystemError('EEXIST', 'mkdir', path);
		const parent = this.requireParentFolder(path, 'mkdir');
		this.nodes.set(path, { kind: 'directory', modifiedAt: this.now(), children: new Set() });
		parent.children.add(baseName(path));
		parent.modifiedAt = this.now();
	}

	async list(path: string): Promise<WorkspaceEntry[]> {
		const node = this.nodes.get(path);
		if (!node) throw new SandboxFileSystemError('ENOENT', 'scandir', path);
		if (node.kind !== 'directory') throw new SandboxFileSystemError('ENOTDIR', 'scandir', path);
		return [...node.children].sort(compareEntryNames).map((name) => {
			const child = this.nodes.get(joinWorkspacePath(path, name));
			return { name, kind: child?.kind ?? 'file' };
		});
	}

	/** What is stored at a normalized path, synchronously; `null` when nothing is. */
	entryAt(path: string): MemoryWorkspaceEntry | null {
		const node = this.nodes.get(path);
		if (!node) return null;
		return node.kind === 'file'
			? { path, kind: 'file', data: node.data }
			: { path, kind: 'directory' };
	}

	/** Every folder and file except the root, parents before their children, siblings by name. */
	allEntries(): MemoryWorkspaceEntry[] {
		const entries: MemoryWorkspaceEntry[] = [];
		const visit = (folder: string) => {
			const node = this.nodes.get(folder);
			if (node?.kind !== 'directory') return;
			for (const name of [...node.children].sort(compareEntryNames)) {
				const path = joinWorkspacePath(folder, name);
				const entry = this.entryAt(path);
				if (!entry) continue;
				entries.push(entry);
				if (entry.kind === 'directory') visit(path);
			}
		};
		visit('');
		return entries;
	}

	/** Every file's bytes (copies), keyed by path, in tree order: for zip export and tests. */
	snapshot(): Map<string, Uint8Array> {
		const files = new Map<string, Uint8Array>();
		for (const entry of this.allEntries()) {
			if (entry.kind === 'file') files.set(entry.path, entry.data.slice());
		}
		return files;
	}

	private writeSync(path: string, data: Uint8Array): void {
		if (!(data instanceof Uint8Array)) {
			throw new TypeError(`write expects a Uint8Array for '${path}'`);
		}
		const existing = this.nodes.get(path);
		if (existing?.kind === 'directory') throw new SandboxFileSystemError('EISDIR', 'write', path);
		const parent = this.requireParentFolder(path, 'open');
		this.nodes.set(path, { kind: 'file', data: data.slice(), modifiedAt: this.now() });
		if (!existing) {
			parent.children.add(baseName(path));
			parent.modifiedAt = this.now();
		}
	}

	private requireParentFolder(path: string, operation: string) {
		if (path === '') throw new SandboxFileSystemError('EEXIST', operation, path);
		const parent = this.nodes.get(parentWorkspacePath(path));
		if (!parent) throw new SandboxFileSystemError('ENOENT', operation, path);
		if (parent.kind !== 'directory') throw new SandboxFileSystemError('ENOTDIR', operation, path);
		return parent;
	}

	/** Creates the parent folders of `path` (and `path` itself with `includingLast`). */
	private createFoldersFor(path: string, options: { includingLast?: boolean } = {}): void {
		const segments = options.includingLast ? path.split('/') : path.split('/').slice(0, -1);
		let folder = '';
		for (const segment of segments) {
			folder = joinWorkspacePath(folder, segment);
			const node = this.nodes.get(folder);
			if (node?.kind === 'file') throw new SandboxFileSystemError('ENOTDIR', 'mkdir', folder);
			if (!node) {
				this.nodes.set(folder, { kind: 'directory', modifiedAt: this.now(), children: new Set() });
				const parent = this.nodes.get(parentWorkspacePath(folder));
				if (parent?.kind === 'directory') parent.children.add(segment);
			}
		}
	}
}

function baseName(path: string): string {
	return path.slice(path.lastIndexOf('/') + 1);
}
