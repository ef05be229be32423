import type { IFileSystem } from 'just-bash';

/**
 * The workspace as the offline Node runtime sees it while a program runs.
 *
 * QuickJS runs synchronously (the sync build: small and fast), and the shell's file system
 * (`IFileSystem`, the one every command uses, so the shell transaction sees every write) is
 * asynchronous. So before a program starts, the workspace's files are read into this snapshot;
 * `require`, `import` and `fs.*Sync` read from it synchronously, and every change the program
 * makes is applied to the snapshot at once and queued, in order, for the shell's file system:
 * `flush()` replays the queue when the program ends (or waits on a promise), through the same
 * `IFileSystem` the other commands write through.
 */

export interface SnapshotFile {
	kind: 'file';
	/** Absent when the file was too large to preload (`omittedReason` says why). */
	bytes?: Uint8Array;
	size: number;
	mtimeMs: number;
	omittedReason?: string;
}

export interface SnapshotDirectory {
	kind: 'directory';
	mtimeMs: number;
	/** Children were not read (node_modules, .git): listed as empty. */
	unread?: boolean;
}

export type SnapshotEntry = SnapshotFile | SnapshotDirectory;

export interface SnapshotLimits {
	maxFiles: number;
	/** Total bytes preloaded; files past it are listed but not readable synchronously. */
	maxBytes: number;
	/** Total bytes a program may write in one run. */
	maxWrittenBytes: number;
}

export const defaultSnapshotLimits: Readonly<SnapshotLimits> = Object.freeze({
	maxFiles: 5_000,
	maxBytes: 32 * 1024 * 1024,
	maxWrittenBytes: 64 * 1024 * 1024
});

/** Folders whose contents the runtime does not read: packages are not available offline. */
const unreadFolders = new Set(['node_modules', '.git']);

export class FileSystemError extends Error {
	constructor(
		readonly code: string,
		readonly syscall: string,
		readonly path: string,
		detail?: string
	) {
		super(`${code}: ${detail ?? describeCode(code)}, ${syscall} '${path}'`);
		this.name = 'FileSystemError';
	}
}

function describeCode(code: string): string {
	switch (code) {
		case 'ENOENT':
			return 'no such file or directory';
		case 'EISDIR':
			return 'illegal operation on a directory';
		case 'ENOTDIR':
			return 'not a directory';
		case 'EEXIST':
			return 'file already exists';
		case 'ENOTEMPTY':
			return 'directory not empty';
		case 'EACCES':
			return 'permission denied';
		case 'ENOSPC':
			return 'no space left on device';
		default:
			return code;
	}
}

type PendingChange =
	| { kind: 'write'; path: string }
	| { kind: 'mkdir'; path: string }
	| { kind: 'remove'; path: string }
	| { kind: 'rename'; from: string; to: string };

export class WorkspaceSnapshot {
	private readonly entries = new Map<string, SnapshotEntry>();
	private readonly pending: PendingChange[] = [];
	private writtenBytes = 0;

	private constructor(
		/** Absolute root of the preloaded tree (the workspace mount). */
		readonly root: string,
		/** Where the program may write besides the root. */
		private readonly writableRoots: readonly string[],
		private readonly limits: SnapshotLimits
	) {}

	/** Reads the tree under `root` (a folder of `fileSystem`), within `limits`. */
	static async load(
		fileSystem: IFileSystem,
		root: string,
		options: { limits?: Partial<SnapshotLimits>; writableRoots?: string[] } = {}
	): Promise<WorkspaceSnapshot> {
		const limits = { ...defaultSnapshotLimits, ...options.limits };
		const snapshot = new WorkspaceSnapshot(
			root,
			[root, ...(options.writableRoots ?? ['/tmp'])],
			limits
		);
		snapshot.entries.set('/', { kind: 'directory', mtimeMs: 0 });
		for (const ancestor of ancestorsOf(root)) {
			snapshot.entries.set(ancestor, { kind: 'directory', mtimeMs: 0 });
		}
		for (const extra of options.writableRoots ?? ['/tmp']) {
			snapshot.entries.set(extra, { kind: 'directory', mtimeMs: 0 });
		}
		const budget = { files: limits.maxFiles, bytes: limits.maxBytes };
		await snapshot.readFolder(fileSystem, root, budget);
		return snapshot;
	}

	private async readFolder(
		fileSystem: IFileSystem,
		folder: string,
		budget: { files: number; bytes: number }
	): Promise<void> {
		const stat = await fileSystem.stat(folder);
		this.entries.set(folder, { kind: 'directory', mtimeMs: stat.mtime.getTime() });
		const names = (await fileSystem.readdir(folder)).sort();
		for (const name of names) {
			const path = joinPath(folder, name);
			let entryStat;
			try {
				entryStat = await fileSystem.stat(path);
			} catch {
				continue;
			}
			if (entryStat.isDirectory) {
				if (unreadFolders.has(name)) {
					this.entries.set(path, {
						kind: 'directory',
						mtimeMs: entryStat.mtime.getTime(),
						unread: true
					});
				} else {
					await this.readFolder(fileSystem, path, budget);
				}
				continue;
			}
			if (!entryStat.isFile) continue;
			const file: SnapshotFile = {
				kind: 'file',
				size: entryStat.size,
				mtimeMs: entryStat.mtime.getTime()
			};
			if (budget.files <= 0) {
				file.omittedReason = `the workspace has more than ${this.limits.maxFiles} files`;
			} else if (entryStat.size > budget.bytes) {
				file.omittedReason = `the workspace's files add up to more than ${this.limits.maxBytes} bytes`;
			} else {
				file.bytes = await fileSystem.readFileBuffer(path);
				budget.files -= 1;
				budget.bytes -= file.bytes.byteLength;
			}
			this.entries.set(path, file);
		}
	}

	get(path: string): SnapshotEntry | undefined {
		return this.entries.get(path);
	}

	readBytes(path: string, syscall = 'open'): Uint8Array {
		const entry = this.entries.get(path);
		if (!entry) throw new FileSystemError('ENOENT', syscall, path);
		if (entry.kind === 'directory') throw new FileSystemError('EISDIR', 'read', path);
		if (!entry.bytes) {
			throw new FileSystemError(
				'EFBIG',
				syscall,
				path,
				`not preloaded by the offline runtime (${entry.omittedReason ?? 'too large'})`
			);
		}
		return entry.bytes;
	}

	readText(path: string): string {
		return new TextDecoder().decode(this.readBytes(path));
	}

	hasFileMatching(test: (path: string) => boolean): boolean {
		for (const [path, entry] of this.entries) if (entry.kind === 'file' && test(path)) return true;
		return false;
	}

	isFile(path: string): boolean {
		return this.entries.get(path)?.kind === 'file';
	}

	isDirectory(path: string): boolean {
		return this.entries.get(path)?.kind === 'directory';
	}

	list(path: string): { name: string; kind: 'file' | 'directory' }[] {
		const entry = this.entries.get(path);
		if (!entry) throw new FileSystemError('ENOENT', 'scandir', path);
		if (entry.kind !== 'directory') throw new FileSystemError('ENOTDIR', 'scandir', path);
		const prefix = path === '/' ? '/' : `${path}/`;
		const children: { name: string; kind: 'file' | 'directory' }[] = [];
		for (const [candidate, child] of this.entries) {
			if (candidate === path || !candidate.startsWith(prefix)) continue;
			const name = candidate.slice(prefix.length);
			if (name.includes('/')) continue;
			children.push({ name, kind: child.kind });
		}
		return children.sort((left, right) =>
			left.name < right.name ? -1 : left.name > right.name ? 1 : 0
		);
	}

	write(path: string, bytes: Uint8Array, append = false): void {
		this.checkWritable(path, 'open');
		const existing = this.entries.get(path);
		if (existing?.kind === 'directory') throw new FileSystemError('EISDIR', 'open', path);
		this.requireParentFolder(path, 'open');
		let content = bytes;
		if (append && existing?.kind === 'file') {
			const before = this.readBytes(path);
			content = new Uint8Array(before.byteLength + bytes.byteLength);
			content.set(before, 0);
			content.set(bytes, before.byteLength);
		}
		this.writtenBytes += content.byteLength;
		if (this.writtenBytes > this.limits.maxWrittenBytes) {
			throw new FileSystemError(
				'ENOSPC',
				'write',
				path,
				`the program wrote more than ${this.limits.maxWrittenBytes} bytes`
			);
		}
		this.entries.set(path, {
			kind: 'file',
			bytes: content,
			size: content.byteLength,
			mtimeMs: Date.now()
		});
		this.pending.push({ kind: 'write', path });
	}

	makeDirectory(path: string, recursive: boolean): string | undefined {
		this.checkWritable(path, 'mkdir');
		const existing = this.entries.get(path);
		if (existing) {
			if (recursive && existing.kind === 'directory') return undefined;
			throw new FileSystemError('EEXIST', 'mkdir', path);
		}
		let first: string | undefined;
		if (recursive) {
			for (const ancestor of [...ancestorsOf(path)].reverse()) {
				const entry = this.entries.get(ancestor);
				if (entry?.kind === 'file') throw new FileSystemError('ENOTDIR', 'mkdir', path);
				if (!entry) {
					this.checkWritable(ancestor, 'mkdir');
					this.entries.set(ancestor, { kind: 'directory', mtimeMs: Date.now() });
					first ??= ancestor;
				}
			}
		} else {
			this.requireParentFolder(path, 'mkdir');
		}
		this.entries.set(path, { kind: 'directory', mtimeMs: Date.now() });
		this.pending.push({ kind: 'mkdir', path });
		return first ?? path;
	}

	remove(
		path: string,
		options: { recursive: boolean; force: boolean; directoryOnly?: boolean }
	): void {
		const entry = this.entries.get(path);
		if (!entry) {
			if (options.force) return;
			throw new FileSystemError('ENOENT', 'rm', path);
		}
		this.checkWritable(path, 'rm');
		if (options.directoryOnly && entry.kind !== 'directory') {
			throw new FileSystemError('ENOTDIR', 'rmdir', path);
		}
		if (entry.kind === 'directory') {
			const prefix = `${path}/`;
			const children = [...this.entries.keys()].filter((candidate) => candidate.startsWith(prefix));
			if (children.length > 0 && !options.recursive) {
				throw new FileSystemError('ENOTEMPTY', 'rmdir', path);
			}
			if (!options.recursive && !options.directoryOnly) {
				throw new FileSystemError('EISDIR', 'rm', path, 'is a directory (use recursive: true)');
			}
			for (const child of children) this.entries.delete(child);
		}
		this.entries.delete(path);
		this.pending.push({ kind: 'remove', path });
	}

	rename(from: string, to: string): void {
		const entry = this.entries.get(from);
		if (!entry) throw new FileSystemError('ENOENT', 'rename', from);
		this.checkWritable(from, 'rename');
		this.checkWritable(to, 'rename');
		this.requireParentFolder(to, 'rename');
		const moved: [string, SnapshotEntry][] = [[to, entry]];
		if (entry.kind === 'directory') {
			const prefix = `${from}/`;
			for (const [candidate, child] of this.entries) {
				if (candidate.startsWith(prefix)) moved.push([to + candidate.slice(from.length), child]);
			}
			for (const [candidate] of this.entries)
				if (candidate.startsWith(prefix)) this.entries.delete(candidate);
		}
		this.entries.delete(from);
		for (const [path, moving] of moved) this.entries.set(path, moving);
		this.pending.push({ kind: 'rename', from, to });
	}

	/** True when the program changed something not yet written to the shell's file system. */
	get hasPendingChanges(): boolean {
		return this.pending.length > 0;
	}

	/**
	 * Replays the program's changes, in order, on the shell's file system (the only place they
	 * become real). Returns the failures as sentences; the rest is still applied.
	 */
	async flush(fileSystem: IFileSystem): Promise<string[]> {
		const failures: string[] = [];
		const changes = this.pending.splice(0);
		for (const change of changes) {
			try {
				switch (change.kind) {
					case 'write': {
						const entry = this.entries.get(change.path);
						// A later change removed or renamed it: the later change is what counts.
						if (entry?.kind !== 'file' || !entry.bytes) break;
						await fileSystem.writeFile(change.path, entry.bytes);
						break;
					}
					case 'mkdir':
						await fileSystem.mkdir(change.path, { recursive: true });
						break;
					case 'remove':
						await fileSystem.rm(change.path, { recursive: true, force: true });
						break;
					case 'rename':
						if (await fileSystem.exists(change.from)) await fileSystem.mv(change.from, change.to);
						break;
				}
			} catch (error) {
				const path = change.kind === 'rename' ? change.from : change.path;
				failures.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
		return failures;
	}

	private checkWritable(path: string, syscall: string): void {
		const allowed = this.writableRoots.some((root) => path === root || path.startsWith(`${root}/`));
		if (!allowed || path === this.root) {
			throw new FileSystemError(
				'EACCES',
				syscall,
				path,
				'permission denied (programs here may write inside the workspace and /tmp)'
			);
		}
	}

	private requireParentFolder(path: string, syscall: string): void {
		const parent = parentOf(path);
		const entry = this.entries.get(parent);
		if (!entry) throw new FileSystemError('ENOENT', syscall, path);
		if (entry.kind !== 'directory') throw new FileSystemError('ENOTDIR', syscall, path);
	}
}

export function joinPath(folder: string, name: string): string {
	return folder === '/' ? `/${name}` : `${folder}/${name}`;
}

export function parentOf(path: string): string {
	const index = path.lastIndexOf('/');
	return index <= 0 ? '/' : path.slice(0, index);
}

function* ancestorsOf(path: string): Generator<string> {
	let current = parentOf(path);
	while (current !== '/') {
		yield current;
		current = parentOf(current);
	}
}
