import type {
	DirectoryEntry,
	FileStat,
	FileWatchEvent,
	SandboxFileSystem
} from '../../hooks/tools/sandbox-ports.js';
import { compareEntryNames } from '../local/workspace-files.js';
import {
	SandboxFileSystemError,
	type SandboxFileSystemErrorCode
} from '../sandbox-file-system-error.js';
import {
	isSameOrInsideWorkspacePath,
	normalizeWorkspacePath,
	parentWorkspacePath
} from '../workspace-path.js';
import {
	isInsideDependencyFolder,
	toContainerPath,
	workspacePathFromWatch
} from './container-path.js';
import { EchoSuppressor, type ExpectedEchoes } from './echo-suppressor.js';
import type { ContainerInstance, IFSWatcher } from './webcontainer-api.js';

type WatchListener = (event: FileWatchEvent) => void;
type EntryKind = 'file' | 'directory';

const knownCodes = new Set<SandboxFileSystemErrorCode>([
	'ENOENT',
	'EEXIST',
	'ENOTDIR',
	'EISDIR',
	'ENOTEMPTY',
	'EINVAL',
	'EPERM',
	'EACCES',
	'ENOTSUP'
]);

/**
 * The tools' SandboxFileSystem over `container.fs`. WebContainer has no `stat`, so kinds and sizes
 * come from listing the parent folder (and, for a file's size, reading it). Errors are decided
 * from the workspace's state before each operation, not parsed from the container's messages,
 * so callers get the same SandboxFileSystemError codes as with the local backend.
 *
 * `watch` relays the container's own `fs.watch` (so changes from the terminal, npm or a dev
 * server reach the IDE) minus the echoes of this object's writes; `notify` adds what a command
 * changed, so a watcher hears of it even if the container's event was lost or late. A path may
 * therefore be announced more than once; events inside `node_modules` are not announced.
 */
export class WebContainerFileSystem implements SandboxFileSystem {
	private readonly listeners = new Set<WatchListener>();
	private readonly echoes: EchoSuppressor;
	private readonly assertUsable: () => void;
	private readonly encoder = new TextEncoder();
	private readonly decoder = new TextDecoder();
	private watcher: IFSWatcher | undefined;
	/** Watch events are translated one after another so their order survives the async kind check. */
	private translation: Promise<void> = Promise.resolve();
	private closed = false;

	constructor(
		private readonly container: ContainerInstance,
		options: {
			/** How long after our own operation its watch events still count as echoes. */
			echoWindowMs: number;
			/** Throws when the owner is no longer usable (a disposed sandbox). */
			assertUsable?: () => void;
		}
	) {
		this.echoes = new EchoSuppressor(options.echoWindowMs);
		this.assertUsable = options.assertUsable ?? (() => {});
	}

	/** Subscribes to the container's recursive watch; called once the workspace is mounted. */
	startWatching(): void {
		if (this.watcher || this.closed) return;
		this.watcher = this.container.fs.watch('.', { recursive: true }, (event, filename) => {
			const path = workspacePathFromWatch(filename, this.container.workdir);
			if (path === null || path === '' || isInsideDependencyFolder(path)) return;
			if (this.echoes.isEcho(path) || this.listeners.size === 0) return;
			this.translation = this.translation.then(() => this.translateEvent(event, path));
		});
	}

	async readFile(path: string): Promise<Uint8Array> {
		const target = this.resolve(path);
		if (target === '') throw new SandboxFileSystemError('EISDIR', 'open', target);
		try {
			return await this.container.fs.readFile(toContainerPath(target));
		} catch (error) {
			const kind = await this.kindOrUnknown(target);
			if (kind === null) throw new SandboxFileSystemError('ENOENT', 'open', target);
			if (kind === 'directory') throw new SandboxFileSystemError('EISDIR', 'open', target);
			throw this.explain(error, 'open', target);
		}
	}

	async readTextFile(path: string): Promise<string> {
		return this.decoder.decode(await this.readFile(path));
	}

	async writeFile(path: string, data: string | Uint8Array): Promise<void> {
		const target = this.resolve(path);
		let bytes: Uint8Array;
		if (typeof data === 'string') bytes = this.encoder.encode(data);
		else if (data instanceof Uint8Array) bytes = data;
		else throw new TypeError(`writeFile('${path}') expects a string or a Uint8Array`);
		if (target === '') throw new SandboxFileSystemError('EISDIR', 'write', target);
		if ((await this.kindOf(target)) === 'directory') {
			throw new SandboxFileSystemError('EISDIR', 'write', target);
		}
		const missingFolders = await this.missingFoldersFor(target, 'open');
		await this.mutate({ exact: [target, ...missingFolders] }, 'write', target, async () => {
			if (missingFolders.length > 0) {
				await this.container.fs.mkdir(toContainerPath(parentWorkspacePath(target)), {
					recursive: true
				});
			}
			await this.container.fs.writeFile(toContainerPath(target), bytes);
		});
	}

	async readdir(path: string): Promise<DirectoryEntry[]> {
		const target = this.resolve(path);
		const entries = await this.listOrNull(target);
		if (entries === null) {
			const kind = await this.kindOrUnknown(target);
			throw new SandboxFileSystemError(kind === 'file' ? 'ENOTDIR' : 'ENOENT', 'scandir', target);
		}
		return entries;
	}

	async stat(path: string): Promise<FileStat | null> {
		const target = this.resolve(path);
		const kind = await this.kindOf(target);
		if (kind === null) return null;
		if (kind === 'directory') return { kind, size: 0 };
		// No stat in WebContainer: a file's size is the length of its content.
		try {
			const bytes = await this.container.fs.readFile(toContainerPath(target));
			return { kind, size: bytes.byteLength };
		} catch (error) {
			throw this.explain(error, 'stat', target);
		}
	}

	async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
		const target = this.resolve(path);
		const recursive = options.recursive === true;
		const existing = await this.kindOf(target);
		if (existing !== null) {
			if (existing === 'directory' && recursive) return;
			throw new SandboxFileSystemError('EEXIST', 'mkdir', target);
		}
		let missingFolders: string[] = [];
		if (recursive) {
			missingFolders = await this.missingFoldersFor(target, 'mkdir');
		} else {
			const parent = await this.kindOf(parentWorkspacePath(target));
			if (parent === null) throw new SandboxFileSystemError('ENOENT', 'mkdir', target);
			if (parent === 'file') throw new SandboxFileSystemError('ENOTDIR', 'mkdir', target);
		}
		await this.mutate({ exact: [target, ...missingFolders] }, 'mkdir', target, async () => {
			if (recursive) await this.container.fs.mkdir(toContainerPath(target), { recursive: true });
			else await this.container.fs.mkdir(toContainerPath(target));
		});
	}

	async rm(path: string, options: { recursive?: boolean } = {}): Promise<void> {
		const target = this.resolve(path);
		if (target === '') {
			throw new SandboxFileSystemError(
				'EPERM',
				'rm',
				target,
				'the workspace root cannot be removed'
			);
		}
		const kind = await this.kindOf(target);
		if (kind === null) throw new SandboxFileSystemError('ENOENT', 'rm', target);
		if (kind === 'directory' && options.recursive !== true) {
			const entries = await this.listOrNull(target);
			if (entries && entries.length > 0)
				throw new SandboxFileSystemError('ENOTEMPTY', 'rm', target);
			throw new SandboxFileSystemError('EISDIR', 'rm', target, 'remove a folder with recursive');
		}
		await this.mutate({ subtree: [target] }, 'rm', target, () =>
			this.container.fs.rm(toContainerPath(target), { recursive: kind === 'directory' })
		);
	}

	async rename(from: string, to: string): Promise<void> {
		const source = this.resolve(from);
		const destination = this.resolve(to);
		if (source === destination) return;
		if (source === '') {
			throw new SandboxFileSystemError('EPERM', 'rename', source, 'the workspace root cannot move');
		}
		const sourceKind = await this.kindOf(source);
		if (sourceKind === null) throw new SandboxFileSystemError('ENOENT', 'rename', source);
		if (sourceKind === 'directory' && isSameOrInsideWorkspacePath(source, destination)) {
			throw new SandboxFileSystemError(
				'EINVAL',
				'rename',
				destination,
				`cannot move '${source}' into itself`
			);
		}
		const destinationKind = await this.kindOf(destination);
		if (destinationKind === 'directory') {
			throw new SandboxFileSystemError(
				'EEXIST',
				'rename',
				destination,
				'a folder is already there'
			);
		}
		if (destinationKind === 'file' && sourceKind === 'directory') {
			throw new SandboxFileSystemError('ENOTDIR', 'rename', destination, 'a file is already there');
		}
		const missingFolders = await this.missingFoldersFor(destination, 'rename');
		const echoes = { subtree: [source, destination], exact: missingFolders };
		await this.mutate(echoes, 'rename', source, async () => {
			if (missingFolders.length > 0) {
				await this.container.fs.mkdir(toContainerPath(parentWorkspacePath(destination)), {
					recursive: true
				});
			}
			await this.container.fs.rename(toContainerPath(source), toContainerPath(destination));
		});
	}

	watch(listener: WatchListener): () => void {
		if (typeof listener !== 'function') throw new TypeError('watch expects a listener function');
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}

	/** Tells watchers about changes made outside this fs (a command). A throwing listener is skipped. */
	notify(events: readonly FileWatchEvent[]): void {
		for (const event of events) this.emit(event);
	}

	/** Stops watching the container and drops every listener (dispose). */
	close(): void {
		this.closed = true;
		this.listeners.clear();
		this.echoes.clear();
		try {
			this.watcher?.close();
		} catch {
			// A torn-down container may already have closed it.
		}
		this.watcher = undefined;
	}

	/** The kind of entry at a normalized path, or null; found by listing its parent folder. */
	async kindOf(path: string): Promise<EntryKind | null> {
		if (path === '') return 'directory';
		const siblings = await this.listOrNull(parentWorkspacePath(path));
		const name = path.slice(path.lastIndexOf('/') + 1);
		return siblings?.find((entry) => entry.name === name)?.kind ?? null;
	}

	private async translateEvent(event: 'rename' | 'change', path: string): Promise<void> {
		if (this.closed) return;
		if (event === 'change') {
			this.emit({ type: 'modified', path });
			return;
		}
		// 'rename' means a name appeared or disappeared; only the current state says which.
		let kind: EntryKind | null;
		try {
			kind = await this.kindOf(path);
		} catch {
			return;
		}
		if (!this.closed) this.emit({ type: kind === null ? 'deleted' : 'created', path });
	}

	private emit(event: FileWatchEvent): void {
		for (const listener of [...this.listeners]) {
			try {
				listener(event);
			} catch {
				// One broken watcher must not hide the change from the others or fail the command.
			}
		}
	}

	/** The folder's entries sorted by name, or null when it is missing or not a folder. */
	private async listOrNull(folder: string): Promise<DirectoryEntry[] | null> {
		let entries;
		try {
			entries = await this.container.fs.readdir(toContainerPath(folder), { withFileTypes: true });
		} catch {
			return null;
		}
		const listed: DirectoryEntry[] = [];
		for (const entry of entries) {
			// Symlinks (npm puts some in node_modules/.bin) are neither; the workspace has none.
			if (entry.isDirectory()) listed.push({ name: entry.name, kind: 'directory' });
			else if (entry.isFile()) listed.push({ name: entry.name, kind: 'file' });
		}
		return listed.sort((left, right) => compareEntryNames(left.name, right.name));
	}

	/** In error paths: the kind if it can be found, else undefined (the container may be gone). */
	private async kindOrUnknown(path: string): Promise<EntryKind | null | undefined> {
		try {
			return await this.kindOf(path);
		} catch {
			return undefined;
		}
	}

	/**
	 * The folders above `path` that do not exist yet, deepest first; ENOTDIR when a file stands
	 * where one of them should be.
	 */
	private async missingFoldersFor(path: string, operation: string): Promise<string[]> {
		const missing: string[] = [];
		let folder = parentWorkspacePath(path);
		while (folder !== '') {
			const kind = await this.kindOf(folder);
			if (kind === 'directory') break;
			if (kind === 'file') throw new SandboxFileSystemError('ENOTDIR', operation, path);
			missing.push(folder);
			folder = parentWorkspacePath(folder);
		}
		return missing;
	}

	private async mutate(
		echoes: ExpectedEchoes,
		operation: string,
		path: string,
		change: () => Promise<unknown>
	): Promise<void> {
		const release = this.echoes.expect(echoes);
		try {
			await change();
		} catch (error) {
			throw this.explain(error, operation, path);
		} finally {
			release();
		}
	}

	/** A container error as a SandboxFileSystemError when its errno is recognisable. */
	private explain(error: unknown, operation: string, path: string): Error {
		if (error instanceof SandboxFileSystemError) return error;
		const code = errnoOf(error);
		const detail = error instanceof Error ? error.message : String(error);
		if (code) return new SandboxFileSystemError(code, operation, path, `WebContainer: ${detail}`);
		return new Error(`WebContainer could not ${operation} '${path || '.'}': ${detail}`, {
			cause: error
		});
	}

	private resolve(path: string): string {
		this.assertUsable();
		return normalizeWorkspacePath(path);
	}
}

/** The errno of a Node-style error ("ENOENT: no such file…" or `{ code: 'ENOENT' }`), if any. */
function errnoOf(error: unknown): SandboxFileSystemErrorCode | undefined {
	const candidate =
		typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
	if (typeof candidate === 'string' && knownCodes.has(candidate as SandboxFileSystemErrorCode)) {
		return candidate as SandboxFileSystemErrorCode;
	}
	const message = error instanceof Error ? error.message : String(error);
	const match = /^(E[A-Z]+)\b/.exec(message);
	if (match && knownCodes.has(match[1] as SandboxFileSystemErrorCode)) {
		return match[1] as SandboxFileSystemErrorCode;
	}
	return undefined;
}
