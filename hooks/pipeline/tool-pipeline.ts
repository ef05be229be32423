import type { ConversationEntryInput } from '../ledger/conversation-entry.js';
import type { ClassLedgerBirth, LedgerEvent } from '../ledger/ledger-event.js';
import type { ChangeProposal, FileChange } from '../tools/sandbox-ports.js';
import { runAgentCall } from './agent-call.js';
import { CachedFileHashes } from './cached-file-hashes.js';
import { recordConversation } from './conversation-records.js';
import type { GovernanceState } from './governance-state.js';
import type { HookRegistry } from './hook-registry.js';
import { Mutex } from './mutex.js';
import {
	recordAppliedChanges,
	recordHumanChanges,
	recordHumanEdit,
	setIntentProtection
} from './person-changes.js';
import { PipelineLedgerWriter } from './pipeline-ledger-writer.js';
import type { ToolPipelineOptions } from './pipeline-options.js';
import type { PipelineParts } from './pipeline-parts.js';
import type { ReviewedChanges } from './shell-transaction.js';
import { terminalReview } from './terminal-review.js';
import type { ToolCall } from './tool-call.js';
import type { ToolOutcome } from './tool-outcome.js';
import { loadHookPolicy, recordWorkspaceSnapshot } from './workspace-records.js';
import {
	recordScenarioLoad,
	recordStepCheck,
	type ScenarioIdentity,
	type StepCheckRecord
} from './scenario-records.js';

export type { ToolPipelineOptions } from './pipeline-options.js';

/**
 * One tool call end to end: validate → pre-hooks (deny > ask > allow, fail closed) → approval →
 * execute in the sandbox → trace records committed with the change → post-hooks → result.
 * Blocked calls are results (ToolError values), never exceptions.
 *
 * This class is the one door; each concept behind it has its own file: the agent's call
 * (`agent-call.ts`, `agent-approval.ts`, `agent-execution.ts`), the person's changes
 * (`person-changes.ts`, `terminal-review.ts`), the workspace's records (`workspace-records.ts`)
 * and the ledger writer (`pipeline-ledger-writer.ts`), all sharing one lock (`PipelineParts`).
 */
export class ToolPipeline {
	readonly registry: HookRegistry;
	readonly state: GovernanceState;
	private readonly parts: PipelineParts;

	constructor(options: ToolPipelineOptions) {
		this.registry = options.registry;
		this.state = options.state;
		const files = options.files ?? new CachedFileHashes(options.fs);
		this.parts = {
			options,
			state: options.state,
			registry: options.registry,
			files,
			mutex: new Mutex(),
			writer: new PipelineLedgerWriter(options, files)
		};
	}

	/** See workspace-records.ts: the starting workspace, so verify can tell unrecorded changes. */
	recordWorkspaceSnapshot(
		paths: string[],
		sessionId = 'workspace',
		extra: { links?: Record<string, string>; classLedger?: ClassLedgerBirth | null } = {}
	): Promise<void> {
		return recordWorkspaceSnapshot(this.parts, paths, sessionId, extra);
	}

	/** Loads `.orchestration/hooks.yaml` (`null`: none) and records the policy that now governs. */
	loadHookPolicy(text: string | null, by: 'workspace' | 'human' = 'workspace'): Promise<void> {
		return loadHookPolicy(this.parts, text, by);
	}

	/** Records which scenario the workspace is (scenario-records.ts), once per distinct identity. */
	recordScenarioLoad(identity: ScenarioIdentity): Promise<void> {
		return recordScenarioLoad(this.parts, identity);
	}

	/** Records a step's check result (scenario-records.ts): a step passed is evidence for grading. */
	recordStepCheck(check: StepCheckRecord): Promise<void> {
		return recordStepCheck(this.parts, check);
	}

	/** The agent's call (agent-call.ts). Never rejects: failures are `hook_failed` ToolErrors. */
	run(call: ToolCall, runOptions: { signal?: AbortSignal } = {}): Promise<ToolOutcome> {
		return runAgentCall(this.parts, call, runOptions);
	}

	/**
	 * Conversation entries (conversation-records.ts): the learner's messages, the model's texts and
	 * tool calls, the tool results it received. Secrets are redacted and large bodies cut there.
	 */
	recordConversation(
		entries: readonly (Omit<ConversationEntryInput, 'at'> & { at?: string })[]
	): Promise<LedgerEvent[]> {
		return recordConversation(this.parts, entries);
	}

	/** A person saved a file in the editor (person-changes.ts). */
	recordHumanEdit(edit: {
		path: string;
		content: string | Uint8Array | null;
		sessionId?: string;
	}): Promise<LedgerEvent[]> {
		return recordHumanEdit(this.parts, edit);
	}

	/** A person's change of many paths at once: a checkpoint restore, a step's solution. */
	recordHumanChanges(change: {
		files: readonly { path: string; content: Uint8Array | null }[];
		createFolders?: readonly string[];
		removeFolders?: readonly string[];
		tool: string;
		sessionId?: string;
	}): Promise<LedgerEvent[]> {
		return recordHumanChanges(this.parts, change);
	}

	/** Records changes a person's own shell command already made (attributed, not written). */
	recordAppliedChanges(
		changes: readonly FileChange[],
		options: { sessionId?: string; tool?: string } = {}
	): Promise<LedgerEvent[]> {
		return recordAppliedChanges(this.parts, changes, options);
	}

	/** The one act that changes which intents are protected (the intents panel's switch). */
	setIntentProtection(change: {
		intentId: string;
		protect: boolean;
		sessionId?: string;
	}): Promise<LedgerEvent[]> {
		return setIntentProtection(this.parts, change);
	}

	/** The review of a person's terminal line (terminal-review.ts); not under the lock. */
	terminalReview(
		options: { sessionId?: string; onReviewed?: (review: ReviewedChanges) => void } = {}
	): (proposal: ChangeProposal) => Promise<void> {
		return terminalReview(this.parts, options);
	}
}
