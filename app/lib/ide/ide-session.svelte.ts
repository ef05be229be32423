import { isProtectedPath } from '../../../hooks/paths/protected-paths.js';
import type { FileChange } from '../../../hooks/tools/sandbox-ports.js';
import type { Sandbox, ShellSession } from '../../../sandbox/sandbox.js';
import {
	chooseSandbox,
	startSandbox,
	type SandboxRequest
} from '../../../sandbox/choose-sandbox.js';
import { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { Workspace } from '../workspace/workspace.svelte.js';
import { downloadBytes } from '../workspace/file-transfer.js';
import { bundleFileBytes, resolveScenario, type ResolvedScenario } from './resolve-scenario.js';
import { readWorkspaceZip, zipWorkspace } from './workspace-zip.js';

export type IdeStatus = 'loading' | 'ready' | 'error';

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

	private store: IndexedDbWorkspaceFiles | null = null;
	private sandbox: Sandbox | null = null;
	private stopStorageWatch: (() => void) | null = null;

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
			const scenario = await resolveScenario(
				this.request.scenario,
				this.request.fetcher ?? fetch.bind(globalThis)
			);
			this.scenario = scenario;
			this.step = 'Opening the saved workspace…';
			this.store = await IndexedDbWorkspaceFiles.open(workspaceDatabaseName(scenario), {
				initialFiles: async () => bundleFileBytes(scenario.bundle)
			});
			this.stopStorageWatch = this.store.onPersistError((problem) => {
				this.storageProblem = problem ? problem.message : null;
			});
			await this.startSandbox();
			this.status = 'ready';
		} catch (error) {
			this.failure = error instanceof Error ? error.message : String(error);
			this.status = 'error';
		}
	}

	/** Puts the scenario's original files back (after the person confirmed). */
	async reset(): Promise<void> {
		if (!this.store || !this.scenario) return;
		await this.replaceFiles(bundleFileBytes(this.scenario.bundle));
		this.notice = 'The scenario was reset to its original files.';
	}

	/** Replaces the workspace with the files of a zip (after the person confirmed). */
	async importZip(file: File): Promise<void> {
		let imported: ReturnType<typeof readWorkspaceZip>;
		try {
			imported = readWorkspaceZip(new Uint8Array(await file.arrayBuffer()));
		} catch (error) {
			this.notice = `${file.name} is not a readable zip: ${error instanceof Error ? error.message : String(error)}`;
			return;
		}
		const count = Object.keys(imported.files).length;
		if (count === 0) {
			this.notice = `${file.name} contains no usable files.`;
			return;
		}
		await this.replaceFiles(imported.files);
		const skipped = imported.skipped.length
			? ` (${imported.skipped.length} entries with unusable paths were skipped)`
			: '';
		this.notice = `Imported ${count} files from ${file.name}${skipped}.`;
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
	 * After each terminal line: people, like agents, cannot change `.orchestration/` or `.git/`
	 * from the shell, so such changes are put back; the rest reaches the tree and open editors.
	 */
	async followShellChanges(changes: FileChange[]): Promise<void> {
		if (!this.sandbox || !this.workspace) return;
		const kept: FileChange[] = [];
		const reverted: string[] = [];
		for (const change of changes) {
			if (!isProtectedPath(change.path)) {
				kept.push(change);
				continue;
			}
			if (change.before === null) await this.sandbox.fs.rm(change.path).catch(() => undefined);
			else await this.sandbox.fs.writeFile(change.path, change.before);
			reverted.push(change.path);
		}
		await this.workspace.applyChanges(kept);
		if (reverted.length) {
			this.notice = `Reverted ${reverted.join(', ')}: .orchestration/ and .git/ change only through governance, not from the shell.`;
			await this.workspace.refresh();
		}
	}

	async dispose(): Promise<void> {
		this.stopStorageWatch?.();
		await this.stopSandbox();
		await this.store?.flush().catch(() => undefined);
	}

	private async replaceFiles(files: Record<string, Uint8Array>): Promise<void> {
		if (!this.store) return;
		this.status = 'loading';
		this.step = 'Restarting the sandbox…';
		await this.stopSandbox();
		await this.store.replaceAll(files);
		await this.startSandbox();
		this.status = 'ready';
	}

	private async startSandbox(): Promise<void> {
		if (!this.store) return;
		this.step = 'Starting the sandbox…';
		const choice = chooseSandbox({
			requested: (this.request.sandbox ?? 'auto') as SandboxRequest,
			crossOriginIsolated: globalThis.crossOriginIsolated === true,
			online: navigator.onLine,
			browserSupported: typeof SharedArrayBuffer !== 'undefined'
		});
		const store = this.store;
		const started = await startSandbox(choice, {
			startLocal: async () => {
				const { createWorkerLocalSandbox } =
					await import('../../../sandbox/browser/worker-local-sandbox.js');
				return createWorkerLocalSandbox({ files: store });
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
		// A banner only when something is not as asked (a fallback, an unknown ?sandbox= value);
		// the reason is always available on the sandbox badge.
		this.sandboxReason = started.reason;
		this.sandboxNotice = started.fellBack || choice.note ? started.reason : null;
		this.sandbox = started.sandbox;
		this.sandboxKind = started.sandbox.kind;
		const workspace = new Workspace(started.sandbox.fs);
		await workspace.refresh();
		this.workspace = workspace;
		this.shell = await started.sandbox.openShell({ cols: 100, rows: 24 });
	}

	private async stopSandbox(): Promise<void> {
		this.shell?.dispose();
		this.shell = null;
		this.workspace?.dispose();
		this.workspace = null;
		await this.sandbox?.dispose();
		this.sandbox = null;
	}
}

function workspaceDatabaseName(scenario: ResolvedScenario): string {
	return `threadline-workspace-${scenario.trusted ? scenario.id : `remote-${scenario.id}`}`;
}
