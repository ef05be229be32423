import type { NodeCommandLimits } from '../local/node-command.js';
import type {
	ShellCommandOutcome,
	ShellCommandRequest,
	StopReason
} from '../local/shell-command.js';
import type { ExecutionLimits } from '../local/shell-command-runner.js';
import type { WorkspaceEntryState } from '../local/workspace-entry-states.js';

/**
 * Messages between the page (WorkerShellHost) and the shell Worker (serveShellWorker). Everything
 * is structured-cloneable: bytes travel as Uint8Array, errors as sentences.
 */
export type ShellWorkerRequest =
	| {
			type: 'load';
			/** The whole workspace, parents first: the replica starts as this copy. */
			entries: WorkspaceEntryState[];
			limits?: ExecutionLimits;
			nodeLimits?: Partial<NodeCommandLimits>;
			/** Bytes one command may write into the workspace (ShellCommandRunnerOptions). */
			maxCommandWriteBytes?: number;
			/** The IndexedDB database of the workspace's git repository; in memory without one. */
			repositoryDatabase?: string;
	  }
	| {
			type: 'run';
			id: number;
			/** Paths written through `fs` since the previous command, as they are now. */
			sync: WorkspaceEntryState[];
			request: ShellCommandRequest;
	  }
	| { type: 'stop'; id: number; reason: StopReason };

export type ShellWorkerResponse =
	| {
			type: 'ready';
			commandNames: string[];
			/** HEAD's commit in the workspace's git repository when the Worker started. */
			repositoryRevision: string | null;
	  }
	| { type: 'load-failed'; message: string }
	| {
			type: 'result';
			id: number;
			/** `outcome.proposal`: the command's changes, uncommitted (the replica is unchanged). */
			outcome: ShellCommandOutcome;
	  }
	| { type: 'run-failed'; id: number; message: string };

/** The two ends, as narrow as a Worker, its global scope and a MessagePort all satisfy. */
export interface ShellWorkerEndpoint {
	postMessage(message: unknown): void;
	onmessage: ((event: MessageEvent) => void) | null;
}

export interface ShellWorkerHandle extends ShellWorkerEndpoint {
	onerror: ((event: ErrorEvent) => void) | null;
	terminate(): void;
}
