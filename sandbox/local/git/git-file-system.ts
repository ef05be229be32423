import type { IFileSystem } from 'just-bash';
import { SandboxFileSystemError } from '../../sandbox-file-system-error.js';
import type { WorkspaceFiles } from '../workspace-files.js';
import { isGovernedByTheCore } from './git-path-rules.js';

/**
 * The `fs` isomorphic-git is given (its "promises" client): one tree where `<workspace>/.git`
 * is the repository store and everything else is the shell's own file system.
 *
 * Why two stores: the working tree is the governed workspace, so every file git writes there
 * (checkout, restore) goes through the shell's overlay and reaches the workspace only through
 * the line's transaction, recorded as the person's change. The repository is history, not
 * workspace content: it lives in a store of its own, never in the workspace (so the ledger,
 * verify and the file tree never see object files, and no other command can reach it: the shell
 * has no `.git` folder to write into).
 *
 * Governance paths (`.orchestration/`, `.intentignore`, `.git` in any spelling the core folds to
 * them) are never written, created or removed in the working tree by git, whichever subcommand
 * asks (a branch switch, restore, rm): the change is left undone and `keptGovernancePaths`
 * names it, so git can say so. The index may then record a version the working tree does not
 * hold; `git status` shows the difference.
 */
export interface GitFileSystemOptions {
	/** The shell's file system (the workspace mounted at `workspaceRoot`). */
	shell: IFileSystem;
	/** Where the shell sees the workspace, e.g. `/workspace`. */
	workspaceRoot: string;
	/** The repository's files, paths relative to `.git`. */
	repository: WorkspaceFiles;
	/** Told each governance path (workspace-relative) git wanted to change and left alone. */
	onGovernancePathKept?: (path: string) => void;
}

/** What isomorphic-git reads from a stat: Node's shape, enough of it. */
export interface GitStat {
	type: 'file' | 'dir' | 'symlink';
	mode: number;
	size: number;
	ino: number;
	dev: number;
	uid: number;
	gid: number;
	mtimeMs: number;
	ctimeMs: number;
	isFile(): boolean;
	isDirectory(): boolean;
	isSymbolicLink(): boolean;
}

type ReadOptions = string | { encoding?: string } | undefined;

export interface GitPromisesClient {
	readFile(path: string, options?: ReadOptions): Promise<Uint8Array | string>;
	writeFile(path: string, data: Uint8Array | string, options?: unknown): Promise<void>;
	unlink(path: string): Promise<void>;
	readdir(path: string): Promise<string[]>;
	mkdir(path: string): Promise<void>;
	rmdir(path: string): Promise<void>;
	stat(path: string): Promise<GitStat>;
	lstat(path: string): Promise<GitStat>;
	readlink(path: string): Promise<string>;
	symlink(target: string, path: string): Promise<void>;
	chmod(path: string, mode: number): Promise<void>;
}

export function createGitFileSystem(options: GitFileSystemOptions): {
	promises: GitPromisesClient;
} {
	const gitRoot = `${options.workspaceRoot}/.git`;
	const encoder = new TextEncoder();
	const decoder = new TextDecoder();
	/** The repository path of `path`, or null when it is a working-tree path. */
	const repositoryPath = (path: string): string | null => {
		const clean = path.replace(/\/+$/, '');
		if (clean === gitRoot) return '';
		if (clean.startsWith(`${gitRoot}/`)) return clean.slice(gitRoot.length + 1);
		return null;
	};
	const repository = options.repository;
	const shell = options.shell;
	/** True (and reported) when `path` is a working-tree governance path git must leave alone. */
	const keptAsItIs = (path: string): boolean => {
		const prefix = `${options.workspaceRoot}/`;
		if (!path.startsWith(prefix)) return false;
		const relative = path.slice(prefix.length).replace(/\/+$/, '');
		if (!isGovernedByTheCore(relative)) return false;
		options.onGovernancePathKept?.(relative);
		return true;
	};

	const asBytes = (data: Uint8Array | string): Uint8Array =>
		typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data);
	const decoded = (bytes: Uint8Array, readOptions: ReadOptions): Uint8Array | string => {
		const encoding = typeof readOptions === 'string' ? readOptions : readOptions?.encoding;
		return encoding ? decoder.decode(bytes) : bytes;
	};

	const promises: GitPromisesClient = {
		async readFile(path, readOptions) {
			const inRepository = repositoryPath(path);
			const bytes =
				inRepository === null
					? await withCode(() => shell.readFileBuffer(path))
					: await repository.read(inRepository);
			return decoded(bytes, readOptions);
		},
		async writeFile(path, data) {
			const inRepository = repositoryPath(path);
			if (inRepository === null) {
				if (keptAsItIs(path)) return;
				return withCode(() => shell.writeFile(path, asBytes(data)));
			}
			await repository.write(inRepository, asBytes(data));
		},
		async unlink(path) {
			const inRepository = repositoryPath(path);
			if (inRepository === null) {
				if (keptAsItIs(path)) return;
				return withCode(() => shell.rm(path));
			}
			const info = await repository.stat(inRepository);
			if (!info) throw new SandboxFileSystemError('ENOENT', 'unlink', inRepository);
			if (info.kind === 'directory')
				throw new SandboxFileSystemError('EISDIR', 'unlink', inRepository);
			await repository.delete(inRepository);
		},
		async readdir(path) {
			const inRepository = repositoryPath(path);
			if (inRepository === null) {
				const names = await withCode(() => shell.readdir(path));
				// The workspace's own `.git` (an imported folder) is not the repository.
				return path.replace(/\/+$/, '') === options.workspaceRoot
					? names.filter((name) => name !== '.git')
					: names;
			}
			return (await repository.list(inRepository)).map((entry) => entry.name);
		},
		async mkdir(path) {
			const inRepository = repositoryPath(path);
			if (inRepository === null) {
				if (keptAsItIs(path)) return;
				return withCode(() => shell.mkdir(path));
			}
			if (inRepository === '') return; // the repository's root always exists
			await repository.makeDirectory(inRepository);
		},
		async rmdir(path) {
			const inRepository = repositoryPath(path);
			if (inRepository === null) {
				if (keptAsItIs(path)) return;
				const info = await withCode(() => shell.stat(path));
				if (!info.isDirectory) throw codeError('ENOTDIR', path);
				if ((await shell.readdir(path)).length > 0) throw codeError('ENOTEMPTY', path);
				return withCode(() => shell.rm(path, { recursive: true }));
			}
			const info = await repository.stat(inRepository);
			if (!info) throw new SandboxFileSystemError('ENOENT', 'rmdir', inRepository);
			if (info.kind !== 'directory')
				throw new SandboxFileSystemError('ENOTDIR', 'rmdir', inRepository);
			await repository.delete(inRepository);
		},
		stat: (path) => statOf(path),
		lstat: (path) => statOf(path),
		async readlink(path) {
			// Neither store holds links (the shell refuses to create them).
			throw codeError('EINVAL', path);
		},
		async symlink(_target, path) {
			throw codeError('ENOTSUP', path);
		},
		async chmod() {
			// Modes are not stored; files are 100644 to git.
		}
	};

	async function statOf(path: string): Promise<GitStat> {
		const inRepository = repositoryPath(path);
		if (inRepository === null) {
			const info = await withCode(() => shell.lstat(path));
			return gitStat(
				info.isDirectory ? 'dir' : info.isSymbolicLink ? 'symlink' : 'file',
				info.size,
				info.mtime.getTime()
			);
		}
		const info = await repository.stat(inRepository);
		if (!info) throw new SandboxFileSystemError('ENOENT', 'stat', inRepository);
		return gitStat(info.kind === 'directory' ? 'dir' : 'file', info.size, info.modifiedAt ?? 0);
	}

	return { promises };
}

function gitStat(type: GitStat['type'], size: number, modifiedAt: number): GitStat {
	return {
		type,
		// isomorphic-git compares the mode with the index's; files are never executable here.
		mode: type === 'dir' ? 0o40000 : type === 'symlink' ? 0o120000 : 0o100644,
		size,
		ino: 0,
		dev: 0,
		uid: 0,
		gid: 0,
		mtimeMs: modifiedAt,
		ctimeMs: modifiedAt,
		isFile: () => type === 'file',
		isDirectory: () => type === 'dir',
		isSymbolicLink: () => type === 'symlink'
	};
}

/**
 * isomorphic-git branches on `error.code` (ENOENT above all). The shell's errors carry one;
 * anything else gets the errno its message starts with, else EIO.
 */
async function withCode<T>(operation: () => Promise<T>): Promise<T> {
	try {
		return await operation();
	} catch (error) {
		if (
			error &&
			typeof error === 'object' &&
			typeof (error as { code?: unknown }).code === 'string'
		)
			throw error;
		const message = error instanceof Error ? error.message : String(error);
		const code =
			/^(E[A-Z]+)\b/.exec(message)?.[1] ?? (/no such file/i.test(message) ? 'ENOENT' : 'EIO');
		throw Object.assign(new Error(message), { code });
	}
}

function codeError(code: string, path: string): Error {
	return Object.assign(new Error(`${code}: ${path}`), { code });
}
