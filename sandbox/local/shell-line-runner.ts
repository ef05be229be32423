import type { ChangeProposal } from '../sandbox.js';
import type { ShellCommandOutcome } from './shell-command.js';

/** A line of the terminal or an `exec`, as the sandbox runs it. */
export interface ShellRunRequest {
	command: string;
	cwd: string;
	env?: Record<string, string>;
	timeoutMs: number;
	signal?: AbortSignal;
	/** The transaction's check (see ExecOptions.review); without it nothing is committed. */
	review?: (proposal: ChangeProposal) => Promise<void>;
}

/**
 * What a terminal session needs of its sandbox: one line run in the sandbox's command queue.
 * The session depends on this port, not on ShellSandbox, so the two files do not import each
 * other (ShellSandbox creates sessions and implements it).
 */
export interface ShellLineRunner {
	runShellLine(
		request: ShellRunRequest
	): Promise<ShellCommandOutcome & { cwd: string; cwdWasMissing: boolean }>;
}
