import type { CommandClassification } from '../commands/classify-command.js';
import type { ToolName, ToolRisk } from '../tools/tool-catalog.js';
import type { CommandRunner, SandboxFileSystem } from '../tools/sandbox-ports.js';
import type { ToolError } from '../errors/tool-error.js';
import type { LedgerEvent, LedgerEventDraft } from '../ledger/ledger-event.js';
import type { AgentSession } from './agent-session.js';
import type { Decision } from './decision.js';
import type { GovernanceState } from './governance-state.js';
import type { ToolOutcome } from './tool-outcome.js';

/** A validated call: the tool is known and its input passed the schema. */
export interface ValidatedCall {
	sessionId: string;
	toolCallId: string;
	tool: ToolName;
	input: Record<string, unknown>;
}

export interface FileHashLookup {
	/** `sha256:<hex>` of the file's current content; `null` when it does not exist. */
	hashOf(path: string): Promise<string | null>;
}

export interface PreHookContext {
	call: ValidatedCall;
	session: AgentSession;
	state: GovernanceState;
	risk: ToolRisk;
	/** Normalised workspace paths the call will change (empty for reads and meta tools). */
	targets: string[];
	/** For execute_command: how the command was classified. */
	command?: CommandClassification & { cwd: string };
	files: FileHashLookup;
}

export interface HookMatcher {
	/** Run only for these tools. */
	tools?: readonly string[];
	/** Run only when a target path matches one of these globs. */
	paths?: readonly string[];
}

export interface PreHook {
	name: string;
	/** Lower runs first. */
	priority: number;
	matcher?: HookMatcher;
	/** Milliseconds before the hook is treated as failed (fail closed). */
	timeoutMs?: number;
	run(context: PreHookContext): Decision | Promise<Decision>;
}

export interface PostHookContext {
	call: ValidatedCall;
	session: AgentSession;
	state: GovernanceState;
	outcome: ToolOutcome;
	/** For writing system files such as `.orchestration/AGENT.md` (never reachable by agent tools). */
	fs: SandboxFileSystem;
	/** Ledger events this call has recorded so far (decision, mutations, lessons …). */
	callEvents: readonly LedgerEvent[];
	/** The whole ledger, for hooks that render from history (e.g. intent_map.md). */
	allEvents(): Promise<readonly LedgerEvent[]>;
	/** Recorded after the post-hooks, in one append with the call's finish event. */
	emit(draft: LedgerEventDraft): void;
	nowIso(): string;
	/** For post-write checks (a scenario's `run` rules); never for changing files. */
	runner: CommandRunner;
	/**
	 * Whether a scenario's `run` check may run this command (see ToolPipelineOptions.checkConsent);
	 * absent in contexts that only trusted scenarios reach.
	 */
	consentToCheck?: (command: string) => Promise<boolean>;
	signal?: AbortSignal;
	/**
	 * The one way a post-hook affects the result: a post-write check that failed turns the call's
	 * outcome into this ToolError (the write itself stays committed and recorded).
	 */
	fail(error: ToolError): void;
}

export interface PostHook {
	name: string;
	priority: number;
	matcher?: HookMatcher;
	timeoutMs?: number;
	run(context: PostHookContext): void | Promise<void>;
}
