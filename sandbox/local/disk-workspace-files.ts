import {
	lstat,
	mkdir,
	readFile,
	readdir,
	readlink,
	realpath,
	rmdir,
	stat,
	unlink,
	writeFile
} from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
	SandboxFileSystemError,
	type SandboxFileSystemErrorCode
} from '../sandbox-file-system-error.js';
import {
	compareEntryNames,
	type WorkspaceEntry,
	type WorkspaceEntryInfo,
	type WorkspaceFiles
} from './workspace-files.js';

const mappedNodeCodes = new Set<string>([
	'ENOENT',
	'EEXIST',
	'ENOTDIR',
	'EISDIR',
	'ENOTEMPTY',
	'EINVAL',
	'EPERM',
	'EACCES'
]);

/**
 * A workspace that is a folder on disk (CLI, tests). Node only.
 *
 * Symbolic links are never followed: a path with a link anywhere on it (even one pointing inside
 * the folder, e.g. `src/auth/git -> ../../.git`, which would let a write "in scope" land in
 * `.git/`) is refused with EACCES, and links are left out of listings. The check runs before each
 * operation, so a link swapped in concurrently by another process is not covered; the folder is
 * assumed to be owned by this workspace.
 */
export class DiskWorkspaceFiles implements WorkspaceFiles {
	/** Absolute path of the folder as given (resolved against the current directory). */
	readonly root: string;
	private realRoot: Promise<string> | undefined;

	constructor(root: string) {
		this.root = resolve(root);
	}

	async stat(path: string): Promise<WorkspaceEntryInfo | null> {
		let location: string;
		try {
			location = await this.locate(path, 'stat');
		} catch (error) {
			if (error instanceof SandboxFileSystemError && error.code === 'ENOENT') return null;
			throw error;
		}
		try {
			const info = await stat(location);
			if (info.isDirectory()) return { kind: 'directory', size: 0, modifiedAt: info.mtimeMs };
			if (info.isFile()) return { kind: 'file', size: info.size, modifiedAt: info.mtimeMs };
			// Sockets, FIFOs and devices are not workspace content.
			return null;
		} catch (error) {
			if (hasNodeCode(error, 'ENOENT') || hasNodeCode(error, 'ENOTDIR')) return null;
			throw translate(error, 'stat', path);
		}
	}

	async read(path: string): Promise<Uint8Array> {
		const location = await this.locate(path, 'open');
		try {
			const info = await stat(location);
			if (info.isDirectory()) throw new SandboxFileSystemError('EISDIR', 'read', path);
			if (!info.isFile())
				throw new SandboxFileSystemError('EACCES', 'open', path, 'not a regular file');
			return new Uint8Array(await readFile(location));
		} catch (error) {
			throw translate(error, 'open', path);
		}
	}

	async write(path: string, data: Uint8Array): Promise<void> {
		if (path === '') throw new SandboxFileSystemError('EISDIR', 'write', path);
		const location = await this.locate(path, 'open');
		try {
			await writeFile(location, data);
		} catch (error) {
			throw translate(error, 'open', path);
		}
	}

	async delete(path: string): Promise<void> {
		if (path === '') throw new SandboxFileSystemError('EPERM', 'rm', path, 'the workspace root');
		const location = await this.locate(path, 'rm');
		try {
			const info = await lstat(location);
			if (info.isDirectory()) await rmdir(location);
			else await unlink(location);
		} catch (error) {
			throw translate(error, 'rm', path);
		}
	}

	async makeDirectory(path: string): Promise<void> {
		if (path === '') throw new SandboxFileSystemError('EEXIST', 'mkdir', path);
		const location = await this.locate(path, 'mkdir');
		try {
			await mkdir(location);
		} catch (error) {
			throw translate(error, 'mkdir', path);
		}
	}

	async list(path: string): Promise<WorkspaceEntry[]> {
		const location = await this.locate(path, 'scandir');
		let dirents;
		try {
			dirents = await readdir(location, { withFileTypes: true });
		} catch (error) {
			throw translate(error, 'scandir', path);
		}
		const entries: WorkspaceEntry[] = [];
		for (const dirent of dirents) {
			if (dirent.isDirectory()) entries.push({ name: dirent.name, kind: 'directory' });
			else if (dirent.isFile()) entries.push({ name: dirent.name, kind: 'file' });
			// Links (and sockets, FIFOs, devices) are not workspace content: never listed.
		}
		return entries.sort((left, right) => compareEntryNames(left.name, right.name));
	}

	/**
	 * The on-disk location of a workspace path, after checking that its real location (or that of
	 * its deepest existing ancestor, for a path about to be created) is inside the folder.
	 */
	private async locate(path: string, operation: string): Promise<string> {
		const realRoot = await this.getRealRoot();
		const location = path === '' ? this.root : join(this.root, ...path.split('/'));
		const real = await this.realLocation(location, path, operation);
		if (!isInsideFolder(realRoot, real)) {
			throw new SandboxFileSystemError(
				'EACCES',
				operation,
				path,
				'a symbolic link points outside the workspace'
			);
		}
		// Governance checks the path as written; a link on the way would make it another path.
		const expected = path === '' ? realRoot : join(realRoot, ...path.split('/'));
		if (real !== expected) {
			throw new SandboxFileSystemError(
				'EACCES',
				operation,
				path,
				'a symbolic link is on the path; links are never followed in the workspace'
			);
		}
		return location;
	}

	private async realLocation(location: string, path: string, operation: string): Promise<string> {
		try {
			return await realpath(location);
		} catch (error) {
			if (!hasNodeCode(error, 'ENOENT') && !hasNodeCode(error, 'ENOTDIR')) {
				throw translate(error, operation, path);
			}
		}
		// Missing: either nothing is there (fine, check where it would be created) or a dangling
		// link is, whose target we refuse to create blindly.
		const isDanglingLink = await lstat(location).then(
			(info) => info.isSymbolicLink(),
			() => false
		);
		if (isDanglingLink) {
			const target = await readlink(location).catch(() => '?');
			throw new SandboxFileSystemError(
				'EACCES',
				operation,
				path,
				`a symbolic link to a missing target (${target})`
			);
		}
		const parent = dirname(location);
		if (parent === location) return location;
		return join(await this.realLocation(parent, path, operation), relative(parent, location));
	}

	private getRealRoot(): Promise<string> {
		this.realRoot ??= realpath(this.root).catch((error: unknown) => {
			this.realRoot = undefined;
			throw new Error(`Workspace folder not found: ${this.root}`, { cause: error });
		});
		return this.realRoot;
	}
}

function isInsideFolder(folder: string, candidate: string): boolean {
	const difference = relative(folder, candidate);
	return (
		difference === '' ||
		(!difference.startsWith(`..${sep}`) && difference !== '..' && !isAbsolute(difference))
	);
}

function hasNodeCode(error: unknown, code: string): boolean {
	return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** Node's errors carry absolute host paths; ours carry the workspace path only. */
function translate(error: unknown, operation: string, path: string): unknown {
	if (error instanceof SandboxFileSystemError) return error;
	const code = (error as { code?: unknown } | null)?.code;
	if (typeof code === 'string' && mappedNodeCodes.has(code)) {
		return new SandboxFileSystemError(code as SandboxFileSystemErrorCode, operation, path);
	}
	// Node's message names the host path; ours names the workspace path only.
	if (code === 'ENAMETOOLONG') {
		return new SandboxFileSystemError('EINVAL', operation, path, 'the name is too long');
	}
	return error;
}
