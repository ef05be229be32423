import type { ScenarioIdentity } from '../../../hooks/pipeline/scenario-records.js';
import type { CommitWorkPort } from '../../../hooks/tools/executors/execution-context.js';
import { checkIntentCriteria, type IntentCheck } from '../../../hooks/intents/check-criteria.js';
import { criteriaDeadline } from '../../../hooks/intents/criteria-bounds.js';
import type { LanguageModel } from 'ai';
import { buildIntentContext } from '../../../hooks/context/intent-context.js';
import { buildSystemPrompt } from '../../../hooks/context/system-prompt.js';
import type { ClassLedgerBirth, LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type { VerifyReport } from '../../../hooks/ledger/verify.js';
import { verifyInWorker, type VerifyInWorkerOptions } from '../ledger/verify-in-worker.js';
import { exportInWorker } from '../ledger/export-in-worker.js';
import type { IntentsError } from '../../../hooks/intents/parse-intents.js';
import { createToolPipeline } from '../../../hooks/pipeline/create-tool-pipeline.js';
import {
	activeIntentsPath,
	GovernanceState,
	intentIgnorePath
} from '../../../hooks/pipeline/governance-state.js';
import type { ToolPipeline } from '../../../hooks/pipeline/tool-pipeline.js';
import { protectedIntentsAtOpen } from '../../../hooks/intents/governed-intent-ignore.js';
import { appDialogs } from '../dialogs/app-dialogs.svelte.js';
import { hookPolicyPath } from '../../../hooks/policies/hook-policy-schema.js';
import type {
	SandboxCapabilities,
	SandboxFileSystem,
	CommandRunner
} from '../../../hooks/tools/sandbox-ports.js';
import type { ApprovalPolicy } from '../../../hooks/pipeline/approval-policy.js';
import type { ReplayScript } from '../../../hooks/replay/replay-script.js';
import { parseReplayScript } from '../../../hooks/replay/replay-script.js';
import { createDemoLanguageModel } from '../agent/demo-language-model.js';
import { demoSessionsOf } from '../agent/demo-script-plan.js';
import {
	forgetKey,
	loadSettings,
	modelIdOf,
	saveSettings,
	type ProviderSettings
} from '../agent/provider-settings.js';
import type { AgentUIMessage } from '../agent/agent-tools.js';
import { ApprovalQueue } from '../governance-ui/approval-queue.svelte.js';
import type { IndexedDbLedger } from '../ledger/indexeddb-ledger.js';
import {
	orchestrationZip,
	orchestrationZipEntries,
	traceJsonl
} from '../ledger/export-orchestration.js';
import { downloadBytes } from '../workspace/file-transfer.js';
import { AgentChat } from './agent-chat.svelte.js';
import { browserPorts } from './browser-ports.js';
import { importedExportKey, isImportedExportRecord } from '../ide/imported-export-record.js';
import {
	interruptedFinishDrafts,
	ledgerCallStates,
	planSessionRecovery,
	restoreIntentLocks,
	type LedgerCallState,
	type ResumedCall
} from './restore-session-state.js';

const stepCapKey = 'threadline-step-cap';
const extraSessionsKey = 'agent-sessions';
export const defaultStepCap = 25;

export interface AgentRuntimeOptions {
	scenarioId: string;
	approvalPolicy: ApprovalPolicy;
	demoScript: string | null;
	/** The scenario's suggested prompts: the demo agent plays its script for these too. */
	suggestedPrompts?: readonly string[];
	ledger: IndexedDbLedger;
	/** The IDE's Workspace: every write through it shows in the tree and editors at once. */
	fs: SandboxFileSystem;
	runner: CommandRunner;
	capabilities: SandboxCapabilities;
	/** The git commit the workspace's HEAD names (Sandbox.vcsRevision): trace records carry it. */
	vcsRevision?: () => string | null;
	/** The scenario's `git.commit_on_complete`: complete_intent commits through this. */
	commitWork?: CommitWorkPort;
	/** Every file of the workspace now (for the export and verify). */
	snapshot: () => Map<string, Uint8Array>;
	toolVersion: string;
	/** Opens a file in the editor (a human step's "Open", a tool card). */
	openFile?: (path: string) => void | Promise<void>;
	/** Shows what a tool call changed as a diff in the editor area (a tool card's "Show diff"). */
	showChange?: (toolCallId: string) => void;
	/** Asked before an untrusted scenario's hook-policy check runs (see check-consent.ts). */
	checkConsent?: (command: string) => Promise<boolean>;
	/**
	 * Class mode: asks the class server for a new ledger's birth certificate before the first
	 * event is written (null when not in a class or the server cannot be reached in time).
	 */
	birthCertificate?: () => Promise<ClassLedgerBirth | null>;
	/** Which scenario this workspace is: recorded in the ledger (`scenario-load`) when it changes. */
	scenarioIdentity?: () => Promise<ScenarioIdentity>;
}

/**
 * The governed agent of one open scenario: governance state, the hook pipeline over the IDE's
 * workspace and sandbox, the IndexedDB ledger, the approval queue, the agent sessions (tabs) and
 * the settings. The page lays it out; nothing here renders.
 */
export class AgentRuntime {
	readonly approvals = new ApprovalQueue();
	readonly pipeline: ToolPipeline;
	readonly state: GovernanceState;
	events = $state.raw<readonly LedgerEvent[]>([]);
	/** Bumped when governance state (locks, intents) changes: GovernanceState is not reactive. */
	revision = $state(0);
	/**
	 * Why protection does not follow `.intentignore` as the workspace holds it (it differs from
	 * the version governance recorded), or null. Shown in the intents panel.
	 */
	protectionProblem = $state<string | null>(null);
	sessions = $state<AgentChat[]>([]);
	activeSessionId = $state('');
	settings = $state<ProviderSettings>(loadSettings(globalThis.localStorage));
	stepCap = $state(readStepCap());
	yamlText = $state('');
	yamlErrors = $state.raw<IntentsError[]>([]);
	private readonly demo: ReplayScript | null;
	private readonly stopLedger: () => void;
	/** What the ledger knew of each tool call when the page opened (for recovery after a reload). */
	private readonly callsAtOpen: Map<string, LedgerCallState>;
	/** Calls that were waiting for an approval when the page went away: asked again once open. */
	private readonly reasks: { chat: AgentChat; call: ResumedCall }[] = [];
	private initialSessionCount = 0;

	private constructor(
		private readonly options: AgentRuntimeOptions,
		state: GovernanceState,
		intentsYaml: string
	) {
		this.state = state;
		this.yamlText = intentsYaml;
		const parsedDemo = options.demoScript ? parseReplayScript(options.demoScript) : null;
		this.demo = parsedDemo?.ok ? parsedDemo.script : null;
		const ports = browserPorts();
		this.pipeline = createToolPipeline({
			state,
			fs: options.fs,
			runner: options.runner,
			capabilities: options.capabilities,
			ledger: options.ledger,
			approvals: this.approvals,
			clock: ports.clock,
			scheduler: ports.scheduler,
			ids: ports.ids,
			toolVersion: options.toolVersion,
			commit: options.ledger.commitThrough(options.fs),
			...(options.checkConsent ? { checkConsent: options.checkConsent } : {}),
			...(options.vcsRevision ? { vcsRevision: options.vcsRevision } : {}),
			...(options.commitWork ? { commitWork: options.commitWork } : {})
		});
		this.events = options.ledger.eventsSince(0);
		// Locks and calls in flight live in memory: rebuild them from what the ledger recorded.
		restoreIntentLocks(state, this.events);
		this.callsAtOpen = ledgerCallStates(this.events);
		this.stopLedger = options.ledger.subscribe((change) => {
			this.events = change.kind === 'reloaded' ? change.events : [...this.events, ...change.events];
			this.revision++;
			if (
				change.events.some(
					(event) =>
						event.type === 'intent-status-change' ||
						event.type === 'scope-expand' ||
						event.type === 'mutation-record'
				)
			) {
				void this.refreshYaml();
			}
		});
		const demoSessions = this.demo ? demoSessionsOf(this.demo) : [];
		const sessions = demoSessions.length
			? demoSessions.map((session) => ({ id: session.id, name: session.name }))
			: [{ id: 'agent', name: 'Agent' }];
		for (const session of sessions) this.addSession(session.id, session.name);
		this.initialSessionCount = this.sessions.length;
		// Sessions the person opened with "+" come back after a reload too.
		for (const session of savedExtraSessions(options.ledger.state(extraSessionsKey))) {
			if (!this.sessions.some((existing) => existing.id === session.id))
				this.addSession(session.id, session.name);
		}
		this.activeSessionId = this.sessions[0]?.id ?? '';
	}

	/** Reads the intents from the workspace; invalid YAML is a problem shown, not a crash. */
	static async create(
		options: AgentRuntimeOptions
	): Promise<{ runtime: AgentRuntime } | { problem: string }> {
		// Intent locks and calls in flight are rebuilt from the whole history, never from a part.
		await options.ledger.whenHistoryLoaded();
		if (options.ledger.historyProblem)
			return {
				problem: `The agent is off: the saved ledger ${options.ledger.historyProblem}. Nothing saved was lost; reload the page to try again.`
			};
		const intentsYaml = await readText(options.fs, activeIntentsPath);
		if (intentsYaml === null)
			return {
				problem: `This workspace has no ${activeIntentsPath}: the agent needs intents to work under.`
			};
		let state: GovernanceState;
		try {
			state = new GovernanceState({
				intentsYaml,
				intentIgnore: (await readText(options.fs, intentIgnorePath)) ?? '',
				approvalPolicy: options.approvalPolicy
			});
		} catch (error) {
			return {
				problem: `The agent is off until the intents are fixed: ${error instanceof Error ? error.message : String(error)}`
			};
		}
		// Protection after a reload (or an import) is the version governance recorded (the
		// starting snapshot, then each Protected switch), never whatever the file holds now.
		const protection = await protectedIntentsAtOpen({
			events: await options.ledger.events(),
			current:
				(await options.fs.stat(intentIgnorePath))?.kind === 'file'
					? await options.fs.readFile(intentIgnorePath)
					: null,
			blob: (hash) => options.ledger.blob(hash),
			intentIds: state.intents.intents.map((intent) => intent.id)
		});
		state.reloadIntentIgnore(protection.text);
		const runtime = new AgentRuntime(options, state, intentsYaml);
		runtime.protectionProblem = protection.problem;
		if (options.ledger.lastSeq === 0 && options.ledger.writable) {
			// The starting files, so verify can tell recorded changes from unrecorded ones.
			// issue 7 (verify): `.orchestration/` included, so verify can check active_intents.yaml
			// and a scenario's other governance files against their starting versions.
			const paths = [...options.snapshot().keys()];
			// Class mode: the history is born bound to a ledger the class server issued.
			const classLedger = (await options.birthCertificate?.().catch(() => null)) ?? null;
			await runtime.pipeline.recordWorkspaceSnapshot(paths, 'workspace', { classLedger });
		}
		// The scenario's hook policy governs from the first call; its hash goes into the ledger.
		const hookPolicy = await readText(options.fs, hookPolicyPath);
		if (options.ledger.writable) await runtime.pipeline.loadHookPolicy(hookPolicy);
		else state.hookPolicy.load(hookPolicy);
		// The exercise this history belongs to (issue 28), after the snapshot (always the first event).
		if (options.ledger.writable && options.scenarioIdentity)
			await runtime.pipeline.recordScenarioLoad(await options.scenarioIdentity());
		await runtime.resumeAfterReload();
		return { runtime };
	}

	/**
	 * Closes in the ledger the calls a reload cut off, then asks again the approvals that were
	 * open. Only the writing tab does this: in a read-only tab the calls may still be running.
	 */
	private async resumeAfterReload(): Promise<void> {
		if (!this.options.ledger.writable) return;
		const reasked = this.reasks.map((entry) => entry.call.toolCallId);
		const drafts = interruptedFinishDrafts(
			this.callsAtOpen,
			reasked,
			(sessionId) => this.state.sessions.get(sessionId)?.activeIntentId ?? null
		);
		if (drafts.length) {
			try {
				await this.options.ledger.append(drafts);
			} catch {
				// A full storage: the calls stay open in the ledger; the chat already says interrupted.
			}
		}
		for (const { chat, call } of this.reasks.splice(0)) {
			chat.resumeTool(call.tool, call.toolCallId, call.input);
		}
	}

	dispose(): void {
		this.stopLedger();
		this.approvals.rejectAll('The workspace was closed.');
		for (const session of this.sessions) void session.stop();
	}

	get activeSession(): AgentChat | null {
		return this.sessions.find((session) => session.id === this.activeSessionId) ?? null;
	}

	addSession(id: string, name: string): AgentChat {
		const saved = this.options.ledger.state(`chat:${id}`) as AgentUIMessage[] | undefined;
		const savedError = this.options.ledger.state(`chat-error:${id}`);
		const recovery =
			Array.isArray(saved) && this.options.ledger.writable
				? planSessionRecovery(saved, this.callsAtOpen)
				: null;
		const chat = new AgentChat({
			id,
			name,
			pipeline: this.pipeline,
			settings: () => this.settings,
			stepCap: () => this.stepCap,
			systemPrompt: (sessionId) => this.systemPromptFor(sessionId),
			demoModel: () => this.demoModelFor(id),
			modelId: () =>
				this.settings.provider === 'demo' ? this.demoModelId(id) : modelIdOf(this.settings),
			messages: recovery ? recovery.messages : Array.isArray(saved) ? saved : undefined,
			error: typeof savedError === 'string' ? savedError : null,
			onErrorChange: (error) => {
				if (!this.options.ledger.writable) return;
				try {
					if (error === null) this.options.ledger.deleteState(`chat-error:${id}`);
					else this.options.ledger.setState(`chat-error:${id}`, error);
				} catch {
					// The ledger reports storage problems through its own banner.
				}
			},
			onMessagesChange: (messages) => {
				this.saveMessages(id, $state.snapshot(messages) as AgentUIMessage[]);
				this.revision++;
			},
			cancelApprovals: (sessionId, reason) => this.approvals.rejectAll(reason, sessionId)
		});
		const session = this.state.session(id);
		session.name = name;
		this.sessions.push(chat);
		for (const call of recovery?.reask ?? []) this.reasks.push({ chat, call });
		if (recovery && recovery.messages.some((message, index) => message !== saved?.[index])) {
			this.saveMessages(id, recovery.messages);
		}
		return chat;
	}

	newSession(): void {
		const number = this.sessions.length + 1;
		const chat = this.addSession(`session-${Date.now().toString(36)}`, `Session ${number}`);
		this.activeSessionId = chat.id;
		this.saveState(
			extraSessionsKey,
			this.sessions.slice(this.initialSessionCount).map((session) => ({
				id: session.id,
				name: session.name
			}))
		);
	}

	/** Conversations survive a reload; a full storage only loses this convenience. */
	private saveMessages(id: string, messages: AgentUIMessage[]): void {
		this.saveState(`chat:${id}`, messages);
	}

	private saveState(key: string, value: unknown): void {
		if (!this.options.ledger.writable) return;
		try {
			this.options.ledger.setState(key, value);
		} catch {
			// The ledger reports storage problems through its own banner.
		}
	}

	saveSettings(
		input: ProviderSettings & { stepCap?: number }
	): { ok: true } | { ok: false; message: string } {
		const { stepCap, ...settings } = input;
		const saved = saveSettings(globalThis.localStorage, settings);
		if (!saved.ok)
			return { ok: false, message: saved.problems.map((problem) => problem.message).join(' ') };
		this.settings = saved.settings;
		if (stepCap !== undefined) {
			this.stepCap = stepCap;
			globalThis.localStorage?.setItem(stepCapKey, String(stepCap));
		}
		return { ok: true };
	}

	forgetKey(): void {
		this.settings = forgetKey(globalThis.localStorage);
	}

	/** "Select for <session>" in the intents panel: governed and recorded like the agent's own. */
	async selectIntent(sessionId: string, intentId: string): Promise<void> {
		await this.pipeline.run({
			sessionId,
			toolCallId: `manual-${crypto.randomUUID()}`,
			tool: 'select_active_intent',
			input: { intent_id: intentId }
		});
		this.revision++;
	}

	/**
	 * The intents panel's Protected switch: after the person confirms, `.intentignore` gets or
	 * loses the intent, recorded as their change (tool `intent-protection`). The only way
	 * protection changes. Returns false when the person said no.
	 */
	async setIntentProtection(intentId: string, protect: boolean): Promise<boolean> {
		const confirmed = await appDialogs.confirm({
			title: protect ? `Protect ${intentId}` : `Stop protecting ${intentId}`,
			message: protect
				? `Every change an agent makes under ${intentId} will ask you first, whatever the approval policy. This is recorded in the ledger as your change of ${intentIgnorePath}.`
				: `Changes under ${intentId} will follow the approval policy again instead of always asking you. This is recorded in the ledger as your change of ${intentIgnorePath}.`,
			confirmLabel: protect ? 'Protect' : 'Stop protecting',
			danger: !protect
		});
		if (!confirmed) return false;
		await this.pipeline.setIntentProtection({ intentId, protect });
		this.protectionProblem = null;
		this.revision++;
		return true;
	}

	/** A person edits the intents in the intents editor: a human edit, recorded like any other. */
	async editIntents(text: string): Promise<void> {
		await this.pipeline.recordHumanEdit({ path: activeIntentsPath, content: text });
		await this.refreshYaml();
	}

	/**
	 * "Verify intent": re-runs the intent's acceptance criteria now, through the same runner
	 * complete_intent uses, without completing anything (hooks/intents/check-criteria.ts), within
	 * the bounds every check keeps (criteria-bounds.ts: per criterion, and a deadline for all).
	 */
	async verifyIntent(intentId: string): Promise<IntentCheck> {
		const intent = this.state.intents.intents.find((candidate) => candidate.id === intentId);
		if (!intent) throw new Error(`${intentId} is not in ${activeIntentsPath}`);
		return checkIntentCriteria(
			intent,
			async (command, { timeoutMs }) => {
				// A check changes nothing: whatever the criterion's command writes is discarded
				// (committing nothing), so "Verify intent" is never an ungoverned way to write files.
				const result = await this.options.runner.exec(command, {
					timeoutMs,
					review: async (proposal) => proposal.commit([])
				});
				return { exitCode: result.exitCode, output: result.output };
			},
			criteriaDeadline({ nowMs: () => performance.now() })
		);
	}

	/** The same verify as `threadline verify`, in a Worker (progress, Cancel through `signal`). */
	async verify(options: VerifyInWorkerOptions = {}): Promise<VerifyReport> {
		// A tampered import is read-only: nothing was added, so what the CLI said of the zip holds.
		const imported = this.options.ledger.state(importedExportKey);
		if (isImportedExportRecord(imported) && !imported.ok) return imported.report;
		const events = await this.options.ledger.events();
		return verifyInWorker(
			{
				kind: 'events',
				events,
				activeIntentsYaml: this.state.intentsYaml,
				intents: this.state.intents.intents,
				files: this.options.snapshot()
			},
			options
		);
	}

	/** Downloads the "Export .orchestration" zip. */
	async exportZip(onProgress?: (done: number, total: number) => void): Promise<void> {
		const zip = await this.exportZipBytes(onProgress);
		downloadBytes(`${this.options.scenarioId}-orchestration.zip`, zip, 'application/zip');
	}

	/**
	 * The "Export .orchestration" zip, built in the export Worker, which reads the stored events
	 * itself. An entry holding the API key is refused.
	 */
	async exportZipBytes(onProgress?: (done: number, total: number) => void): Promise<Uint8Array> {
		const ledger = this.options.ledger;
		const input = {
			activeIntentsYaml: this.state.intentsYaml,
			intents: this.state.intents.intents,
			files: this.options.snapshot(),
			folder: this.options.scenarioId,
			secrets: this.settings.apiKey ? [this.settings.apiKey] : []
		};
		return typeof Worker === 'undefined'
			? orchestrationZip({ ...input, events: await ledger.events() })
			: exportInWorker({ ...input, events: await ledger.workerSource() }, onProgress);
	}

	/**
	 * What a share link carries when the person asks for the history: the `.orchestration/`
	 * files of "Export .orchestration" (audit.jsonl, agent_trace.jsonl, …) as text. The files
	 * travel in the link anyway, so the recipient rebuilds the export from both and verifies it.
	 */
	async shareableHistory(): Promise<Record<string, string>> {
		const entries = orchestrationZipEntries({
			activeIntentsYaml: this.state.intentsYaml,
			intents: this.state.intents.intents,
			files: this.options.snapshot(),
			events: await this.options.ledger.events(),
			secrets: this.settings.apiKey ? [this.settings.apiKey] : []
		});
		const decoder = new TextDecoder();
		const history: Record<string, string> = {};
		for (const [path, bytes] of entries) {
			if (path.startsWith('.orchestration/'))
				history[path.slice('.orchestration/'.length)] = decoder.decode(bytes);
		}
		return history;
	}

	async downloadTrace(): Promise<void> {
		downloadBytes(
			'agent_trace.jsonl',
			new TextEncoder().encode(traceJsonl(await this.options.ledger.events())),
			'application/x-ndjson'
		);
	}

	/** A workspace file's text now, or null when there is no such file. */
	readText(path: string): Promise<string | null> {
		return readText(this.options.fs, path);
	}

	openFile(path: string): void {
		void this.options.openFile?.(path);
	}

	showChange(toolCallId: string): void {
		this.options.showChange?.(toolCallId);
	}

	blob(hash: string): Promise<Uint8Array | null> {
		return this.options.ledger.blob(hash);
	}

	private async refreshYaml(): Promise<void> {
		this.yamlText = (await readText(this.options.fs, activeIntentsPath)) ?? '';
		this.yamlErrors = this.state.intentsErrors;
		this.revision++;
	}

	private systemPromptFor(sessionId: string): string {
		const session = this.state.session(sessionId);
		const intent = session.activeIntentId ? this.state.intent(session.activeIntentId) : undefined;
		const lessons = this.events.flatMap((event) =>
			event.type === 'lesson-record'
				? [{ intent_id: event.intent_id, lesson: event.lesson, category: event.category }]
				: []
		);
		const trace = this.events.flatMap((event) =>
			event.type === 'mutation-record' ? [event.trace] : []
		);
		return buildSystemPrompt({
			intents: this.state.intents.intents,
			activeIntentContext: intent
				? buildIntentContext({
						intent,
						recentTrace: trace.filter(
							(record) => record.metadata['dev.threadline'].intent_id === intent.id
						),
						lessons: lessons.filter(
							(lesson) => lesson.intent_id === intent.id || lesson.intent_id === null
						)
					})
				: null,
			sandbox: this.options.capabilities,
			recentLessons: lessons.slice(-5).map((lesson) => lesson.lesson),
			sessionName: session.name
		});
	}

	private demoModelId(sessionId: string): string {
		return (
			(this.demo &&
				demoSessionsOf(this.demo).find((session) => session.id === sessionId)?.modelId) ||
			'demo/scripted'
		);
	}

	/** Whether this scenario ships a scripted demo agent. */
	get hasDemo(): boolean {
		return this.demo !== null;
	}

	private demoModelFor(sessionId: string): { model: LanguageModel; modelId: string } {
		if (!this.demo)
			throw new Error(
				'This scenario has no scripted demo agent: choose a real model in Settings to use the agent.'
			);
		return {
			model: createDemoLanguageModel({
				script: this.demo,
				sessionId,
				suggestedPrompts: this.options.suggestedPrompts
			}),
			modelId: this.demoModelId(sessionId)
		};
	}
}

async function readText(fs: SandboxFileSystem, path: string): Promise<string | null> {
	const stat = await fs.stat(path);
	return stat?.kind === 'file' ? fs.readTextFile(path) : null;
}

function readStepCap(): number {
	const value = Number(globalThis.localStorage?.getItem(stepCapKey));
	return Number.isInteger(value) && value >= 1 && value <= 200 ? value : defaultStepCap;
}

function savedExtraSessions(value: unknown): { id: string; name: string }[] {
	if (!Array.isArray(value)) return [];
	return value.filter(
		(entry): entry is { id: string; name: string } =>
			typeof entry === 'object' &&
			entry !== null &&
			typeof entry.id === 'string' &&
			typeof entry.name === 'string'
	);
}
