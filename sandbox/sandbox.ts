import type {
	ChangeProposal,
	EntryChange,
	ExecOptions,
	ExecResult,
	FileChange,
	SandboxCapabilities,
	SandboxFileSystem
} from '../hooks/tools/sandbox-ports.js';

export type {
	ChangeProposal,
	DirectoryEntry,
	EntryChange,
	EntryState,
	ExecOptions,
	ExecResult,
	FileChange,
	FileStat,
	FileWatchEvent,
	SandboxCapabilities,
	SandboxFileSystem
} from '../hooks/tools/sandbox-ports.js';

export type SandboxKind = 'local' | 'webcontainer';

/**
 * One workspace plus a way to run shell commands in it. Tools only ever receive `fs` and `exec`
 * (the ports in hooks/tools/sandbox-ports.ts); the app owns the lifecycle (`dispose`).
 *
 * Every path in `fs` is workspace-relative POSIX ('' or '.' is the root); a path that is
 * absolute or climbs above the root is rejected with an Error.
 *
 * `openShell({ cols, rows })` opens the person's interactive terminal session (see ShellSession).
 */
export interface Sandbox {
	readonly kind: SandboxKind;
	readonly fs: SandboxFileSystem;
	/**
	 * Runs one command line with the workspace root (or `options.cwd`) as working directory.
	 * Resolves with exit code 124 and `interrupted: true` when the timeout or the signal stops it;
	 * `changes` lists every file the command created, modified or deleted.
	 */
	exec(command: string, options?: ExecOptions): Promise<ExecResult>;
	readonly capabilities: SandboxCapabilities;
	/** The person's terminal. Several may be open; each keeps its own working folder. */
	openShell(size: { cols: number; rows: number }): Promise<ShellSession>;
	/** Stops any running command and releases resources; later calls reject. Idempotent. */
	dispose(): Promise<void>;
	/**
	 * The commit the workspace's git repository's HEAD names, as last seen (at start and after
	 * every command that ran git); null without a repository or a commit. Trace records carry it
	 * as `vcs`. A backend that cannot know it leaves the method out.
	 */
	vcsRevision?(): string | null;
	/**
	 * Commits the whole working tree to the git repository (created when missing): the governance
	 * core's own commit (complete_intent with `git.commit_on_complete`), never a tool's. Changes no
	 * workspace file. Left out by a backend without the offline git.
	 */
	commitWorkingTree?(request: {
		message: string;
		author: { name: string; email: string };
	}): Promise<{ revision: string | null; committed: boolean; problem?: string }>;
}

/**
 * An interactive shell for the terminal, in one of two shapes:
 * - `line`: the terminal edits a line (history, Ctrl+C) and runs it; the session keeps the
 *   working folder and exported variables between lines (the local just-bash backend);
 * - `pty`: a real pseudo-terminal byte stream (WebContainer's `jsh`); the terminal forwards keys.
 * Files a line changed are reported so the IDE can refresh the tree and open editors.
 */
export type ShellSession = LineShellSession | PtyShellSession;

export interface LineShellResult {
	exitCode: number;
	/** True when Ctrl+C (the signal) or the time limit stopped it. */
	interrupted: boolean;
	/** The committed file changes. */
	changes: FileChange[];
	/** Every committed path (folders included) and the proposed paths that were not committed. */
	entries?: EntryChange[];
	refused?: EntryChange[];
}

export interface LineShellSession {
	readonly mode: 'line';
	/** Workspace-relative working folder ('' is the root), for the prompt. */
	readonly cwd: string;
	/**
	 * Runs a line as a transaction (see ExecOptions.review): the person's terminal refuses
	 * protected paths this way and records the rest; without a review nothing is committed.
	 */
	run(
		line: string,
		options?: {
			signal?: AbortSignal;
			onOutput?: (chunk: string) => void;
			review?: (proposal: ChangeProposal) => Promise<void>;
		}
	): Promise<LineShellResult>;
	dispose(): void;
}

export interface PtyShellSession {
	readonly mode: 'pty';
	write(data: string): void;
	/** Returns an unsubscribe function. */
	onData(listener: (data: string) => void): () => void;
	resize(size: { cols: number; rows: number }): void;
	/** Resolves with the shell's exit code when it ends. */
	readonly exit: Promise<number>;
	dispose(): void;
}
