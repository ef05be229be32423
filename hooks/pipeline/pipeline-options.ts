import type { LedgerEvent, LedgerEventDraft } from '../ledger/ledger-event.js';
import type { CommitWorkPort } from '../tools/executors/execution-context.js';
import type {
	CommandRunner,
	FileChange,
	SandboxCapabilities,
	SandboxFileSystem
} from '../tools/sandbox-ports.js';
import type { GovernanceState } from './governance-state.js';
import type { HookRegistry } from './hook-registry.js';
import type { FileHashLookup } from './hook-types.js';
import type { ApprovalPort, Clock, IdSource, LedgerPort, Scheduler } from './ports.js';

export interface ToolPipelineOptions {
	state: GovernanceState;
	fs: SandboxFileSystem;
	runner: CommandRunner;
	capabilities: SandboxCapabilities;
	ledger: LedgerPort;
	approvals: ApprovalPort;
	clock: Clock;
	scheduler: Scheduler;
	ids: IdSource;
	toolVersion: string;
	registry: HookRegistry;
	/**
	 * Asked before a scenario's hook-policy `run` rule runs its command. Absent means the scenario
	 * is trusted (a built-in one, or the folder a grader pointed the CLI at); the IDE asks the
	 * person for scenarios from a URL or a share link, whose checks must not run by themselves.
	 * A refusal, or a consent that fails, fails the check closed.
	 */
	checkConsent?: (command: string) => Promise<boolean>;
	files?: FileHashLookup & { invalidate?(path: string): void };
	/**
	 * The git commit the workspace's HEAD names now (Sandbox.vcsRevision), null when there is
	 * none: trace records carry it as Agent Trace's `vcs`.
	 */
	vcsRevision?: () => string | null;
	/** complete_intent commits the working tree through this (see CommitWorkPort). */
	commitWork?: CommitWorkPort;
	/**
	 * Writes planned file changes and appends their ledger events as one unit. The default writes
	 * then appends; the browser passes one IndexedDB transaction so files and ledger always agree.
	 */
	commit?: (
		writes: FileChange[],
		drafts: LedgerEventDraft[],
		/** A shell transaction's commit, run inside the same step (before the writes). */
		apply?: () => Promise<void>
	) => Promise<LedgerEvent[]>;
}
