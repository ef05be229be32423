import type {
	DirectoryEntry,
	FileStat,
	FileWatchEvent,
	SandboxFileSystem
} from '../../hooks/tools/sandbox-ports.js';
import { normalizeWorkspacePath } from '../workspace-path.js';
import type { WorkspaceFiles } from './workspace-files.js';
import { WorkspaceTree } from './workspace-tree.js';

type WatchListener = (event: FileWatchEvent) => void;

/**
 * The tools' view of the workspace: SandboxFileSystem straight over the store. Its own writes are
 * not echoed to watchers (the caller already knows); `notify` is for changes made by others.
 */
export class WorkspaceFileSystem implements SandboxFileSystem {
	private readonly tree: WorkspaceTree;
	private readonly listeners = new Set<WatchListener>();
	private readonly decoder = new TextDecoder();
	private readonly encoder = new TextEncoder();

	constructor(
		files: WorkspaceFiles,
		/** Throws when the owner is no longer usable (e.g. a disposed sandbox). */
		private readonly assertUsable: () => void = () => {}
	) {
		this.tree = new WorkspaceTree(files);
	}

	async readFile(path: string): Promise<Uint8Array> {
		return this.tree.read(this.resolve(path));
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
		await this.tree.write(target, bytes, { createParents: true });
	}

	async readdir(path: string): Promise<DirectoryEntry[]> {
		const entries = await this.tree.files.list(this.resolve(path));
		return entries.map(({ name, kind }) => ({ name, kind }));
	}

	async stat(path: string): Promise<FileStat | null> {
		const info = await this.tree.stat(this.resolve(path));
		return info ? { kind: info.kind, size: info.size } : null;
	}

	async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
		await this.tree.makeDirectory(this.resolve(path), { recursive: options.recursive === true });
	}

	async rm(path: string, options: { recursive?: boolean } = {}): Promise<void> {
		await this.tree.remove(this.resolve(path), { recursive: options.recursive === true });
	}

	async rename(from: string, to: string): Promise<void> {
		await this.tree.move(this.resolve(from), this.resolve(to));
	}

	watch(listener: WatchListener): () => void {
		if (typeof listener !== 'function') throw new TypeError('watch expects a listener function');
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}

	/** Tells watchers about changes made outside this fs (the shell). A throwing listener is skipped. */
	notify(events: readonly FileWatchEvent[]): void {
		for (const event of events) {
			for (const listener of [...this.listeners]) {
				try {
					listener(event);
				} catch {
					// One broken watcher must not hide the change from the others or fail the command.
				}
			}
		}
	}

	/** Drops every watcher (dispose). */
	clearWatchers(): void {
		this.listeners.clear();
	}

	private resolve(path: string): string {
		this.assertUsable();
		return normalizeWorkspacePath(path);
	}
}
