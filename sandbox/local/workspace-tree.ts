import { SandboxFileSystemError } from '../sandbox-file-system-error.js';
import {
	isSameOrInsideWorkspacePath,
	joinWorkspacePath,
	parentWorkspacePath
} from '../workspace-path.js';
import type { WorkspaceEntryInfo, WorkspaceFiles } from './workspace-files.js';

/**
 * Called before a file's content is replaced or removed (or a file is created), with its
 * normalized path. The shell adapter uses it to snapshot the content before the first touch.
 */
export type BeforeFileChange = (path: string) => Promise<void>;

/**
 * The operations both the tools' `fs` and the shell need, built once over the six store
 * primitives: parent creation, recursive remove/copy, move. Paths must already be normalized.
 */
export class WorkspaceTree {
	constructor(
		readonly files: WorkspaceFiles,
		private readonly beforeFileChange: BeforeFileChange = async () => {}
	) {}

	stat(path: string): Promise<WorkspaceEntryInfo | null> {
		return this.files.stat(path);
	}

	read(path: string): Promise<Uint8Array> {
		return this.files.read(path);
	}

	async write(path: string, data: Uint8Array, options: { createParents: boolean }): Promise<void> {
		if (path === '') throw new SandboxFileSystemError('EISDIR', 'write', path);
		const existing = await this.files.stat(path);
		if (existing?.kind === 'directory') throw new SandboxFileSystemError('EISDIR', 'write', path);
		if (!existing) await this.requireFolder(parentWorkspacePath(path), path, options.createParents);
		await this.beforeFileChange(path);
		await this.files.write(path, data);
	}

	async makeDirectory(path: string, options: { recursive: boolean }): Promise<void> {
		const existing = await this.files.stat(path);
		if (existing) {
			if (existing.kind === 'directory' && options.recursive) return;
			throw new SandboxFileSystemError('EEXIST', 'mkdir', path);
		}
		await this.requireFolder(parentWorkspacePath(path), path, options.recursive);
		await this.files.makeDirectory(path);
	}

	/** Removes a file, or a folder with everything in it when `recursive`. */
	async remove(path: string, options: { recursive: boolean; force?: boolean }): Promise<void> {
		if (path === '') {
			throw new SandboxFileSystemError('EPERM', 'rm', path, 'the workspace root cannot be removed');
		}
		const existing = await this.files.stat(path);
		if (!existing) {
			if (options.force) return;
			throw new SandboxFileSystemError('ENOENT', 'rm', path);
		}
		if (existing.kind === 'file') {
			await this.beforeFileChange(path);
			await this.files.delete(path);
			return;
		}
		if (!options.recursive) {
			const entries = await this.files.list(path);
			if (entries.length > 0) throw new SandboxFileSystemError('ENOTEMPTY', 'rm', path);
			throw new SandboxFileSystemError('EISDIR', 'rm', path, 'remove a folder with recursive');
		}
		await this.removeFolderContents(path);
		await this.files.delete(path);
	}

	/** Copies a file, or a folder (with `recursive`) to `to`; an existing destination file is replaced. */
	async copy(from: string, to: string, options: { recursive: boolean }): Promise<void> {
		const source = await this.files.stat(from);
		if (!source) throw new SandboxFileSystemError('ENOENT', 'cp', from);
		if (source.kind === 'file') {
			await this.write(to, await this.files.read(from), { createParents: false });
			return;
		}
		if (!options.recursive) {
			throw new SandboxFileSystemError('EISDIR', 'cp', from, 'copy a folder with recursive');
		}
		if (isSameOrInsideWorkspacePath(from, to)) {
			throw new SandboxFileSystemError('EINVAL', 'cp', to, `cannot copy '${from}' into itself`);
		}
		await this.copyFolder(from, to);
	}

	/** Renames a file or folder; a rename is reported by the recorder as delete + create. */
	async move(from: string, to: string): Promise<void> {
		if (from === to) return;
		if (from === '') {
			throw new SandboxFileSystemError('EPERM', 'rename', from, 'the workspace root cannot move');
		}
		const source = await this.files.stat(from);
		if (!source) throw new SandboxFileSystemError('ENOENT', 'rename', from);
		if (source.kind === 'directory' && isSameOrInsideWorkspacePath(from, to)) {
			throw new SandboxFileSystemError('EINVAL', 'rename', to, `cannot move '${from}' into itself`);
		}
		const destination = await this.files.stat(to);
		if (destination?.kind === 'directory') {
			throw new SandboxFileSystemError('EEXIST', 'rename', to, 'a folder is already there');
		}
		if (destination?.kind === 'file' && source.kind === 'directory') {
			throw new SandboxFileSystemError('ENOTDIR', 'rename', to, 'a file is already there');
		}
		await this.requireFolder(parentWorkspacePath(to), to, true);
		if (source.kind === 'file') {
			await this.write(to, await this.files.read(from), { createParents: false });
			await this.beforeFileChange(from);
			await this.files.delete(from);
			return;
		}
		await this.copyFolder(from, to);
		await this.removeFolderContents(from);
		await this.files.delete(from);
	}

	/** Every file path under `folder` (recursively), sorted depth-first by name. */
	async listFilesUnder(folder: string): Promise<string[]> {
		const paths: string[] = [];
		for (const entry of await this.files.list(folder)) {
			const path = joinWorkspacePath(folder, entry.name);
			if (entry.kind === 'directory') paths.push(...(await this.listFilesUnder(path)));
			else paths.push(path);
		}
		return paths;
	}

	private async copyFolder(from: string, to: string): Promise<void> {
		const destination = await this.files.stat(to);
		if (destination?.kind === 'file') {
			throw new SandboxFileSystemError('ENOTDIR', 'cp', to, 'a file is already there');
		}
		if (!destination) {
			await this.requireFolder(parentWorkspacePath(to), to, false);
			await this.files.makeDirectory(to);
		}
		for (const entry of await this.files.list(from)) {
			const source = joinWorkspacePath(from, entry.name);
			const target = joinWorkspacePath(to, entry.name);
			if (entry.kind === 'directory') await this.copyFolder(source, target);
			else await this.write(target, await this.files.read(source), { createParents: false });
		}
	}

	private async removeFolderContents(folder: string): Promise<void> {
		for (const entry of await this.files.list(folder)) {
			const path = joinWorkspacePath(folder, entry.name);
			if (entry.kind === 'directory') {
				await this.removeFolderContents(path);
			} else {
				await this.beforeFileChange(path);
			}
			await this.files.delete(path);
		}
	}

	/** Ensures `folder` exists as a folder, creating it (and its parents) when allowed. */
	private async requireFolder(folder: string, forPath: string, create: boolean): Promise<void> {
		if (folder === '') return;
		const existing = await this.files.stat(folder);
		if (existing?.kind === 'directory') return;
		if (existing) throw new SandboxFileSystemError('ENOTDIR', 'open', forPath);
		if (!create) throw new SandboxFileSystemError('ENOENT', 'open', forPath);
		await this.requireFolder(parentWorkspacePath(folder), forPath, true);
		try {
			await this.files.makeDirectory(folder);
		} catch (error) {
			// Two commands of one pipeline may create the same parent at once; losing that race is fine.
			const raced = error instanceof SandboxFileSystemError && error.code === 'EEXIST';
			if (!raced || (await this.files.stat(folder))?.kind !== 'directory') throw error;
		}
	}
}
