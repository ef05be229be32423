import type {
	ExecOptions,
	ExecResult,
	SandboxCapabilities,
	SandboxFileSystem
} from '../hooks/tools/sandbox-ports.js';

export type {
	DirectoryEntry,
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
 * `openShell({ cols, rows })` (an interactive terminal session) arrives with the IDE work; it is
 * deliberately absent here rather than faked.
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
	/** Stops any running command and releases resources; later calls reject. Idempotent. */
	dispose(): Promise<void>;
}
