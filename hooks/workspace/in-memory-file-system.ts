import { normalizeWorkspacePath } from '../paths/normalize-path.js';
import type {
	DirectoryEntry,
	FileStat,
	FileWatchEvent,
	SandboxFileSystem
} from '../tools/sandbox-ports.js';

/**
 * A SandboxFileSystem over a Map of path → bytes. Pure, so hooks/ tests and the bench can run the
 * real pipeline without a sandbox backend. Folders are implied by the files under them, plus
 * explicitly created empty ones.
 */
export class InMemoryFileSystem implements SandboxFileSystem {
	private readonly files = new Map<string, Uint8Array>();
	private readonly folders = new Set<string>();
	private readonly listeners = new Set<(event: FileWatchEvent) => void>();

	constructor(initial: Record<string, string | Uint8Array> = {}) {
		for (const [path, content] of Object.entries(initial)) {
			this.files.set(
				this.resolve(path),
				typeof content === 'string' ? new TextEncoder().encode(content) : content
			);
		}
	}

	/** Changes made "from outside" (a shell command, another tab): watchers hear about these. */
	externalWrite(path: string, content: string | Uint8Array | null): void {
		const resolved = this.resolve(path);
		const existed = this.files.has(resolved);
		if (content === null) {
			this.files.delete(resolved);
			this.notify({ type: 'deleted', path: resolved });
			return;
		}
		this.refuseBelowFile(resolved, path);
		this.files.set(
			resolved,
			typeof content === 'string' ? new TextEncoder().encode(content) : content
		);
		this.notify({ type: existed ? 'modified' : 'created', path: resolved });
	}

	paths(): string[] {
		return [...this.files.keys()].sort();
	}

	async readFile(path: string): Promise<Uint8Array> {
		const content = this.files.get(this.resolve(path));
		if (!content) throw new Error(`ENOENT: no such file: ${path}`);
		return content;
	}

	async readTextFile(path: string): Promise<string> {
		return new TextDecoder().decode(await this.readFile(path));
	}

	async writeFile(path: string, data: string | Uint8Array): Promise<void> {
		const resolved = this.resolve(path);
		if (this.isFolder(resolved)) throw failure('EISDIR', `EISDIR: ${path} is a folder`);
		this.refuseBelowFile(resolved, path);
		this.files.set(resolved, typeof data === 'string' ? new TextEncoder().encode(data) : data);
	}

	async readdir(path: string): Promise<DirectoryEntry[]> {
		const folder = this.resolve(path, true);
		if (folder !== '' && !this.isFolder(folder))
			throw new Error(`ENOTDIR: ${path} is not a folder`);
		const prefix = folder ? `${folder}/` : '';
		const entries = new Map<string, DirectoryEntry>();
		for (const candidate of [...this.files.keys(), ...this.folders]) {
			if (!candidate.startsWith(prefix) || candidate === folder) continue;
			const rest = candidate.slice(prefix.length);
			const [name, ...deeper] = rest.split('/');
			if (!name) continue;
			const isFolder = deeper.length > 0 || this.folders.has(candidate);
			if (!entries.has(name) || isFolder)
				entries.set(name, { name, kind: isFolder ? 'directory' : 'file' });
		}
		return [...entries.values()];
	}

	async stat(path: string): Promise<FileStat | null> {
		const resolved = this.resolve(path, true);
		const file = this.files.get(resolved);
		if (file) return { kind: 'file', size: file.byteLength };
		return resolved === '' || this.isFolder(resolved) ? { kind: 'directory', size: 0 } : null;
	}

	async mkdir(path: string): Promise<void> {
		const resolved = this.resolve(path);
		this.refuseBelowFile(resolved, path);
		this.folders.add(resolved);
	}

	async rm(path: string, options: { recursive?: boolean } = {}): Promise<void> {
		const resolved = this.resolve(path);
		if (this.files.delete(resolved)) return;
		if (!this.isFolder(resolved)) throw new Error(`ENOENT: no such file: ${path}`);
		const inside = [...this.files.keys()].filter((candidate) =>
			candidate.startsWith(`${resolved}/`)
		);
		if (inside.length && !options.recursive) throw new Error(`ENOTEMPTY: ${path} is not empty`);
		for (const candidate of inside) this.files.delete(candidate);
		for (const folder of [...this.folders])
			if (folder === resolved || folder.startsWith(`${resolved}/`)) this.folders.delete(folder);
	}

	async rename(from: string, to: string): Promise<void> {
		const source = this.resolve(from);
		const content = this.files.get(source);
		if (!content) throw new Error(`ENOENT: no such file: ${from}`);
		const target = this.resolve(to);
		this.refuseBelowFile(target, to);
		this.files.delete(source);
		this.files.set(target, content);
	}

	watch(listener: (event: FileWatchEvent) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private notify(event: FileWatchEvent): void {
		for (const listener of this.listeners) listener(event);
	}

	/**
	 * Nothing can be created below a file, as on every real filesystem: without this the map could
	 * hold `a.ts` and `a.ts/b` at once, and `a.ts` would be a file and a folder.
	 */
	private refuseBelowFile(resolved: string, given: string): void {
		for (let slash = resolved.indexOf('/'); slash >= 0; slash = resolved.indexOf('/', slash + 1))
			if (this.files.has(resolved.slice(0, slash)))
				throw failure('ENOTDIR', `ENOTDIR: a folder above ${given} is a file`);
	}

	private isFolder(path: string): boolean {
		if (this.folders.has(path)) return true;
		const prefix = `${path}/`;
		for (const candidate of this.files.keys()) if (candidate.startsWith(prefix)) return true;
		return false;
	}

	private resolve(path: string, allowRoot = false): string {
		const normalised = normalizeWorkspacePath(path === '' ? '.' : path, { allowRoot });
		if (!normalised.ok)
			throw new Error(`invalid path ${JSON.stringify(path)}: ${normalised.reason}`);
		return normalised.path;
	}
}

/** An error with the code a real filesystem gives it (the pipeline maps codes to tool errors). */
function failure(code: string, message: string): Error {
	return Object.assign(new Error(message), { code });
}
