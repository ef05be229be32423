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

export interface ExecOptions {
	/** Workspace-relative folder; the workspace root when omitted. */
	cwd?: string;
	timeoutMs?: number;
	signal?: AbortSignal;
	onOutput?: (chunk: string) => void;
}

export interface ExecResult {
	exitCode: number;
	/** stdout and stderr as the user would see them. */
	output: string;
	/** Every file the command created, modified or deleted, relative to the workspace root. */
	changes: FileChange[];
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
