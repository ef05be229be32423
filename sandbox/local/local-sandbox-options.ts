import type { OpenGitRepository } from './git/git-repository-store.js';
import type { NodeCommandLimits } from './node-command.js';
import type { ExecutionLimits } from './shell-command-runner.js';
import { checkTimeout } from './shell-sandbox.js';
import type { WorkspaceFiles } from './workspace-files.js';

export const defaultLocalTimeoutMs = 30_000;
/** A terminal line may run this long: a person is watching it and has Ctrl+C. */
export const defaultShellTimeoutMs = 10 * 60_000;

/** What both local sandboxes take (in this thread: createLocalSandbox; in a Worker: createWorkerLocalSandbox). */
export interface LocalSandboxOptions {
	files: WorkspaceFiles;
	/** Merged over `defaultLocalExecutionLimits`; `maxExecutionTimeMs` is always the exec timeout. */
	limits?: ExecutionLimits;
	/** Timeout of an `exec` that passes none; 30 s by default. */
	defaultTimeoutMs?: number;
	/** Time limit of one terminal line (openShell); 10 minutes by default. */
	shellTimeoutMs?: number;
	/**
	 * Bytes one command may write into the workspace (its copy-on-write view), counting every
	 * write, overwrites of one file included (an append counts what it adds);
	 * defaultMaxCommandWriteBytes by default. Past it the command is stopped and fails.
	 */
	maxCommandWriteBytes?: number;
	/** Time and memory limits of one `node` script; see defaultNodeCommandLimits. */
	nodeLimits?: Partial<NodeCommandLimits>;
	/** The workspace's git repository (createLocalSandbox); in memory for the sandbox's life by default. */
	repository?: OpenGitRepository;
}

/** Validates the options; returns the resolved time limits. */
export function checkLocalSandboxOptions(
	options: LocalSandboxOptions,
	caller: string
): { defaultTimeoutMs: number; shellTimeoutMs: number } {
	if (!options || typeof options.files !== 'object' || options.files === null) {
		throw new TypeError(`${caller} needs a WorkspaceFiles store in \`files\``);
	}
	return {
		defaultTimeoutMs: checkTimeout(options.defaultTimeoutMs ?? defaultLocalTimeoutMs),
		shellTimeoutMs: checkTimeout(options.shellTimeoutMs ?? defaultShellTimeoutMs)
	};
}
