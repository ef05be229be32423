import type { Command, ExecResult } from 'just-bash';
import { applyEntryChanges, OverlayWorkspaceFiles } from '../overlay-workspace-files.js';
import { workspaceMountPoint } from '../shell-command.js';
import type { OpenGitRepository } from './git-repository-store.js';
import { GitCommandError, GitSession } from './git-session.js';
import { describe, gitSubcommands, unsupportedSubcommandMessage } from './git-subcommands.js';
import { loadIsomorphicGit } from './load-isomorphic-git.js';

export interface GitCommandOptions {
	repository: OpenGitRepository;
	/**
	 * Whether git may change the repository and, through it, the working tree right now: `null`
	 * when it may (a command typed on a person's terminal line), else why not, in a sentence.
	 * Agents' commands, criteria, policy runs and npm scripts (which an agent may have written)
	 * get the read-only subcommands (status, diff, log, show, branch listing, rev-parse, config --get).
	 */
	readOnlyReason: () => string | null;
	/** True once the line was stopped: nothing is written to the repository after that. */
	stopped?: () => boolean;
	/** Told when git runs (the runner then reads HEAD again after the line). */
	onRun?: () => void;
}

export const gitVersionText = 'git version 2.44.0 (isomorphic-git, offline)';

const usage = `usage: git <command> [<args>]

The offline git runs these commands on the workspace's repository:
   init       Create the repository (the workspace is its working tree)
   status     Show the working tree status (-s for short)
   add        Add file contents to the index (paths, ., -A, -u)
   rm         Remove files from the working tree and the index (--cached)
   commit     Record changes (-m <message>, -a, --allow-empty)
   log        Show commits (--oneline, -n <count>)
   show       Show a commit and its changes
   diff       Show changes (--staged for the index against HEAD; HEAD; paths)
   branch     List, create (branch <name>), rename (-m) or delete (-d) branches
   checkout   Switch branches (-b <new>) or restore files (checkout -- <file>)
   switch     Switch branches (-c <new>)
   restore    Restore working tree files (--staged to unstage)
   rev-parse  Name a commit (HEAD, HEAD~1, --short, --abbrev-ref HEAD)
   config     Get and set options (user.name, user.email)

Agents may read (status, diff, log, show, branch, rev-parse); only a person's terminal changes
the repository. There are no remotes: push, pull and clone need the network.
`;

/**
 * `git` in the offline shell, on isomorphic-git. The repository lives in its own store (see
 * git-file-system.ts); each invocation works on a copy-on-write overlay of it, written back only
 * when the command succeeds on a line that may write, so a failed or read-only command leaves
 * the repository as it was (isomorphic-git refreshes the index even on `status`).
 */
export function createGitCommand(options: GitCommandOptions): Command {
	return {
		name: 'git',
		trusted: true,
		execute: async (args, context): Promise<ExecResult> => {
			options.onRun?.();
			const [name, ...rest] = args;
			if (name === undefined || name === 'help' || name === '--help' || name === '-h')
				return { stdout: usage, stderr: '', exitCode: name === undefined ? 1 : 0 };
			if (name === '--version' || name === 'version')
				return { stdout: `${gitVersionText}\n`, stderr: '', exitCode: 0 };
			if (name.startsWith('-')) return failure(`unknown option: ${name}\n${usage}`, 129);
			const subcommand = Object.hasOwn(gitSubcommands, name) ? gitSubcommands[name] : undefined;
			if (!subcommand) return failure(`${unsupportedSubcommandMessage(name)}\n`, 1);
			const readOnly = options.readOnlyReason();
			if (readOnly !== null && subcommand.writes(rest))
				return failure(
					`git ${name} changes the repository or the working tree, which ${readOnly}. Agents may run git status, diff, log, show, branch and rev-parse; ask the person to type git ${name} in the terminal.\n`,
					1
				);
			let store;
			try {
				store = await options.repository();
			} catch (error) {
				return failure(`fatal: the repository could not be opened (${describe(error)})\n`, 128);
			}
			const staged = new OverlayWorkspaceFiles(store.files);
			try {
				const git = await loadIsomorphicGit();
				const session = new GitSession(git, context.fs, staged, {
					workspaceRoot: workspaceMountPoint,
					cwd: context.cwd,
					env: context.exportedEnv ?? Object.fromEntries(context.env)
				});
				if (!context.cwd.startsWith(workspaceMountPoint))
					throw new GitCommandError(
						`fatal: not a git repository: ${context.cwd} is outside the workspace`
					);
				const said = await subcommand.run(session, rest);
				const output = typeof said === 'string' ? { stdout: said, stderr: '' } : said;
				for (const path of [...session.keptGovernancePaths].sort())
					output.stderr += `warning: left ${path} as it is: it changes only through governance\n`;
				if (readOnly === null) {
					// A line stopped meanwhile (Ctrl+C, its time limit) has reported its end: writing
					// now would change the repository behind the person's back.
					if (options.stopped?.())
						return failure('git: stopped; the repository was left as it was\n', 130);
					const changes = await staged.proposal();
					const apply = () => applyEntryChanges(store.files, changes);
					await (store.batch ? store.batch(apply) : apply());
					await store.flush?.();
				}
				return { ...output, exitCode: 0 };
			} catch (error) {
				if (error instanceof GitCommandError)
					return failure(error.message ? `${error.message}\n` : '', error.exitCode);
				return failure(`fatal: ${describe(error)}\n`, 128);
			}
		}
	};
}

function failure(stderr: string, exitCode: number): ExecResult {
	return { stdout: '', stderr, exitCode };
}
