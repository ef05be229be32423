import type { IFileSystem } from 'just-bash';
import { createGitFileSystem } from './git-file-system.js';
import { withoutControlCharacters } from './git-path-rules.js';
import type { PatchSide } from './git-patch.js';
import { ignoredAsGovernance, type StatusRow } from './git-status.js';
import type { IsomorphicGit } from './load-isomorphic-git.js';
import type { WorkspaceFiles } from '../workspace-files.js';

/** A `git` command that must stop: its message (git's `fatal:` / `error:` wording) and exit code. */
export class GitCommandError extends Error {
	constructor(
		message: string,
		readonly exitCode = 128
	) {
		super(message);
		this.name = 'GitCommandError';
	}
}

/**
 * What one `git` invocation works with: isomorphic-git, the routed file system, the working
 * tree's root and the shell's folder, and the lookups several subcommands share.
 */
export class GitSession {
	readonly fs: ReturnType<typeof createGitFileSystem>;
	readonly dir: string;
	/** isomorphic-git's object cache, shared by the calls of one command. */
	readonly cache: object = {};
	/** Governance paths this command wanted to change in the working tree and left as they are. */
	readonly keptGovernancePaths = new Set<string>();

	constructor(
		readonly git: IsomorphicGit,
		readonly shell: IFileSystem,
		readonly repository: WorkspaceFiles,
		readonly options: {
			workspaceRoot: string;
			cwd: string;
			env: Record<string, string>;
		}
	) {
		this.dir = options.workspaceRoot;
		this.fs = createGitFileSystem({
			shell,
			workspaceRoot: options.workspaceRoot,
			repository,
			onGovernancePathKept: (path) => this.keptGovernancePaths.add(path)
		});
	}

	/** The arguments every isomorphic-git call takes. */
	get base(): { fs: GitSession['fs']; dir: string; cache: object } {
		return { fs: this.fs, dir: this.dir, cache: this.cache };
	}

	async isRepository(): Promise<boolean> {
		return (await this.repository.stat('HEAD'))?.kind === 'file';
	}

	async requireRepository(): Promise<void> {
		if (!(await this.isRepository()))
			throw new GitCommandError(
				'fatal: not a git repository (run "git init" in the terminal to create one)'
			);
	}

	/** HEAD's commit, or null before the first commit. */
	async headOid(): Promise<string | null> {
		try {
			return await this.git.resolveRef({ ...this.base, ref: 'HEAD' });
		} catch {
			return null;
		}
	}

	/** The checked-out branch's short name; null when HEAD is detached. */
	async currentBranch(): Promise<string | null> {
		return (await this.git.currentBranch({ ...this.base, fullname: false })) ?? null;
	}

	/** A commit named the ways git accepts here: HEAD, HEAD~n / HEAD^, a branch, a (short) id. */
	async resolveCommit(name: string): Promise<string> {
		const ancestry = /^(.*?)((?:~\d*|\^)*)$/.exec(name);
		const start = ancestry?.[1] || name;
		let oid: string | null = null;
		try {
			oid = await this.git.resolveRef({ ...this.base, ref: start });
		} catch {
			if (/^[0-9a-f]{4,40}$/i.test(start)) {
				try {
					oid = await this.git.expandOid({ ...this.base, oid: start.toLowerCase() });
				} catch {
					oid = null;
				}
			}
		}
		if (!oid)
			throw new GitCommandError(
				`fatal: ambiguous argument '${name}': unknown revision or path not in the working tree.`
			);
		for (const step of (ancestry?.[2] ?? '').match(/~\d*|\^/g) ?? []) {
			const count = step === '^' || step === '~' ? 1 : Number(step.slice(1));
			for (let index = 0; index < count; index++) {
				const { commit } = await this.git.readCommit({ ...this.base, oid });
				const parent = commit.parent[0];
				if (!parent)
					throw new GitCommandError(
						`fatal: ambiguous argument '${name}': unknown revision or path not in the working tree.`
					);
				oid = parent;
			}
		}
		return oid;
	}

	/**
	 * A path argument as the repository names it (relative to the workspace root), from the
	 * shell's folder. `.` from the root is ''. Outside the workspace → git's error.
	 */
	repositoryPath(argument: string): string {
		const absolute = this.shell.resolvePath(this.options.cwd, argument);
		const root = this.options.workspaceRoot;
		if (absolute === root) return '';
		if (!absolute.startsWith(`${root}/`))
			throw new GitCommandError(
				`fatal: ${argument}: '${absolute}' is outside repository at '${root}'`
			);
		const path = absolute.slice(root.length + 1);
		if (path === '.git' || path.startsWith('.git/'))
			throw new GitCommandError(`fatal: ${argument}: the repository's own files are not tracked`);
		return path;
	}

	/**
	 * The status matrix, optionally for some paths (files or folders) only. Untracked governance
	 * files are left out, as if `.git/info/exclude` listed them (see ignoredAsGovernance), unless
	 * `withIgnored` (`git add -f`).
	 */
	async statusRows(
		paths: readonly string[] = [],
		{ withIgnored = false }: { withIgnored?: boolean } = {}
	): Promise<StatusRow[]> {
		const rows = (await this.git.statusMatrix({
			...this.base,
			...(paths.length && !paths.includes('') ? { filepaths: [...paths] } : {})
		})) as StatusRow[];
		return withIgnored ? rows : rows.filter((row) => !ignoredAsGovernance(row));
	}

	/** Every path in the index, with its blob id. */
	async indexEntries(): Promise<Map<string, string>> {
		const entries = new Map<string, string>();
		await this.git.walk({
			...this.base,
			trees: [this.git.STAGE()],
			map: async (path, [entry]) => {
				if (!entry || path === '.') return true;
				if ((await entry.type()) === 'blob') entries.set(path, (await entry.oid()) as string);
				return true;
			}
		});
		return entries;
	}

	/** Every file of a commit's tree, with its blob id. */
	async treeEntries(commitOid: string | null): Promise<Map<string, string>> {
		const entries = new Map<string, string>();
		if (!commitOid) return entries;
		await this.git.walk({
			...this.base,
			trees: [this.git.TREE({ ref: commitOid })],
			map: async (path, [entry]) => {
				if (!entry || path === '.') return true;
				if ((await entry.type()) === 'blob') entries.set(path, (await entry.oid()) as string);
				return true;
			}
		});
		return entries;
	}

	async blob(oid: string | undefined): Promise<PatchSide> {
		if (!oid) return null;
		const { blob } = await this.git.readBlob({ ...this.base, oid });
		return { bytes: blob, oid };
	}

	/** The working tree's file, or null when it is not a file there. */
	async workingFile(path: string): Promise<PatchSide> {
		const absolute = `${this.dir}/${path}`;
		try {
			if (!(await this.shell.stat(absolute)).isFile) return null;
		} catch {
			return null;
		}
		const bytes = await this.shell.readFileBuffer(absolute);
		const { oid } = await this.git.hashBlob({ object: bytes });
		return { bytes, oid };
	}

	/** Who commits: GIT_AUTHOR_* from the shell (as in git, they win), else git config, else a default. */
	async author(): Promise<{ name: string; email: string }> {
		const configured = async (key: string) =>
			(await this.git.getConfig({ ...this.base, path: key })) as string | undefined;
		// As git does: no line breaks or angle brackets (they would forge the commit's header).
		const clean = (text: string | undefined) =>
			withoutControlCharacters(text ?? '')
				.replace(/[<>]/g, '')
				.trim();
		return {
			name:
				clean(this.options.env.GIT_AUTHOR_NAME) ||
				clean(await configured('user.name')) ||
				'Threadline learner',
			email:
				clean(this.options.env.GIT_AUTHOR_EMAIL) ||
				clean(await configured('user.email')) ||
				'learner@threadline.invalid'
		};
	}
}
