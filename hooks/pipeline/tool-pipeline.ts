import { toolError, type ToolError } from '../errors/tool-error.js';
import { contentHash } from '../hashing/sha256.js';
import { encodeText } from '../hashing/text-encoding.js';
import type { MutationClass } from '../ledger/agent-trace-record.js';
import type { ClassLedgerBirth, LedgerEvent, LedgerEventDraft } from '../ledger/ledger-event.js';
import { normalizeWorkspacePath } from '../paths/normalize-path.js';
import { intentProtectionTool } from '../intents/governed-intent-ignore.js';
import { withIntentProtection } from '../intents/intent-ignore.js';
import { governancePathKind, governancePathLabel } from '../paths/protected-paths.js';
import { executors } from '../tools/executors/executors.js';
import type { CommitWorkPort, ExecutionContext } from '../tools/executors/execution-context.js';
import type {
	ChangeProposal,
	CommandRunner,
	EntryChange,
	FileChange,
	SandboxCapabilities,
	SandboxFileSystem
} from '../tools/sandbox-ports.js';
import { riskOf } from '../tools/tool-catalog.js';
import type { AgentSession } from './agent-session.js';
import { buildTraceRecord, type TraceAuthor } from './build-trace-record.js';
import { CachedFileHashes } from './cached-file-hashes.js';
import type { ApprovalRequest } from './decision.js';
import {
	activeIntentsPath,
	agentNotesPath,
	intentIgnorePath,
	type GovernanceState
} from './governance-state.js';
import { HookRegistry } from './hook-registry.js';
import type { FileHashLookup, PreHookContext, ValidatedCall } from './hook-types.js';
import { Mutex } from './mutex.js';
import {
	fileChangesOfEntries,
	folderChangesOfEntries,
	personPathCheck,
	reviewEntryChanges,
	type ReviewedChanges
} from './shell-transaction.js';
import type {
	ApprovalAnswer,
	ApprovalPort,
	ApprovalPrompt,
	Clock,
	IdSource,
	LedgerPort,
	Scheduler
} from './ports.js';
import { validateToolCall } from './validate-tool-call.js';
import { hookPolicyPath } from '../policies/hook-policy-schema.js';
import { formatHookPolicyError } from '../policies/parse-hook-policy.js';
import { defaultHookTimeoutMs, runPreHooks } from './run-pre-hooks.js';
import { summarizeInput } from './summarize-input.js';
import type { ToolCall } from './tool-call.js';
import type { ToolOutcome } from './tool-outcome.js';

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

/** Tools whose executor only plans file changes; the pipeline commits them with their records. */
const plannedWriteTools = new Set(['write_to_file', 'apply_diff', 'delete_file']);

/**
 * One tool call end to end: validate → pre-hooks (deny > ask > allow, fail closed) → approval →
 * execute in the sandbox → trace records committed with the change → post-hooks → result.
 * Blocked calls are results (ToolError values), never exceptions.
 */
export class ToolPipeline {
	readonly registry: HookRegistry;
	readonly state: GovernanceState;
	private readonly files: FileHashLookup & { invalidate?(path: string): void };
	private readonly mutex = new Mutex();

	constructor(private readonly options: ToolPipelineOptions) {
		this.registry = options.registry;
		this.state = options.state;
		this.files = options.files ?? new CachedFileHashes(options.fs);
	}

	/**
	 * Records the starting workspace so verify can tell recorded changes from unrecorded ones.
	 * issue 7 (verify): `paths` should include `.orchestration/` and `.git/` (verify checks both);
	 * `links` (path → target) are the workspace's symbolic links, never followed; the starting
	 * text of `.orchestration/AGENT.md` goes in too, so verify can recompute AGENT.md.
	 */
	async recordWorkspaceSnapshot(
		paths: string[],
		sessionId = 'workspace',
		extra: { links?: Record<string, string>; classLedger?: ClassLedgerBirth | null } = {}
	): Promise<void> {
		const hashes: Record<string, string> = {};
		for (const path of [...paths].sort()) {
			const hash = await this.files.hashOf(path);
			if (hash !== null) hashes[path] = hash;
		}
		const texts: Record<string, string> = {};
		if ((await this.options.fs.stat(agentNotesPath))?.kind === 'file') {
			texts['AGENT.md'] = await this.options.fs.readTextFile(agentNotesPath);
		}
		const release = await this.mutex.lock();
		try {
			await this.options.ledger.append([
				{
					type: 'workspace-snapshot',
					session_id: sessionId,
					files: hashes,
					...(extra.links && Object.keys(extra.links).length ? { links: extra.links } : {}),
					texts,
					...(extra.classLedger ? { class_ledger: extra.classLedger } : {})
				}
			]);
		} finally {
			release();
		}
	}

	/**
	 * Loads the scenario's `.orchestration/hooks.yaml` (`null`: none) and records which policy now
	 * governs the session, with its hash, so a grader can tell. A broken policy fails closed.
	 */
	async loadHookPolicy(
		text: string | null,
		by: 'workspace' | 'human' = 'workspace'
	): Promise<void> {
		const release = await this.mutex.lock();
		try {
			const draft = await this.hookPolicyDraft(text, by);
			// A reload of the same workspace is not a new policy: record only what changed.
			const events = await this.options.ledger.events();
			const last = events.findLast((event) => event.type === 'hook-policy-load');
			const unchanged =
				last?.type === 'hook-policy-load'
					? last.policy_hash === draft.policy_hash
					: draft.policy_hash === null;
			if (!unchanged) await this.append([draft]);
		} finally {
			release();
		}
	}

	private async hookPolicyDraft(
		text: string | null,
		by: 'workspace' | 'human'
	): Promise<Extract<LedgerEventDraft, { type: 'hook-policy-load' }>> {
		const policy = this.state.hookPolicy;
		const loaded = policy.load(text);
		policy.hash = text === null ? null : await contentHash(text);
		return {
			type: 'hook-policy-load',
			session_id: 'workspace',
			path: hookPolicyPath,
			policy_hash: policy.hash,
			ok: loaded.ok,
			rules: policy.policy.rules.length,
			...(loaded.ok ? {} : { errors: loaded.errors.map(formatHookPolicyError) }),
			by
		};
	}

	/**
	 * Never rejects: an unexpected failure (the ledger cannot be written, a full storage quota)
	 * comes back as a `hook_failed` ToolError so the agent loop and the UI keep going.
	 */
	async run(call: ToolCall, runOptions: { signal?: AbortSignal } = {}): Promise<ToolOutcome> {
		try {
			return await this.runGoverned(call, runOptions);
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			// A refused path (a link on it, a parent that is a file) surfaces as late as the commit.
			const pathProblem = executorFailure(call.tool, error);
			if (pathProblem.code !== 'hook_failed') return { ok: false, error: pathProblem, changes: [] };
			return {
				ok: false,
				error: toolError(
					'hook_failed',
					`The call could not be governed or recorded (${message}).`,
					'Stop and tell the human: the workspace may be out of storage or in a bad state.'
				),
				changes: []
			};
		}
	}

	private async runGoverned(
		call: ToolCall,
		runOptions: { signal?: AbortSignal }
	): Promise<ToolOutcome> {
		const session = this.state.session(call.sessionId);
		const startDraft: LedgerEventDraft = {
			type: 'tool-call-start',
			session_id: session.id,
			tool: call.tool,
			tool_call_id: call.toolCallId,
			input: summarizeInput(call.input)
		};

		const validated = validateToolCall(call);
		if ('error' in validated) {
			await this.append([
				startDraft,
				this.decisionDraft(call, session, 'deny', ['invalid-input'], validated.error),
				this.finishDraft(call, session, { ok: false, error: validated.error, changes: [] })
			]);
			return { ok: false, error: validated.error, changes: [] };
		}
		const { validatedCall, targets, command } = validated;

		let release = await this.mutex.lock();
		try {
			const context: PreHookContext = {
				call: validatedCall,
				session,
				state: this.state,
				risk: riskOf(call.tool),
				targets,
				command,
				files: this.files
			};
			const verdict = await runPreHooks(
				this.registry.preHooksFor(call.tool, targets),
				context,
				this.options.scheduler
			);
			const drafts: LedgerEventDraft[] = [startDraft];
			for (const failure of verdict.failures) {
				drafts.push({
					type: 'hook-error',
					session_id: session.id,
					hook: failure.hook,
					tool: call.tool,
					tool_call_id: call.toolCallId,
					message: failure.message
				});
			}
			if (verdict.decision === 'deny' && verdict.denial) {
				return await this.denied(
					call,
					session,
					verdict.hooks,
					verdict.denial.decision.error,
					drafts
				);
			}
			drafts.push(
				this.decisionDraft(
					call,
					session,
					verdict.decision === 'ask' ? 'ask' : 'allow',
					verdict.hooks
				)
			);

			if (verdict.decision === 'ask') {
				drafts.push({
					type: 'approval-request',
					session_id: session.id,
					tool: call.tool,
					tool_call_id: call.toolCallId,
					hooks: verdict.asks.map((request) => request.hook),
					reasons: verdict.asks.flatMap((request) => request.reasons),
					intent_id: session.activeIntentId
				});
				// Persist what happened so far, then wait for the human without holding the lock.
				await this.append(drafts);
				drafts.length = 0;
				release();
				const answer = await this.askHuman(
					validatedCall,
					session,
					verdict.asks,
					context,
					runOptions.signal
				);
				release = await this.mutex.lock();
				if (answer.approved && answer.remember === 'intent' && session.activeIntentId) {
					session.approvedIntents.add(session.activeIntentId);
				}
				drafts.push({
					type: 'approval-response',
					session_id: session.id,
					tool: call.tool,
					tool_call_id: call.toolCallId,
					approved: answer.approved,
					...(answer.reason ? { reason: answer.reason } : {}),
					by: 'human',
					intent_id: session.activeIntentId
				});
				if (!answer.approved) {
					const error = toolError(
						'user_rejected',
						`The human rejected this ${call.tool} call${answer.reason ? `: ${answer.reason}` : '.'}`,
						answer.reason
							? 'Adjust your plan to the human’s reason before trying again.'
							: 'Ask the human what they expect before trying again.'
					);
					const outcome: ToolOutcome = { ok: false, error, changes: [] };
					drafts.push(this.finishDraft(call, session, outcome));
					await this.append(drafts);
					return outcome;
				}
				// The world may have moved while the human looked (another session, a human edit): check again.
				const recheck = await runPreHooks(
					this.registry.preHooksFor(call.tool, targets),
					context,
					this.options.scheduler
				);
				if (recheck.decision === 'deny' && recheck.denial) {
					return await this.denied(
						call,
						session,
						recheck.hooks,
						recheck.denial.decision.error,
						drafts
					);
				}
			}
			return await this.execute(validatedCall, session, targets, drafts, runOptions.signal);
		} finally {
			release();
		}
	}

	/**
	 * A person saved a file in the editor: recorded with contributor `human`, like any change.
	 * Of the governance paths only `.orchestration/` itself, spelled exactly, may be saved (the
	 * intents editor, the hook policy): `.git/` never, and `.intentignore` never, because which
	 * intents are protected changes only with setIntentProtection (the intents panel's switch),
	 * never as a side effect of a save.
	 */
	async recordHumanEdit(edit: {
		path: string;
		content: string | Uint8Array | null;
		sessionId?: string;
	}): Promise<LedgerEvent[]> {
		const normalised = normalizeWorkspacePath(edit.path);
		if (!normalised.ok) throw new Error(`Cannot save ${edit.path}: ${normalised.reason}`);
		const path = normalised.path;
		const kind = governancePathKind(path);
		if (kind && !(kind === 'orchestration' && path.startsWith('.orchestration/')))
			throw new Error(
				kind === 'intentignore'
					? `Cannot save ${path}: which intents are protected changes only with the Protected switch in the intents panel.`
					: `Cannot save ${path}: ${governancePathLabel(kind)} changes only through governance.`
			);
		const release = await this.mutex.lock();
		try {
			const stat = await this.options.fs.stat(path);
			const before = stat?.kind === 'file' ? await this.options.fs.readFile(path) : null;
			const after =
				edit.content === null
					? null
					: typeof edit.content === 'string'
						? encodeText(edit.content)
						: edit.content;
			if (before === null && after === null) return [];
			const change: FileChange = {
				path,
				type: after === null ? 'deleted' : before === null ? 'created' : 'modified',
				before,
				after
			};
			const author: TraceAuthor = {
				sessionId: edit.sessionId ?? 'human',
				contributor: 'human',
				intentId: null,
				tool: 'editor',
				toolCallId: null,
				declaredClass: null
			};
			const record = await this.traceDraft(change, author);
			const events = await this.commit([change], [record]);
			this.followGovernanceFile(path, after);
			if (path === hookPolicyPath)
				events.push(...(await this.append([await this.hookPolicyDraft(textOf(after), 'human')])));
			return events;
		} finally {
			release();
		}
	}

	/**
	 * A person's change of many paths at once (a checkpoint restore): the files are written or
	 * deleted and recorded (contributor `human`, `tool`) in one commit, folders made in the same
	 * step; folders to remove go in a second recorded step once the files inside are gone (only
	 * when empty then). Governance paths (`.orchestration/`, `.git/`, `.intentignore`, in any folded
	 * spelling) are refused before anything is written: a restore or a step solution never changes
	 * governance. Files that already hold what is asked are left alone. Returns the events recorded.
	 */
	async recordHumanChanges(change: {
		files: readonly { path: string; content: Uint8Array | null }[];
		createFolders?: readonly string[];
		removeFolders?: readonly string[];
		tool: string;
		sessionId?: string;
	}): Promise<LedgerEvent[]> {
		const checked = (raw: string): string => {
			const normalised = normalizeWorkspacePath(raw);
			if (!normalised.ok) throw new Error(`Cannot change ${raw}: ${normalised.reason}`);
			const kind = governancePathKind(normalised.path);
			if (kind)
				throw new Error(
					`Cannot change ${normalised.path}: ${governancePathLabel(kind)} changes only through governance.`
				);
			return normalised.path;
		};
		const files = change.files.map((file) => ({ ...file, path: checked(file.path) }));
		const createFolders = (change.createFolders ?? []).map(checked);
		const removeFolders = (change.removeFolders ?? []).map(checked);
		const author: TraceAuthor = {
			sessionId: change.sessionId ?? 'human',
			contributor: 'human',
			intentId: null,
			tool: change.tool,
			toolCallId: null,
			declaredClass: null
		};
		const folderDraft = (path: string, kind: 'created' | 'deleted'): LedgerEventDraft => ({
			type: 'folder-change',
			session_id: author.sessionId,
			tool: change.tool,
			tool_call_id: null,
			path,
			change: kind,
			contributor: 'human',
			intent_id: null
		});
		const fs = this.options.fs;
		const release = await this.mutex.lock();
		try {
			const writes: FileChange[] = [];
			const drafts: LedgerEventDraft[] = [];
			const madeFolders: string[] = [];
			for (const folder of createFolders) {
				if ((await fs.stat(folder))?.kind === 'directory') continue;
				madeFolders.push(folder);
				drafts.push(folderDraft(folder, 'created'));
			}
			// Read and recorded side by side: a restore may touch a thousand files, and most of a
			// record's time is spent waiting for hashes.
			const befores = await Promise.all(
				files.map(async (file) =>
					(await fs.stat(file.path))?.kind === 'file' ? fs.readFile(file.path) : null
				)
			);
			files.forEach((file, index) => {
				const before = befores[index] ?? null;
				if (before === null && file.content === null) return;
				if (before && file.content && sameBytes(before, file.content)) return;
				writes.push({
					path: file.path,
					type: file.content === null ? 'deleted' : before === null ? 'created' : 'modified',
					before,
					after: file.content
				});
			});
			drafts.push(...(await Promise.all(writes.map((write) => this.traceDraft(write, author)))));
			const events =
				drafts.length > 0
					? await this.commit(
							writes,
							drafts,
							madeFolders.length > 0
								? async () => {
										for (const folder of madeFolders) await fs.mkdir(folder, { recursive: true });
									}
								: undefined
						)
					: [];
			for (const write of writes) this.followGovernanceFile(write.path, write.after);
			const emptied: string[] = [];
			for (const folder of removeFolders) {
				if ((await fs.stat(folder))?.kind !== 'directory') continue;
				const inside = await fs.readdir(folder);
				if (inside.some((entry) => !emptied.includes(`${folder}/${entry.name}`))) continue;
				emptied.push(folder);
			}
			if (emptied.length > 0)
				events.push(
					...(await this.commit(
						[],
						emptied.map((folder) => folderDraft(folder, 'deleted')),
						async () => {
							for (const folder of emptied) await fs.rm(folder, { recursive: true });
						}
					))
				);
			return events;
		} finally {
			release();
		}
	}

	/**
	 * Records changes a person's own shell command already made (the IDE's terminal): the files
	 * are not written again, only attributed (contributor `human`, tool `terminal`), so verify can
	 * account for every file.
	 */
	async recordAppliedChanges(
		changes: readonly FileChange[],
		options: { sessionId?: string; tool?: string } = {}
	): Promise<LedgerEvent[]> {
		if (changes.length === 0) return [];
		const release = await this.mutex.lock();
		try {
			const author: TraceAuthor = {
				sessionId: options.sessionId ?? 'human',
				contributor: 'human',
				intentId: null,
				tool: options.tool ?? 'terminal',
				toolCallId: null,
				declaredClass: null
			};
			const drafts: LedgerEventDraft[] = [];
			for (const change of changes) {
				this.files.invalidate?.(change.path);
				drafts.push(await this.traceDraft(change, author));
			}
			const events = await this.append(drafts);
			for (const change of changes) {
				this.followGovernanceFile(change.path, change.after);
				if (change.path === hookPolicyPath)
					events.push(
						...(await this.append([await this.hookPolicyDraft(textOf(change.after), 'human')]))
					);
			}
			return events;
		} finally {
			release();
		}
	}

	/**
	 * A person may edit the intents in the intents editor: governance follows at once. Invalid
	 * YAML keeps the last valid intents in force (see GovernanceState.reloadIntents). Protection
	 * is not followed here: every writer refuses `.intentignore`, and the protected set changes
	 * only with setIntentProtection, so no recorded write can change it as a side effect.
	 */
	private followGovernanceFile(path: string, content: Uint8Array | null): void {
		if (path === activeIntentsPath && content !== null)
			this.state.reloadIntents(new TextDecoder().decode(content));
	}

	/**
	 * The one act that changes which intents are protected: the person's Protected switch in the
	 * intents panel (after their confirmation). `.intentignore` gets or loses the intent's line,
	 * recorded as a `human` change with tool `intent-protection` (the version a reload derives
	 * protection from: governedIntentIgnoreHash), and the governance state follows at once.
	 * Returns the events recorded (none when the intent already was as asked).
	 */
	async setIntentProtection(change: {
		intentId: string;
		protect: boolean;
		sessionId?: string;
	}): Promise<LedgerEvent[]> {
		const { intentId, protect } = change;
		if (!this.state.intent(intentId))
			throw new Error(`${intentId} is not an intent of ${activeIntentsPath}.`);
		if (/[\s#]/.test(intentId))
			throw new Error(`${JSON.stringify(intentId)} cannot be listed in ${intentIgnorePath}.`);
		const fs = this.options.fs;
		const release = await this.mutex.lock();
		try {
			const before =
				(await fs.stat(intentIgnorePath))?.kind === 'file'
					? await fs.readFile(intentIgnorePath)
					: null;
			// Exactly one intent changes: the ones protected now stay listed, even when the file
			// lost them outside governance (protection follows the recorded version, not the file).
			let text = withIntentProtection(textOf(before) ?? '', intentId, protect);
			for (const kept of this.state.protectedIntentIds)
				if (kept !== intentId) text = withIntentProtection(text, kept, true);
			const after = encodeText(text);
			if (before && sameBytes(before, after)) {
				this.state.reloadIntentIgnore(text);
				return [];
			}
			const write: FileChange = {
				path: intentIgnorePath,
				type: before === null ? 'created' : 'modified',
				before,
				after
			};
			const record = await this.traceDraft(write, {
				sessionId: change.sessionId ?? 'human',
				contributor: 'human',
				intentId: null,
				tool: intentProtectionTool,
				toolCallId: null,
				declaredClass: null
			});
			const events = await this.commit([write], [record]);
			this.state.reloadIntentIgnore(text);
			return events;
		} finally {
			release();
		}
	}

	/** Records a deny (decision and finish events) and returns it as the call's outcome. */
	private async denied(
		call: ToolCall,
		session: AgentSession,
		hooks: string[],
		error: ToolError,
		drafts: LedgerEventDraft[]
	): Promise<ToolOutcome> {
		const outcome: ToolOutcome = { ok: false, error, changes: [] };
		drafts.push(this.decisionDraft(call, session, 'deny', hooks, error));
		drafts.push(this.finishDraft(call, session, outcome));
		await this.append(drafts);
		return outcome;
	}

	private async askHuman(
		call: ValidatedCall,
		session: AgentSession,
		asks: ApprovalRequest[],
		context: PreHookContext,
		signal?: AbortSignal
	): Promise<ApprovalAnswer> {
		if (signal?.aborted) return { approved: false, reason: 'The session was stopped.' };
		const prompt: ApprovalPrompt = {
			hook: asks.map((request) => request.hook).join(', '),
			reasons: asks.flatMap((request) => request.reasons),
			intentId: session.activeIntentId ?? asks.find((request) => request.intentId)?.intentId,
			sessionId: session.id,
			tool: call.tool,
			toolCallId: call.toolCallId,
			input: call.input
		};
		if (plannedWriteTools.has(call.tool)) {
			prompt.preview = await this.previewOf(call, session, context);
		}
		if (context.command) {
			prompt.command = {
				command: String(call.input.command),
				cwd: context.command.cwd || '.',
				classification: context.command.level,
				reasons: context.command.reasons,
				writes: [...context.targets],
				writesUnknown: context.command.writesUnknown
			};
			const intentId = session.activeIntentId;
			const scope = intentId ? this.state.scope.patternsOf(intentId) : null;
			if (scope) prompt.command.scope = [...scope];
		}
		try {
			return await this.options.approvals.request(prompt);
		} catch (error) {
			// No answer is a no: the approval port failing must not let the call through.
			return {
				approved: false,
				reason: `approval could not be obtained (${error instanceof Error ? error.message : String(error)})`
			};
		}
	}

	/** Runs the executor in dry-run fashion to show the human the exact before/after. */
	private async previewOf(call: ValidatedCall, session: AgentSession, context: PreHookContext) {
		const planned = await executors[call.tool](
			this.executionContext(call, session, context.targets, () => undefined)
		);
		const decoder = new TextDecoder();
		return planned.changes.map((change) => ({
			path: change.path,
			before: change.before ? decoder.decode(change.before) : null,
			after: change.after ? decoder.decode(change.after) : null
		}));
	}

	private executionContext(
		call: ValidatedCall,
		session: AgentSession,
		targets: string[],
		emit: (draft: LedgerEventDraft) => void,
		signal?: AbortSignal,
		committed: LedgerEvent[] = []
	): ExecutionContext {
		return {
			call,
			session,
			state: this.state,
			fs: this.options.fs,
			runner: this.options.runner,
			capabilities: this.options.capabilities,
			nowMs: () => this.options.clock.nowMs(),
			targets,
			emit,
			signal,
			...(this.options.commitWork ? { commitWork: this.options.commitWork } : {}),
			commitShellChanges: async (entries, drafts, apply) => {
				const author = this.agentAuthor(call, session);
				const records = await this.transactionDrafts(entries, author, call.toolCallId);
				committed.push(...(await this.commit([], [...drafts, ...records], apply)));
				for (const change of fileChangesOfEntries(entries))
					this.followGovernanceFile(change.path, change.after);
			},
			history: async () => {
				const events = await this.options.ledger.events();
				const trace = [];
				const lessons = [];
				for (const event of events) {
					if (event.type === 'mutation-record') trace.push(event.trace);
					else if (event.type === 'lesson-record')
						lessons.push({
							intent_id: event.intent_id,
							lesson: event.lesson,
							category: event.category
						});
				}
				return { trace, lessons };
			}
		};
	}

	private async execute(
		call: ValidatedCall,
		session: AgentSession,
		targets: string[],
		drafts: LedgerEventDraft[],
		signal?: AbortSignal
	): Promise<ToolOutcome> {
		const emitted: LedgerEventDraft[] = [];
		const executorCommitted: LedgerEvent[] = [];
		let outcome: ToolOutcome;
		try {
			outcome = await executors[call.tool](
				this.executionContext(
					call,
					session,
					targets,
					(draft) => emitted.push(draft),
					signal,
					executorCommitted
				)
			);
		} catch (error) {
			outcome = { ok: false, error: executorFailure(call.tool, error), changes: [] };
		}
		const author = this.agentAuthor(call, session);
		const records: LedgerEventDraft[] = [];
		if (!outcome.changesRecorded)
			for (const change of outcome.changes) records.push(await this.traceDraft(change, author));
		const writes = plannedWriteTools.has(call.tool) && outcome.ok ? outcome.changes : [];
		for (const draft of emitted) drafts.push(draft);
		for (const record of records) drafts.push(record);
		for (const draft of emitted)
			if (draft.type === 'change-revert') this.files.invalidate?.(draft.path);
		const committed = [...executorCommitted, ...(await this.commit(writes, drafts))];

		// The session has seen what it wrote: its own writes never make its next write stale.
		for (const change of outcome.changes) {
			if (change.after === null) session.readBaselines.delete(change.path);
			else session.readBaselines.set(change.path, await contentHash(change.after));
		}

		const postDrafts: LedgerEventDraft[] = [];
		let checkFailure: ToolError | null = null;
		for (const hook of this.registry.postHooksFor(call.tool, targets)) {
			try {
				await this.withTimeout(
					hook.name,
					hook.timeoutMs ?? defaultHookTimeoutMs,
					hook.run({
						call,
						session,
						state: this.state,
						outcome,
						fs: this.options.fs,
						callEvents: committed,
						allEvents: () => this.options.ledger.events(),
						emit: (draft) => postDrafts.push(draft),
						nowIso: () => this.options.clock.nowIso(),
						runner: this.options.runner,
						consentToCheck: (command) => {
							const consent = this.options.checkConsent;
							return consent
								? Promise.resolve()
										.then(() => consent(command))
										.then((answer) => answer === true)
										.catch(() => false)
								: Promise.resolve(true);
						},
						signal,
						fail: (error) => {
							checkFailure ??= error;
						}
					})
				);
			} catch (error) {
				// Post-hooks never change the result; their failure is recorded for the grader.
				postDrafts.push({
					type: 'hook-error',
					session_id: session.id,
					hook: hook.name,
					tool: call.tool,
					tool_call_id: call.toolCallId,
					message: error instanceof Error ? error.message : String(error)
				});
			}
		}
		// A failed post-write check (a scenario `run` rule) goes back to the agent as its ToolError.
		if (checkFailure && outcome.ok)
			outcome = { ok: false, error: checkFailure, changes: outcome.changes };
		postDrafts.push(this.finishDraft(call, session, outcome));
		await this.append(postDrafts);
		return outcome;
	}

	/** A post-hook that never settles must not hold the call (and the lock) forever. */
	private async withTimeout(
		name: string,
		timeoutMs: number,
		work: void | Promise<void>
	): Promise<void> {
		if (!(work instanceof Promise)) return;
		const controller = new AbortController();
		const timeout = this.options.scheduler.delay(timeoutMs, controller.signal).then(() => {
			throw new Error(`${name} timed out after ${timeoutMs} ms`);
		});
		try {
			await Promise.race([work, timeout]);
		} finally {
			controller.abort();
			timeout.catch(() => undefined);
		}
	}

	private async traceDraft(change: FileChange, author: TraceAuthor): Promise<LedgerEventDraft> {
		const trace = await buildTraceRecord({
			change,
			author,
			id: this.options.ids.uuid(),
			timestamp: this.options.clock.nowIso(),
			toolVersion: this.options.toolVersion,
			revision: this.options.vcsRevision?.() ?? null
		});
		return { type: 'mutation-record', session_id: author.sessionId, trace };
	}

	private async commit(
		writes: FileChange[],
		drafts: LedgerEventDraft[],
		apply?: () => Promise<void>
	): Promise<LedgerEvent[]> {
		for (const write of writes) this.files.invalidate?.(write.path);
		for (const draft of drafts) {
			if (draft.type === 'mutation-record')
				this.files.invalidate?.(draft.trace.files[0]?.path ?? '');
		}
		if (this.options.commit) {
			// Only a shell transaction passes `apply`; other callers keep the two-argument port.
			return apply
				? this.options.commit(writes, drafts, apply)
				: this.options.commit(writes, drafts);
		}
		// In memory (tests, CLI): apply first, so a refused apply leaves the ledger untouched.
		if (apply) await apply();
		for (const write of writes) {
			if (write.after === null) await this.options.fs.rm(write.path);
			else await this.options.fs.writeFile(write.path, write.after);
		}
		return drafts.length ? this.options.ledger.append(drafts) : [];
	}

	private agentAuthor(call: ValidatedCall, session: AgentSession): TraceAuthor {
		return {
			sessionId: session.id,
			contributor: 'ai',
			modelId: session.modelId,
			intentId: session.activeIntentId,
			tool: call.tool,
			toolCallId: call.toolCallId,
			declaredClass: (call.input.mutation_class as MutationClass | undefined) ?? null
		};
	}

	/** The ledger records of a shell transaction's committed entries: files and folders. */
	private async transactionDrafts(
		entries: readonly EntryChange[],
		author: TraceAuthor,
		toolCallId: string | null
	): Promise<LedgerEventDraft[]> {
		const drafts: LedgerEventDraft[] = [];
		for (const folder of folderChangesOfEntries(entries)) {
			drafts.push({
				type: 'folder-change',
				session_id: author.sessionId,
				tool: author.tool,
				tool_call_id: toolCallId,
				path: folder.path,
				change: folder.change,
				contributor: author.contributor,
				intent_id: author.intentId
			});
		}
		for (const change of fileChangesOfEntries(entries)) {
			this.files.invalidate?.(change.path);
			drafts.push(await this.traceDraft(change, author));
		}
		return drafts;
	}

	/**
	 * The review of a person's terminal line (pass it as the line's `review`): the same
	 * transaction as an agent's command, but without a scope rule. Governance paths
	 * (`.orchestration/`, `.git/`, `.intentignore`: personPathCheck), links and names the core
	 * cannot govern are refused, whatever wrote them (the line, an npm script, git); everything else is committed together with
	 * its records (contributor \`human\`, tool \`terminal\`) in one step.
	 *
	 * Deliberately not under the pipeline's lock: the sandbox runs this while it holds its own
	 * command queue, and an agent's call may hold the lock while waiting for that queue.
	 */
	terminalReview(
		options: { sessionId?: string; onReviewed?: (review: ReviewedChanges) => void } = {}
	): (proposal: ChangeProposal) => Promise<void> {
		return async (proposal) => {
			const review = reviewEntryChanges(proposal.entries, personPathCheck);
			const author: TraceAuthor = {
				sessionId: options.sessionId ?? 'human',
				contributor: 'human',
				intentId: null,
				tool: 'terminal',
				toolCallId: null,
				declaredClass: null
			};
			const drafts: LedgerEventDraft[] = review.refused.map(({ entry, error }) => ({
				type: 'change-revert',
				session_id: author.sessionId,
				tool: 'terminal',
				tool_call_id: 'terminal',
				path: entry.path,
				code: error.code
			}));
			drafts.push(...(await this.transactionDrafts(review.allowed, author, null)));
			const paths = review.allowed.map((entry) => entry.path);
			if (drafts.length > 0 || paths.length > 0)
				await this.commit([], drafts, () => proposal.commit(paths));
			for (const change of fileChangesOfEntries(review.allowed))
				this.followGovernanceFile(change.path, change.after);
			options.onReviewed?.(review);
		};
	}

	private append(drafts: LedgerEventDraft[]): Promise<LedgerEvent[]> {
		return drafts.length ? this.options.ledger.append(drafts) : Promise.resolve([]);
	}

	private decisionDraft(
		call: ToolCall,
		session: AgentSession,
		decision: 'allow' | 'deny' | 'ask',
		hooks: string[],
		error?: ToolError
	): LedgerEventDraft {
		return {
			type: 'tool-decision',
			session_id: session.id,
			tool: call.tool,
			tool_call_id: call.toolCallId,
			decision,
			hooks,
			...(error ? { code: error.code, message: error.message } : {}),
			intent_id: session.activeIntentId
		};
	}

	private finishDraft(
		call: ToolCall,
		session: AgentSession,
		outcome: ToolOutcome
	): LedgerEventDraft {
		return {
			type: 'tool-call-finish',
			session_id: session.id,
			tool: call.tool,
			tool_call_id: call.toolCallId,
			ok: outcome.ok,
			...(outcome.ok ? {} : { code: outcome.error.code }),
			intent_id: session.activeIntentId
		};
	}
}

/**
 * What an executor's exception means for the model. Filesystem refusals carry an errno `code`
 * (and messages in workspace paths, never host paths): a path through a symbolic link is a
 * protected path (links are never followed, they could lead into .git/ or .orchestration/); a
 * parent that is a file, a missing parent or an over-long name is the caller's invalid input.
 * Anything else is an unexpected failure.
 */
function executorFailure(tool: string, error: unknown): ToolError {
	const code = (error as { code?: unknown } | null)?.code;
	const message = error instanceof Error ? error.message : String(error);
	if (code === 'EACCES' && /link/i.test(message)) {
		return toolError(
			'protected_path',
			`${tool} was refused: ${message}.`,
			'Use the real path of the file, inside your owned_scope; links are never followed.'
		);
	}
	if (
		code === 'ENOTDIR' ||
		code === 'ENAMETOOLONG' ||
		code === 'EINVAL' ||
		code === 'EISDIR' ||
		code === 'ENOENT'
	) {
		return toolError(
			'invalid_input',
			`${tool}: ${message}.`,
			'Check the path: every parent must be a folder, and names must be reasonably short.'
		);
	}
	return toolError(
		'hook_failed',
		`${tool} failed unexpectedly: ${message}`,
		'Retry once; if it fails again, tell the human.'
	);
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
	if (left.byteLength !== right.byteLength) return false;
	for (let index = 0; index < left.byteLength; index++)
		if (left[index] !== right[index]) return false;
	return true;
}

function textOf(content: Uint8Array | null): string | null {
	return content === null ? null : new TextDecoder().decode(content);
}
