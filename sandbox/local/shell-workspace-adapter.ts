import type {
	CpOptions,
	FileContent,
	FsStat,
	IFileSystem,
	MkdirOptions,
	RmOptions
} from 'just-bash';
import {
	SandboxFileSystemError,
	type SandboxFileSystemErrorCode
} from '../sandbox-file-system-error.js';
import { isSameOrInsideWorkspacePath } from '../workspace-path.js';
import type { ChangeRecorder } from './change-recorder.js';
import { decodeBytes, encodeContent, encodingFromOptions } from './text-encoding.js';
import type { WorkspaceFiles } from './workspace-files.js';
import { WorkspaceTree } from './workspace-tree.js';

// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;

/** Permission bits and timestamps set by `chmod`/`touch`: kept for the sandbox's lifetime only. */
export interface ShellFileMetadata {
	modes: Map<string, number>;
	modifiedTimes: Map<string, Date>;
}

export function createShellFileMetadata(): ShellFileMetadata {
	return { modes: new Map(), modifiedTimes: new Map() };
}

/** Errors in the shape just-bash's commands parse: `CODE: explanation, operation 'path'`. */
class ShellFileSystemError extends Error {
	readonly code: SandboxFileSystemErrorCode;

	constructor(
		code: SandboxFileSystemErrorCode,
		operation: string,
		shellPath: string,
		detail?: string
	) {
		super(
			`${code}: ${SandboxFileSystemError.explain(code)}, ${operation} '${shellPath}'${detail ? ` (${detail})` : ''}`
		);
		this.code = code;
	}
}

/**
 * just-bash's IFileSystem over a WorkspaceFiles store, for one command run. Mounted at
 * `mountPoint` in a MountableFs, it receives paths relative to the mount ('/src/a.ts').
 *
 * Every write, delete and rename snapshots the file's previous content in the ChangeRecorder
 * first, which is how a command's changes are reported. After `revoke`, every call fails: a
 * command that outlives its timeout can no longer touch the workspace.
 */
export class ShellWorkspaceAdapter implements IFileSystem {
	private readonly tree: WorkspaceTree;
	private revokedBecause: string | undefined;

	constructor(
		private readonly files: WorkspaceFiles,
		private readonly recorder: ChangeRecorder,
		private readonly metadata: ShellFileMetadata,
		private readonly mountPoint: string
	) {
		this.tree = new WorkspaceTree(files, (path) => {
			this.assertActive('write', path);
			return this.recorder.recordBefore(path);
		});
	}

	revoke(reason: string): void {
		this.revokedBecause ??= reason;
	}

	async readFile(path: string, options?: unknown): Promise<string> {
		return decodeBytes(await this.readFileBuffer(path), encodingFromOptions(options));
	}

	async readFileBuffer(path: string): Promise<Uint8Array> {
		return this.run('open', path, (workspacePath) => this.files.read(workspacePath));
	}

	async writeFile(path: string, content: FileContent, options?: unknown): Promise<void> {
		const encoding = encodingFromOptions(options);
		const bytes = encodeContent(content, encoding);
		await this.run('open', path, async (workspacePath) => {
			// Byte fidelity: a command that writes back exactly the text it read (`sed -i` without a
			// match) must not turn bytes that are not UTF-8 into U+FFFD.
			if (typeof content === 'string' && (await this.isSameText(workspacePath, content, encoding)))
				return;
			await this.tree.write(workspacePath, bytes, { createParents: false });
		});
	}

	/** Whether the file at `path` already reads as exactly `text` in `encoding`. */
	private async isSameText(
		path: string,
		text: string,
		encoding: ReturnType<typeof encodingFromOptions>
	): Promise<boolean> {
		const info = await this.files.stat(path);
		if (info?.kind !== 'file') return false;
		// Cheap reject first: each byte decodes to at most one UTF-16 unit, a character to <= 4 bytes.
		if (text.length > info.size || text.length * 4 < info.size) return false;
		return decodeBytes(await this.files.read(path), encoding) === text;
	}

	async appendFile(path: string, content: FileContent, options?: unknown): Promise<void> {
		const addition = encodeContent(content, encodingFromOptions(options));
		await this.run('append', path, async (workspacePath) => {
			const existing = await this.files.stat(workspacePath);
			let bytes = addition;
			if (existing?.kind === 'file') {
				const previous = await this.files.read(workspacePath);
				bytes = new Uint8Array(previous.byteLength + addition.byteLength);
				bytes.set(previous, 0);
				bytes.set(addition, previous.byteLength);
			}
			await this.tree.write(workspacePath, bytes, { createParents: false });
		});
	}

	async exists(path: string): Promise<boolean> {
		try {
			return (
				(await this.run('access', path, (workspacePath) => this.files.stat(workspacePath))) !== null
			);
		} catch {
			return false;
		}
	}

	async stat(path: string): Promise<FsStat> {
		return this.run('stat', path, async (workspacePath) => {
			const info = await this.files.stat(workspacePath);
			if (!info) throw new SandboxFileSystemError('ENOENT', 'stat', workspacePath);
			const isDirectory = info.kind === 'directory';
			return {
				isFile: !isDirectory,
				isDirectory,
				isSymbolicLink: false,
				mode: this.metadata.modes.get(workspacePath) ?? (isDirectory ? 0o755 : 0o644),
				size: info.size,
				mtime: this.metadata.modifiedTimes.get(workspacePath) ?? new Date(info.modifiedAt ?? 0)
			};
		});
	}

	lstat(path: string): Promise<FsStat> {
		// The workspace holds no symbolic links, so lstat and stat agree.
		return this.stat(path);
	}

	async mkdir(path: string, options?: MkdirOptions): Promise<void> {
		await this.run('mkdir', path, (workspacePath) =>
			this.tree.makeDirectory(workspacePath, { recursive: options?.recursive === true })
		);
	}

	async readdir(path: string): Promise<string[]> {
		return (await this.readdirWithFileTypes(path)).map((entry) => entry.name);
	}

	async readdirWithFileTypes(path: string) {
		return this.run('scandir', path, async (workspacePath) =>
			(await this.files.list(workspacePath)).map(({ name, kind }) => ({
				name,
				isFile: kind === 'file',
				isDirectory: kind === 'directory',
				isSymbolicLink: false
			}))
		);
	}

	async rm(path: string, options?: RmOptions): Promise<void> {
		await this.run('rm', path, async (workspacePath) => {
			// `rmdir` asks for a non-recursive removal of an empty folder (rm itself refuses a folder
			// without -r before it gets here).
			if (options?.recursive !== true && workspacePath !== '') {
				const info = await this.files.stat(workspacePath);
				if (info?.kind === 'directory' && (await this.files.list(workspacePath)).length === 0) {
					await this.files.delete(workspacePath);
					this.forgetMetadata(workspacePath);
					return;
				}
			}
			await this.tree.remove(workspacePath, {
				recursive: options?.recursive === true,
				force: options?.force === true
			});
			this.forgetMetadata(workspacePath);
		});
	}

	async cp(source: string, destination: string, options?: CpOptions): Promise<void> {
		const to = this.toWorkspacePath(destination, 'cp');
		await this.run('cp', source, (from) =>
			this.tree.copy(from, to, { recursive: options?.recursive === true })
		);
	}

	async mv(source: string, destination: string): Promise<void> {
		const to = this.toWorkspacePath(destination, 'mv');
		await this.run('mv', source, async (from) => {
			await this.tree.move(from, to);
			this.moveMetadata(from, to);
		});
	}

	resolvePath(base: string, path: string): string {
		return resolveAbsolutePath(base, path);
	}

	getAllPaths(): string[] {
		// Optional in just-bash: globbing falls back to readdir, which keeps the store lazy.
		return [];
	}

	async chmod(path: string, mode: number): Promise<void> {
		await this.run('chmod', path, async (workspacePath) => {
			await this.requireExisting(workspacePath, 'chmod');
			this.metadata.modes.set(workspacePath, mode);
		});
	}

	async symlink(_target: string, linkPath: string): Promise<void> {
		throw new ShellFileSystemError(
			// Not EPERM: just-bash's ln reads EPERM as "hard link not allowed for directory".
			'ENOTSUP',
			'symlink',
			this.shellPath(linkPath),
			'links are not supported in the workspace'
		);
	}

	async link(_existingPath: string, newPath: string): Promise<void> {
		throw new ShellFileSystemError(
			'ENOTSUP',
			'link',
			this.shellPath(newPath),
			'links are not supported in the workspace'
		);
	}

	async readlink(path: string): Promise<string> {
		return this.run('readlink', path, async (workspacePath) => {
			await this.requireExisting(workspacePath, 'readlink');
			throw new SandboxFileSystemError('EINVAL', 'readlink', workspacePath);
		});
	}

	async realpath(path: string): Promise<string> {
		return this.run('realpath', path, async (workspacePath) => {
			await this.requireExisting(workspacePath, 'realpath');
			return workspacePath === '' ? '/' : `/${workspacePath}`;
		});
	}

	async utimes(path: string, _accessTime: Date, modifiedTime: Date): Promise<void> {
		await this.run('utimes', path, async (workspacePath) => {
			await this.requireExisting(workspacePath, 'utimes');
			this.metadata.modifiedTimes.set(workspacePath, modifiedTime);
		});
	}

	/** Runs one operation with the path translated in and the errors translated out. */
	private async run<Result>(
		operation: string,
		path: string,
		action: (workspacePath: string) => Promise<Result>
	): Promise<Result> {
		const workspacePath = this.toWorkspacePath(path, operation);
		this.assertActive(operation, workspacePath);
		try {
			return await action(workspacePath);
		} catch (error) {
			if (error instanceof SandboxFileSystemError) {
				throw new ShellFileSystemError(
					error.code,
					operation,
					this.shellPath(`/${error.path}`),
					error.detail
				);
			}
			throw error;
		}
	}

	private toWorkspacePath(path: string, operation: string): string {
		if (typeof path !== 'string' || path.includes('\0')) {
			throw new ShellFileSystemError('EINVAL', operation, String(path), 'invalid path');
		}
		// Refused up front rather than stored: the governance core reads `\` as a separator and
		// control characters as an attack, so such a name could never be checked as itself.
		if (path.includes('\\')) {
			throw new ShellFileSystemError(
				'EINVAL',
				operation,
				path,
				'a backslash is not allowed in a workspace file name'
			);
		}
		if (controlCharacter.test(path)) {
			throw new ShellFileSystemError(
				'EINVAL',
				operation,
				JSON.stringify(path),
				'control characters are not allowed in a workspace file name'
			);
		}
		// MountableFs hands over normalized absolute paths; resolving again keeps `..` at the mount.
		// NFC, like every path the governance core sees: a name typed in NFD is stored as its NFC twin.
		return resolveAbsolutePath('/', path.normalize('NFC')).slice(1);
	}

	private assertActive(operation: string, workspacePath: string): void {
		if (this.revokedBecause !== undefined) {
			throw new ShellFileSystemError(
				'EACCES',
				operation,
				this.shellPath(`/${workspacePath}`),
				this.revokedBecause
			);
		}
	}

	private async requireExisting(workspacePath: string, operation: string): Promise<void> {
		if (!(await this.files.stat(workspacePath))) {
			throw new SandboxFileSystemError('ENOENT', operation, workspacePath);
		}
	}

	private shellPath(mountRelativePath: string): string {
		const normalized = resolveAbsolutePath('/', mountRelativePath);
		return normalized === '/' ? this.mountPoint : `${this.mountPoint}${normalized}`;
	}

	private forgetMetadata(workspacePath: string): void {
		for (const map of [this.metadata.modes, this.metadata.modifiedTimes]) {
			for (const key of [...map.keys()]) {
				if (isSameOrInsideWorkspacePath(workspacePath, key)) map.delete(key);
			}
		}
	}

	private moveMetadata(from: string, to: string): void {
		for (const map of [this.metadata.modes, this.metadata.modifiedTimes] as Map<
			string,
			unknown
		>[]) {
			for (const [key, value] of [...map.entries()]) {
				if (!isSameOrInsideWorkspacePath(from, key)) continue;
				map.delete(key);
				map.set(to + key.slice(from.length), value);
			}
		}
	}
}

/** POSIX resolution of `path` against the absolute `base`; `..` stops at '/'. */
export function resolveAbsolutePath(base: string, path: string): string {
	const combined = path.startsWith('/') ? path : `${base}/${path}`;
	const segments: string[] = [];
	for (const segment of combined.split('/')) {
		if (segment === '' || segment === '.') continue;
		if (segment === '..') segments.pop();
		else segments.push(segment);
	}
	return `/${segments.join('/')}`;
}
