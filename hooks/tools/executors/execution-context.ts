import type { AgentSession } from '../../pipeline/agent-session.js';
import type { GovernanceState } from '../../pipeline/governance-state.js';
import type { ValidatedCall } from '../../pipeline/hook-types.js';
import type { LedgerEventDraft } from '../../ledger/ledger-event.js';
import type {
	CommandRunner,
	EntryChange,
	SandboxCapabilities,
	SandboxFileSystem
} from '../sandbox-ports.js';
import type { ToolOutcome } from '../../pipeline/tool-outcome.js';
import type { AgentTraceRecord } from '../../ledger/agent-trace-record.js';

/** What an executor may use. Executors of file tools only PLAN changes; the pipeline commits them. */
export interface ExecutionContext {
	call: ValidatedCall;
	session: AgentSession;
	state: GovernanceState;
	fs: SandboxFileSystem;
	runner: CommandRunner;
	capabilities: SandboxCapabilities;
	/** Monotonic milliseconds (the pipeline's clock): time limits that span several commands. */
	nowMs?: () => number;
	/** Normalised paths the call changes (same as the pre-hooks saw). */
	targets: string[];
	emit(draft: LedgerEventDraft): void;
	/**
	 * Commits a shell transaction: the ledger records of `entries` (trace records for files,
	 * folder-change events) plus `drafts`, with `apply` (which puts the entries in the workspace)
	 * run inside the same commit step. When `apply` fails nothing is recorded.
	 */
	commitShellChanges(
		entries: readonly EntryChange[],
		drafts: LedgerEventDraft[],
		apply: () => Promise<void>
	): Promise<void>;
	/** Trace records and lessons so far, for `<intent_context>`. */
	history(): Promise<{
		trace: AgentTraceRecord[];
		lessons: { intent_id: string | null; lesson: string; category: string }[];
	}>;
	signal?: AbortSignal;
	/**
	 * Commits the working tree to the workspace's git repository (the scenario's
	 * `git.commit_on_complete`); absent when the scenario does not ask for it.
	 */
	commitWork?: CommitWorkPort;
}

/** What complete_intent asks of the sandbox's git, and what it answers. */
export type CommitWorkPort = (request: {
	message: string;
	author: { name: string; email: string };
}) => Promise<{ revision: string | null; committed: boolean; problem?: string }>;

export type Executor = (context: ExecutionContext) => Promise<ToolOutcome>;
