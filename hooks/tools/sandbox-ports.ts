/**
 * What tool executors and post-checks need from a sandbox: a filesystem over workspace-relative
 * POSIX paths and a way to run one shell command. The `sandbox/` backends implement these; hooks/
 * only ever sees these shapes, never a sandbox's lifecycle.
 */
export interface FileStat {
	kind: 'file' | 'directory';
	size: number;
}

export interface DirectoryEntry {
	name: string;
	kind: 'file' | 'directory';
}

export type FileWatchEvent = { type: 'created' | 'modified' | 'deleted'; path: string };

export interface SandboxFileSystem {
	/** Raw bytes; rejects when the file does not exist. */
	readFile(path: string): Promise<Uint8Array>;
	/** UTF-8 text; rejects when the file does not exist. */
	readTextFile(path: string): Promise<string>;
	/** Creates parent folders as needed. */
	writeFile(path: string, data: string | Uint8Array): Promise<void>;
	readdir(path: string): Promise<DirectoryEntry[]>;
	/** `null` when nothing is at the path. */
	stat(path: string): Promise<FileStat | null>;
	mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
	rm(path: string, options?: { recursive?: boolean }): Promise<void>;
	rename(from: string, to: string): Promise<void>;
	/** Changes made by anyone but this fs's own callers (e.g. the shell); returns an unsubscribe. */
	watch(listener: (event: FileWatchEvent) => void): () => void;
}

/** One file a command (or a tool) created, modified or deleted, with both sides for revert and diff. */
export interface FileChange {
	path: string;
	type: 'created' | 'modified' | 'deleted';
	/** Content before the change; `null` when the file did not exist. */
	before: Uint8Array | null;
	/** Content after the change; `null` when the file was deleted. */
	after: Uint8Array | null;
}

/**
 * What one path holds, as a command's transaction sees it. `link` is only ever reported by a
 * backend whose filesystem has symbolic links (WebContainer); the local stores have none.
 */
export type EntryState =
	| { kind: 'file'; data: Uint8Array }
	| { kind: 'folder' }
	| { kind: 'link'; target: string }
	| { kind: 'absent' };

/** One path a command changed: what was there before, what the command left there. */
export interface EntryChange {
	path: string;
	before: EntryState;
	after: EntryState;
}

/**
 * A command's changes, not yet in the workspace (local backends: they live in a copy-on-write
 * overlay; WebContainer: already on its disk, undone for the paths not committed). The governed
 * side checks the whole set, then calls `commit` once with the paths it allows (inside its ledger
 * commit, so files and records land in one step); every other path is discarded. Not calling
 * `commit` discards everything.
 */
export interface ChangeProposal {
	/** Every changed path, sorted so a parent comes before its children. */
	readonly entries: readonly EntryChange[];
	/** Applies the after-state of exactly these paths; rejects when it cannot (nothing applied). */
	commit(paths: readonly string[]): Promise<void>;
}

export interface ExecOptions {
	/** Workspace-relative folder; the workspace root when omitted. */
	cwd?: string;
	timeoutMs?: number;
	signal?: AbortSignal;
	onOutput?: (chunk: string) => void;
	/**
	 * Runs the command as a transaction: called once when the command ends, before anything it
	 * changed reaches the workspace, while the sandbox runs nothing else. Without it nothing is
	 * committed (fail closed): callers with nothing to govern (tests, the CLI's throw-away
	 * sandboxes) pass sandbox/commit-every-change.ts.
	 */
	review?: (proposal: ChangeProposal) => Promise<void>;
}

export interface ExecResult {
	exitCode: number;
	/** stdout and stderr as the user would see them. */
	output: string;
	/** Every file the command created, modified or deleted (and that was committed). */
	changes: FileChange[];
	/** Every committed path, folders and links included. */
	entries?: EntryChange[];
	/** The changed paths that were not committed (refused by the review, or discarded). */
	refused?: EntryChange[];
	/** True when the command was stopped by the timeout or the signal. */
	interrupted: boolean;
}

export interface CommandRunner {
	exec(command: string, options?: ExecOptions): Promise<ExecResult>;
}

export interface SandboxCapabilities {
	kind: 'local' | 'webcontainer';
	/** Human-readable summary for the system prompt, e.g. "bash-like shell, no npm". */
	description: string;
	commands: string[];
}
