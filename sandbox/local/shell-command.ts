import type { EntryChange, FileChange } from '../../hooks/tools/sandbox-ports.js';

/** Where the shell sees the workspace; also its working directory and $HOME. */
export const workspaceMountPoint = '/workspace';

/** The variables a fresh shell starts with. */
export const defaultShellEnvironment: Readonly<Record<string, string>> = Object.freeze({
	HOME: workspaceMountPoint,
	TMPDIR: '/tmp'
});

export type StopReason = 'timeout' | 'aborted' | 'disposed';

export interface ShellCommandRequest {
	command: string;
	/** Workspace-relative working folder; the caller has checked that it exists. */
	cwd: string;
	/** The shell's variables; `defaultShellEnvironment` when omitted. */
	env?: Record<string, string>;
	/** Also just-bash's deadline, which ends loops that never yield to a timer. */
	timeoutMs: number;
	/**
	 * A person's terminal line: `git` may change the repository (and, through it, the working
	 * tree). Absent or false for everything else (agents, criteria, policy runs): read-only git.
	 */
	mayWriteRepository?: boolean;
}

/** What came of one command line, before it is shaped into an ExecResult or a shell line result. */
export interface ShellCommandOutcome {
	exitCode: number;
	stdout: string;
	stderr: string;
	/** The shell itself failed (not the command): a sentence for the output. */
	failure?: string;
	/** Set when the command was stopped (or ran into just-bash's deadline). */
	stopReason?: StopReason;
	/**
	 * The command's file changes. From a runner they are only proposed (see `proposal`); from the
	 * sandbox, the ones that were committed.
	 */
	changes: FileChange[];
	/** Every path the command changed, folders included, not yet in the workspace. */
	proposal?: EntryChange[];
	/** After the sandbox's review: the proposed paths that were not committed. */
	refused?: EntryChange[];
	/** Every shell variable at the end, PWD included; absent when the command did not finish. */
	finalEnv?: Record<string, string>;
	/**
	 * True when the command had to be killed (a Worker terminated) and the files it changed were
	 * thrown away with the Worker's copy of the workspace; `changes` is then empty.
	 */
	changesDiscarded?: boolean;
	/**
	 * The commit the git repository's HEAD names after the line, when the line ran `git` (null:
	 * no repository or no commit yet); absent when git did not run.
	 */
	repositoryRevision?: string | null;
}

/** stdout, stderr, the shell's own failure and the stop sentence, as one text. */
export function outputOf(outcome: ShellCommandOutcome, stopSentence: string): string {
	let output = outcome.stdout + outcome.stderr;
	if (outcome.failure) output += `${separatorAfter(output)}${outcome.failure}\n`;
	if (stopSentence) output += `${separatorAfter(output)}${stopSentence}\n`;
	return output;
}

function separatorAfter(output: string): string {
	return output === '' || output.endsWith('\n') ? '' : '\n';
}

export function stopReasonOf(signal: AbortSignal): StopReason {
	const reason: unknown = signal.reason;
	return reason === 'timeout' || reason === 'disposed' ? reason : 'aborted';
}

export function describeError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
