import { scenarioIdentity } from '../scenarios/scenario-identity.js';
import {
	folderChangesOfEntries,
	personPathCheck,
	reviewEntryChanges,
	type ReviewedChanges
} from '../../../hooks/pipeline/shell-transaction.js';
import type { ChangeProposal, FileChange } from '../../../hooks/tools/sandbox-ports.js';
import type { Sandbox, ShellSession } from '../../../sandbox/sandbox.js';
import { governShellSession } from './governed-shell-session.js';
import {
	chooseSandbox,
	startSandbox,
	type SandboxRequest
} from '../../../sandbox/choose-sandbox.js';
import { gitRepositoryDatabaseName } from '../../../sandbox/local/git/git-repository-store.js';
import { gitSubcommandNames } from '../../../sandbox/local/git/git-subcommand-names.js';
import { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import packageJson from '../../../package.json';
import type { AgentRuntime } from '../agent-runtime/agent-runtime.svelte.js';
import { WorkspaceChanges } from '../changes/workspace-changes.svelte.js';
import type { ScenarioStep } from '../../../hooks/scenarios/scenario-steps.js';
import type { ScenarioSteps } from '../steps/scenario-steps.svelte.js';
import { appDialogs } from '../dialogs/app-dialogs.svelte.js';
import { checkConsentQuestion, rememberedCheckConsent } from './check-consent.js';
import { classScenarioName, classWitness } from '../class/class-witness.svelte.js';
import { IndexedDbLedger } from '../ledger/indexeddb-ledger.js';
import { ledgerStoreNames } from '../ledger/ledger-record-store.js';
import { linkLedgerToTabs } from '../ledger/ledger-tab-link.js';
import { TabCoordination } from '../ledger/tab-coordination.js';
import { Workspace } from '../workspace/workspace.svelte.js';
import { downloadBytes } from '../workspace/file-transfer.js';
import { sharedScenario } from '../share/shared-scenario.js';
import { otherVersionWorkspaces, scenarioChangedNotice } from '../scenarios/scenario-workspace.js';
import { bundleFileBytes, resolveScenario, type ResolvedScenario } from './resolve-scenario.js';
import { childrenOf, completeLine, type LineCompletion } from '../terminal/tab-completion.js';
import { zipWorkspace } from './workspace-zip.js';
import type { ReadImport } from './imported-export.js';
import {
	describeImport,
	importedExportKey,
	isImportedExportRecord,
	type ImportedExportRecord
} from './imported-export-record.js';

export type IdeStatus = 'loading' | 'ready' | 'error';

/** Recorded as the trace records' `tool.version`. */
export const threadlineVersion: string = packageJson.version;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Builtins the offline shell runs itself (not in the sandbox's command list). */
const shellBuiltins = ['cd', 'export', 'history', 'pwd', 'unset'];

/**
 * One open IDE: the scenario, its persisted workspace, the sandbox and the terminal. Owns their
 * lifecycle (start, reset, import) so the page component only lays them out.
 */
export class IdeSession {
	status = $state<IdeStatus>('loading');
	step = $state('Loading the scenario…');
	/** A failure that stops the IDE, with what to do. */
	failure = $state<string | null>(null);
	scenario = $state<ResolvedScenario | null>(null);
	sandboxKind = $state<Sandbox['kind'] | null>(null);
	/** Why the sandbox is the one it is, e.g. "Offline sandbox: requested". */
	sandboxReason = $state<string | null>(null);
	/** Shown as a banner when the sandbox is not the one asked for (e.g. a WebContainer fallback). */
	sandboxNotice = $state<string | null>(null);
	/** Storage (IndexedDB) trouble: the work is kept in memory; the notice says what to do. */
	storageProblem = $state<string | null>(null);
	/** Short-lived information for the person (e.g. a reverted terminal change). */
	notice = $state<string | null>(null);
	workspace = $state<Workspace | null>(null);
	shell = $state<ShellSession | null>(null);
	/** The governed agent; null while starting or when the intents cannot be read. */
	agent = $state<AgentRuntime | null>(null);
	/** Why the agent is off (e.g. invalid intents), in words a person can act on. */
	agentProblem = $state<string | null>(null);
	/** Set when another tab holds this scenario: this one is read-only. */
	tabNotice = $state<string | null>(null);
	/** Set when the workspace came from an export: whether its ledger verified. */
	importNotice = $state<string | null>(null);
	/** The imported export failed verification: read-only until reset. */
	importedTampered = $state(false);
	/** The session's changes (list, tree marks, diffs, checkpoints); null until the agent runs. */
	changes = $state<WorkspaceChanges | null>(null);
	/** The scenario's numbered steps, when it has them; null until the agent runs. */
	steps = $state<ScenarioSteps | null>(null);

	private store: IndexedDbWorkspaceFiles | null = null;
	private sandbox: Sandbox | null = null;
	/**
	 * The agent starts after the IDE is ready (its code, the AI SDK and the demo script's
	 * validation are off the path to the tree and the editor); whatever needs it awaits this.
	 */
	private agentStarting: Promise<void> = Promise.resolve();
	private stopStorageWatch: (() => void) | null = null;
	private ledger: IndexedDbLedger | null = null;
	private tabs: TabCoordination | null = null;
	private unlinkTabs: (() => void) | null = null;
	private stopFollowingChanges: (() => void) | null = null;

	constructor(
		private readonly request: {
			scenario: string | null;
			sandbox: string | null;
			fetcher?: typeof fetch;
		}
	) {}

	async start(): Promise<void> {
		try {
			this.step = 'Loading the scenario…';
			const scenario =
				(await sharedScenario(globalThis.location?.hash ?? '')) ??
				(await resolveScenario(
					this.request.scenario,
					this.request.fetcher ?? fetch.bind(globalThis)
				));
			this.scenario = scenario;
			this.step = 'Opening the saved workspace…';
			// One writer per scenario across tabs: a second tab is told and stays read-only.
			this.tabs = await TabCoordination.start({ scenarioId: scenario.workspace });
			this.tabNotice = this.tabs.role.kind === 'reader' ? this.tabs.role.message : null;
			this.tabs.onRoleChange((role) => {
				this.tabNotice =
					role.kind === 'reader'
						? role.message
						: 'The other tab was closed: reload this one to work in it.';
			});
			this.store = await IndexedDbWorkspaceFiles.open(scenario.workspace, {
				initialFiles: async () => bundleFileBytes(scenario.bundle),
				extraStores: ledgerStoreNames
			});
			if (this.store.restoredFrom === 'initial-files') void this.sayWhenScenarioChanged(scenario);
			this.ledger = await IndexedDbLedger.open({
				store: this.store,
				writable: this.tabs.role.kind === 'writer'
			});
			this.unlinkTabs = linkLedgerToTabs(this.ledger, this.tabs);
			this.followImportedExport();
			// Class mode: the class server witnesses this ledger as it grows (app/lib/class/).
			classWitness.attach(this.ledger, classScenarioName(scenario.id, scenario.source));
			this.followLedgerProblems(this.ledger);
			this.stopStorageWatch = this.store.onPersistError((problem) => {
				this.storageProblem = problem ? problem.message : null;
			});
			// Monaco (~700 KB gzip, about a second of this thread) is fetched and compiled from
			// here. Measured: started at the very beginning it delays the tree by ~0.8 s, and
			// started once the tree has painted the first keystroke lands ~0.4 s later.
			const editorLoaded = preloadEditor();
			await this.startSandbox(editorLoaded);
			this.status = 'ready';
			// A share link that carries its history: imported (verified, a tampered one read-only)
			// the first time its workspace opens, never over work done in it since.
			if (
				scenario.sharedHistory &&
				this.store.restoredFrom === 'initial-files' &&
				this.tabs.role.kind === 'writer'
			)
				await this.importZipBytes(
					{ name: 'the shared history' },
					(await import('./imported-export.js')).sharedExportZip(
						bundleFileBytes(scenario.bundle),
						scenario.sharedHistory
					)
				);
		} catch (error) {
			this.failure = error instanceof Error ? error.message : String(error);
			this.status = 'error';
		}
	}

	/**
	 * Why the agent did not start when the saved history could not be read (null otherwise): it
	 * records the person's saves, so until a reload starts it, saves are refused, not unrecorded.
	 */
	private agentOffForHistory: string | null = null;

	/** The notice reportDamagedLedger set last, so it can take it back once the ledger is fine. */
	private ledgerNotice: string | null = null;

	/**
	 * Says when the ledger is damaged or cannot be read, now and whenever that changes: a large
	 * ledger reads its history after the open, the whole chain is checked in the verify Worker
	 * after that, and a refresh may read what could not be read, find another tab's reset, or find
	 * events that do not continue the chain.
	 */
	private followLedgerProblems(opened: IndexedDbLedger): void {
		const reportLater = () => {
			if (this.ledger === opened) this.reportDamagedLedger(opened);
		};
		reportLater();
		void opened.whenHistoryLoaded().then(reportLater);
		void opened.whenFullyChecked().then(reportLater);
		opened.subscribe((change) => {
			reportLater();
			if (change.kind === 'reloaded') void opened.whenFullyChecked().then(reportLater);
		});
	}

	private reportDamagedLedger(ledger: IndexedDbLedger): void {
		const notice = !ledger.integrity.ok
			? `The saved ledger is damaged (${ledger.integrity.problem}); it can be read but not extended. Export it, then reset the scenario.`
			: ledger.historyProblem
				? `The saved ledger ${ledger.historyProblem}, so nothing more is recorded for now. Nothing saved was lost: reload the page to try again.`
				: null;
		if (notice === null && this.ledgerNotice !== null && this.notice === this.ledgerNotice)
			this.notice = null;
		else if (notice && this.notice !== notice) this.notice = notice;
		this.ledgerNotice = notice;
	}

	/** Puts the scenario's original files back (after the person confirmed). */
	async reset(): Promise<void> {
		if (!this.store || !this.scenario) return;
		// A tampered import is read-only until reset: the reset is how the person gets out of it.
		if (this.importedTampered && this.tabs?.role.kind === 'writer')
			await this.ledger?.becomeWriter();
		this.importedTampered = false;
		this.importNotice = null;
		await this.replaceFiles(bundleFileBytes(this.scenario.bundle));
		this.notice = 'The scenario was reset to its original files.';
	}

	/**
	 * Replaces the workspace with a new scenario's starting files (after the person confirmed),
	 * for "New scenario": a new history starts, as after importing plain files.
	 */
	async startBlankScenario(files: Readonly<Record<string, string>>): Promise<void> {
		if (!this.store) return;
		if (this.importedTampered && this.tabs?.role.kind === 'writer')
			await this.ledger?.becomeWriter();
		this.importedTampered = false;
		this.importNotice = null;
		const encoder = new TextEncoder();
		await this.replaceFiles(
			Object.fromEntries(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]))
		);
		this.notice =
			'A new scenario starts from these files: edit them, then Scenario → Export scenario.';
	}

	/**
	 * Replaces the workspace with the files of a zip (after the person confirmed). An export
	 * (`.orchestration/audit.jsonl` inside) brings its own ledger, verified like the CLI does; a
	 * tampered one is shown read-only. Plain files start a new history.
	 */
	async importZip(file: File): Promise<void> {
		await this.importZipBytes(file, new Uint8Array(await file.arrayBuffer()));
	}

	private async importZipBytes(file: { name: string }, bytes: Uint8Array): Promise<void> {
		let imported: ReadImport;
		try {
			// Verify (schema, both chains) loads only when someone imports.
			const { readImport } = await import('./imported-export.js');
			imported = await readImport(bytes);
		} catch (error) {
			this.notice = `${file.name} is not a readable zip: ${error instanceof Error ? error.message : String(error)}`;
			return;
		}
		const count = Object.keys(imported.files).length;
		if (count === 0) {
			this.notice = `${file.name} contains no usable files.`;
			return;
		}
		// Importing is, like a reset, a way out of a tampered import's read-only history.
		if (this.importedTampered && this.tabs?.role.kind === 'writer')
			await this.ledger?.becomeWriter();
		const skipped = imported.skipped.length
			? ` (${imported.skipped.length} entries with unusable paths were skipped)`
			: '';
		if (imported.kind === 'plain') {
			this.importedTampered = false;
			this.importNotice = null;
			await this.replaceFiles(imported.files);
			this.notice = `Imported ${count} files from ${file.name}${skipped}; a new history starts here.`;
			return;
		}
		if (!this.ledger?.writable) {
			this.notice = `${file.name} was not imported: this tab cannot write the workspace.`;
			return;
		}
		const record: ImportedExportRecord = {
			name: file.name,
			ok: imported.report.ok,
			report: JSON.parse(JSON.stringify(imported.report)) as ImportedExportRecord['report']
		};
		await this.replaceFiles(imported.files, { events: imported.events, record });
		this.notice = skipped ? `Some entries of ${file.name} were skipped${skipped}.` : null;
	}

	/** The workspace's files as they are now (for "Export scenario"). */
	workspaceFiles(): Iterable<[string, Uint8Array]> {
		return this.store ? this.store.snapshot() : [];
	}

	exportZip(): void {
		if (!this.store || !this.scenario) return;
		downloadBytes(
			`${this.scenario.id}-workspace.zip`,
			zipWorkspace(this.store.snapshot(), this.scenario.id),
			'application/zip'
		);
	}

	/**
	 * Tab completion for the terminal's line editor: the commands the sandbox runs (and the
	 * shell's builtins), and the paths the workspace holds, from the terminal's folder.
	 */
	completeShellLine(line: string, cwd: string): LineCompletion {
		const workspace = this.workspace;
		return completeLine(line, cwd, {
			commands: [...(this.sandbox?.capabilities.commands ?? []), ...shellBuiltins],
			subcommands: { git: gitSubcommandNames },
			children: (folder) =>
				workspace ? childrenOf(folder, workspace.files.keys(), workspace.folders) : null
		});
	}

	/**
	 * After each terminal line: its changes were committed by the line's own transaction (see
	 * `terminalReview`): protected paths refused, everything else recorded as the human's. Here
	 * the tree and open editors follow, and the person hears what was refused.
	 */
	async followShellChanges(changes: FileChange[]): Promise<void> {
		if (!this.sandbox || !this.workspace) return;
		await this.workspace.applyChanges(changes);
	}

	/** The review of one terminal line: recorded when this tab writes the ledger. */
	private terminalReview(): (proposal: ChangeProposal) => Promise<void> {
		const onReviewed = (review: ReviewedChanges) => {
			const refused = review.refused.map(({ entry }) => entry.path);
			if (refused.length)
				this.notice = `Refused ${refused.join(', ')}: .orchestration/ and .git/ change only through governance, not from the shell; nothing else the line did was lost.`;
			if (refused.length || folderChangesOfEntries(review.allowed).length)
				void this.workspace?.refresh();
		};
		return async (proposal) => {
			// A line run while the agent still starts waits for it: its pipeline records the change.
			await this.agentStarting;
			if (this.agent && this.ledger?.writable)
				return this.agent.pipeline.terminalReview({ onReviewed })(proposal);
			// No ledger to write here (another tab writes it): still refuse protected paths.
			const review = reviewEntryChanges(proposal.entries, personPathCheck);
			await proposal.commit(review.allowed.map((entry) => entry.path));
			if (review.allowed.length)
				this.notice = `The terminal's changes could not be recorded (${unrecordedReason(this.ledger)}); Verify will list them as unattributed.`;
			onReviewed(review);
		};
	}

	async dispose(): Promise<void> {
		classWitness.detach();
		this.stopStorageWatch?.();
		this.unlinkTabs?.();
		this.tabs?.close();
		await this.stopSandbox();
		await this.store?.flush().catch(() => undefined);
	}

	private async replaceFiles(
		files: Record<string, Uint8Array>,
		history?: { events: LedgerLike[]; record: ImportedExportRecord }
	): Promise<void> {
		if (!this.store) return;
		this.status = 'loading';
		this.step = 'Restarting the sandbox…';
		await this.stopSandbox();
		// The workspace starts over, and so does its git repository (a history of other files).
		// The sandbox's Worker, which held it open, has stopped.
		// Another tab holding it open is asked to let go; a reset never waits on it for long.
		if (this.store)
			await Promise.race([
				IndexedDbWorkspaceFiles.deleteDatabase(gitRepositoryDatabaseName(this.store.name)).catch(
					() => undefined
				),
				new Promise((resolve) => setTimeout(resolve, 3_000))
			]);
		if (history && this.ledger) {
			// An export brings its history: kept as it is, with what verify said of it.
			await this.ledger.restoreHistory(files, history.events, {
				[importedExportKey]: history.record
			});
			this.followImportedExport();
		} else if (this.ledger?.writesHere) {
			// A reset or a plain import starts a new history: the ledger is emptied with the files.
			// Also the way out of a damaged or unreadable ledger, as its notice says.
			await this.ledger.resetWith(files);
		} else await this.store.replaceAll(files);
		await this.startSandbox();
		this.status = 'ready';
	}

	/**
	 * A workspace imported from an export says so; a tampered one stays read-only (across reloads
	 * too) so nothing new is ever chained onto a history that does not verify.
	 */
	private followImportedExport(): void {
		const record = this.ledger?.state(importedExportKey);
		if (!isImportedExportRecord(record)) {
			this.importNotice = null;
			this.importedTampered = false;
			return;
		}
		this.importNotice = describeImport(record);
		this.importedTampered = !record.ok;
		if (!record.ok) this.ledger?.becomeReader(this.importNotice);
	}

	/**
	 * `editorLoaded`: the shell Worker starts once it settles. Its boot (just-bash, the replica)
	 * took the CPU Monaco needed on a two-core machine: held back, the first keystroke lands
	 * ~0.3 s sooner and the terminal's prompt about as much later (bench/README.md).
	 */
	private async startSandbox(editorLoaded: Promise<void> = Promise.resolve()): Promise<void> {
		if (!this.store) return;
		this.step = 'Starting the sandbox…';
		const choice = chooseSandbox({
			requested: (this.request.sandbox ?? 'auto') as SandboxRequest,
			crossOriginIsolated: globalThis.crossOriginIsolated === true,
			online: navigator.onLine,
			browserSupported: typeof SharedArrayBuffer !== 'undefined'
		});
		const store = this.store;
		// Whatever writes before the agent exists waits for it: the pipeline records every change.
		let agentStarted: () => void = () => {};
		this.agentStarting = new Promise((resolve) => (agentStarted = resolve));
		let early: Workspace | null = null;
		let earlyFs: Sandbox['fs'] | null = null;
		let started: Awaited<ReturnType<typeof startSandbox>>;
		try {
			started = await startSandbox(choice, {
				startLocal: async () => {
					const { openWorkerLocalSandbox } =
						await import('../../../sandbox/browser/worker-local-sandbox.js');
					const opened = openWorkerLocalSandbox({
						files: store,
						startAfter: editorLoaded,
						repositoryDatabase: gitRepositoryDatabaseName(store.name)
					});
					// The tree and the editor work from the page's own files while the shell Worker
					// loads just-bash (about a second and a half here): nobody waits for it to read.
					earlyFs = opened.fs;
					early = this.createWorkspace(opened.fs);
					void early.refresh().then(
						() => {
							if (early && !this.workspace) this.workspace = early;
						},
						// The tree then waits for the sandbox, whose own refresh reports the trouble.
						() => undefined
					);
					return opened.sandbox;
				},
				startWebContainer: async () => {
					const { createWebContainerSandbox } =
						await import('../../../sandbox/webcontainer/webcontainer-sandbox.js');
					return createWebContainerSandbox({
						files: Object.fromEntries(store.snapshot()),
						onProgress: (stage) => (this.step = `WebContainer: ${stage}…`)
					});
				}
			});
		} catch (error) {
			agentStarted();
			(early as Workspace | null)?.dispose();
			if (this.workspace === early) this.workspace = null;
			throw error;
		}
		// A banner only when something is not as asked (a fallback, an unknown ?sandbox= value);
		// the reason is always available on the sandbox badge.
		this.sandboxReason = started.reason;
		this.sandboxNotice = started.fellBack || choice.note ? started.reason : null;
		this.sandbox = started.sandbox;
		this.sandboxKind = started.sandbox.kind;
		const shownEarly = early as Workspace | null;
		let workspace: Workspace;
		try {
			workspace =
				shownEarly && started.sandbox.fs === earlyFs
					? shownEarly
					: this.createWorkspace(started.sandbox.fs);
			if (workspace !== shownEarly) shownEarly?.dispose();
			await workspace.refresh();
			this.workspace = workspace;
			this.shell = governShellSession(
				await started.sandbox.openShell({ cols: 100, rows: 24 }),
				() => this.terminalReview()
			);
		} catch (error) {
			// No agent will start: whatever waits for it (a save, a stop) must not wait forever.
			agentStarted();
			throw error;
		}
		this.startAgent(started.sandbox, workspace)
			.catch((error: unknown) => {
				this.agent = null;
				this.agentProblem = `The agent could not start: ${error instanceof Error ? error.message : String(error)}. Reload the page to try again.`;
			})
			.finally(agentStarted);
	}

	/** The IDE's files over a sandbox's fs; a person's saves are human edits the pipeline records. */
	private createWorkspace(fs: Sandbox['fs']): Workspace {
		return new Workspace(fs, {
			saveAsHuman: async (path, content) => {
				// A save while the agent still starts waits for it: the pipeline records human edits.
				await this.agentStarting;
				const unreadable = this.ledger?.historyProblem ?? this.agentOffForHistory;
				if (this.agent) await this.agent.pipeline.recordHumanEdit({ path, content });
				else if (unreadable)
					// Saved unrecorded, the change would look like one nobody made: not saved at all.
					throw new Error(
						`the saved ledger ${unreadable}, so nothing can be recorded for now; reload the page to try again`
					);
				else if (content === null) await fs.rm(path);
				else await fs.writeFile(path, content);
			}
		});
	}

	private async startAgent(sandbox: Sandbox, workspace: Workspace): Promise<void> {
		if (!this.ledger || !this.scenario || !this.store) return;
		const store = this.store;
		const manifest = this.scenario.bundle.manifest;
		// The agent (AI SDK, providers) loads after the IDE is up: it is not in the initial bundle.
		const { AgentRuntime } = await import('../agent-runtime/agent-runtime.svelte.js');
		const created = await AgentRuntime.create({
			scenarioId: this.scenario.id,
			approvalPolicy: manifest.approval_policy,
			demoScript: this.scenario.bundle.demo,
			suggestedPrompts: manifest.suggested_prompts,
			ledger: this.ledger,
			fs: workspace,
			runner: sandbox,
			capabilities: sandbox.capabilities,
			...(sandbox.vcsRevision ? { vcsRevision: () => sandbox.vcsRevision?.() ?? null } : {}),
			...(manifest.git?.commit_on_complete && sandbox.commitWorkingTree
				? { commitWork: sandbox.commitWorkingTree.bind(sandbox) }
				: {}),
			snapshot: () => store.snapshot(),
			toolVersion: threadlineVersion,
			openFile: (path) => workspace.open(path),
			showChange: (toolCallId) => void this.changes?.showToolCallDiff(toolCallId),
			// A scenario from a URL or a share link runs none of its checks without the person.
			...(this.scenario.trusted ? {} : { checkConsent: this.untrustedCheckConsent(this.scenario) }),
			// Class mode: a new history is born bound to a ledger the class server issued.
			birthCertificate: () =>
				classWitness.issueLedger(
					this.scenario ? classScenarioName(this.scenario.id, this.scenario.source) : undefined
				),
			// issue 28: the ledger names its scenario (id, source, hashes), so grading knows it.
			scenarioIdentity: (
				(scenario) => () =>
					scenarioIdentity(scenario)
			)(this.scenario)
		});
		if ('problem' in created) {
			this.agentProblem = created.problem;
			this.agentOffForHistory = this.ledger.historyProblem;
			this.agent = null;
		} else {
			this.agentProblem = null;
			this.agentOffForHistory = null;
			this.agent = created.runtime;
			const changes = new WorkspaceChanges(created.runtime, workspace, (message) => {
				this.notice = message;
			});
			this.changes = changes;
			// The tree and the editor follow what this tab records (the agent's writes above all).
			this.stopFollowingChanges = this.ledger.subscribe((change) => {
				if (change.kind === 'appended' && change.origin === 'this-tab')
					changes.followEvents(change.events);
			});
			if (manifest.steps)
				this.steps = await this.createSteps(manifest.steps, created.runtime, workspace);
		}
	}

	/** Loaded with the agent, off the path to the tree and the editor, for stepped scenarios only. */
	private async createSteps(
		steps: readonly ScenarioStep[],
		runtime: AgentRuntime,
		workspace: Workspace
	): Promise<ScenarioSteps | null> {
		const ledger = this.ledger;
		const changes = this.changes;
		if (!ledger || !changes) return null;
		const { ScenarioSteps } = await import('../steps/scenario-steps.svelte.js');
		return new ScenarioSteps(steps, {
			get events() {
				return runtime.events;
			},
			ledger,
			pipeline: runtime.pipeline,
			verifyIntent: (intentId) => runtime.verifyIntent(intentId),
			readText: async (path) => {
				if ((await workspace.stat(path))?.kind !== 'file') return undefined;
				try {
					return strictUtf8.decode(await workspace.readFile(path));
				} catch {
					return null;
				}
			},
			unsavedTabs: () => workspace.dirtyCount,
			restore: (seq, wording) => changes.restore(seq, wording),
			notify: (message) => {
				this.notice = message;
			}
		});
	}

	/**
	 * A remote scenario whose URL now serves other content opens in a new workspace (its
	 * workspace is one per URL and content): say so, and that the earlier work is kept.
	 */
	private async sayWhenScenarioChanged(scenario: ResolvedScenario): Promise<void> {
		if (!scenario.contentHash) return;
		let names: string[];
		try {
			const databases = (await globalThis.indexedDB?.databases?.()) ?? [];
			names = databases.flatMap((database) => (database.name ? [database.name] : []));
		} catch {
			return; // A browser that cannot list its databases: nothing to compare with.
		}
		if (otherVersionWorkspaces(scenario.workspace, names).length === 0) return;
		// A notice about the ledger or storage matters more; this one is for information.
		this.notice ??= scenarioChangedNotice(scenario.source);
	}

	private untrustedCheckConsent(scenario: ResolvedScenario): (command: string) => Promise<boolean> {
		const source = scenario.source.startsWith('share:') ? 'a share link' : scenario.source;
		return rememberedCheckConsent((command) =>
			appDialogs.confirm(checkConsentQuestion(command, source))
		);
	}

	private async stopSandbox(): Promise<void> {
		// An agent still starting would otherwise appear after the sandbox it uses is gone.
		await this.agentStarting;
		this.stopFollowingChanges?.();
		this.stopFollowingChanges = null;
		this.changes?.dispose();
		this.changes = null;
		this.steps = null;
		this.agent?.dispose();
		this.agent = null;
		this.shell?.dispose();
		this.shell = null;
		this.workspace?.dispose();
		this.workspace = null;
		await this.sandbox?.dispose();
		this.sandbox = null;
	}
}

/** Why a terminal line's changes went unrecorded, in the person's words. */
function unrecordedReason(ledger: IndexedDbLedger | null): string {
	if (!ledger) return 'the ledger is not ready yet';
	if (ledger.historyProblem) return `the saved ledger ${ledger.historyProblem}; reload the page`;
	if (!ledger.writesHere) return 'another tab writes the ledger';
	if (!ledger.integrity.ok) return 'the saved ledger is damaged';
	return 'the agent is off';
}

/** Longest the shell Worker waits for Monaco: on a slow network the download leaves the CPU idle. */
const editorLoadWaitMs = 3_000;

/** Loads Monaco; settles when it has loaded or failed, or after editorLoadWaitMs. */
function preloadEditor(): Promise<void> {
	const loaded = import('../editor/monaco-loader.js')
		.then((module) => module.loadMonaco())
		.then(
			() => undefined,
			() => undefined // Opening a file loads it again and shows the error there.
		);
	return Promise.race([
		loaded,
		new Promise<void>((resolve) => setTimeout(resolve, editorLoadWaitMs))
	]);
}

type LedgerLike = Parameters<IndexedDbLedger['restoreHistory']>[1][number];
