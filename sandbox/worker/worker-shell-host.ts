import type { JournaledWorkspaceFiles } from '../local/journaled-workspace-files.js';
import type { NodeCommandLimits } from '../local/node-command.js';
import {
	stopReasonOf,
	type ShellCommandOutcome,
	type ShellCommandRequest
} from '../local/shell-command.js';
import type { ExecutionLimits } from '../local/shell-command-runner.js';
import type { ShellCommandHost } from '../local/shell-sandbox.js';
import { captureAllEntryStates, captureEntryStates } from '../local/workspace-entry-states.js';
import type { WorkspaceFiles } from '../local/workspace-files.js';
import type {
	ShellWorkerHandle,
	ShellWorkerRequest,
	ShellWorkerResponse
} from './shell-worker-protocol.js';

export interface WorkerShellHostOptions {
	/** The page's copy of the workspace: the authority. Command results are written here. */
	files: WorkspaceFiles;
	/** `files` as `fs` writes it: what it touched is sent to the replica before each command. */
	journal: JournaledWorkspaceFiles;
	createWorker: () => ShellWorkerHandle;
	limits?: ExecutionLimits;
	nodeLimits?: Partial<NodeCommandLimits>;
	/** Bytes one command may write into the workspace (ShellCommandRunnerOptions). */
	maxCommandWriteBytes?: number;
	/** The IndexedDB database of the workspace's git repository (see git-repository-store.ts). */
	repositoryDatabase?: string;
	/**
	 * How long a stopped command may take to come back before its Worker is terminated. Longer
	 * than the runner's own unwinding grace (200 ms), so a command that does stop keeps its changes.
	 */
	killGraceMs?: number;
	/** How long a new Worker may take to load just-bash and the workspace. */
	startTimeoutMs?: number;
}

interface PendingRun {
	resolve(response: Extract<ShellWorkerResponse, { type: 'result' }>): void;
	reject(error: Error): void;
}

interface Connection {
	worker: ShellWorkerHandle;
	pending: Map<number, PendingRun>;
	ready: Promise<{ names: string[]; repositoryRevision: string | null }>;
	started: boolean;
	closed: boolean;
}

const defaultKillGraceMs = 600;
const defaultStartTimeoutMs = 30_000;

/**
 * Runs command lines in a dedicated Worker holding a replica of the workspace. The page's copy
 * stays the authority: before each command the paths `fs` wrote are sent over (as they are now),
 * and each command's result carries the paths it touched, which are written back here.
 *
 * A command that ignores the stop request (a loop that never yields, so the Worker cannot even
 * read the message) is ended by terminating the Worker. Its replica, and with it every change the
 * command had made, is thrown away: the main copy never saw them. A fresh Worker is started at
 * once from the main copy.
 */
export class WorkerShellHost implements ShellCommandHost {
	private connection: Promise<Connection> | undefined;
	private names: readonly string[] = [];
	/** HEAD's commit when the first Worker started (see ShellCommandHost). */
	initialRepositoryRevision: string | null = null;
	private nextRunId = 0;
	private disposed = false;
	private readonly killGraceMs: number;
	private readonly startTimeoutMs: number;

	private constructor(private readonly options: WorkerShellHostOptions) {
		this.killGraceMs = options.killGraceMs ?? defaultKillGraceMs;
		this.startTimeoutMs = options.startTimeoutMs ?? defaultStartTimeoutMs;
	}

	/** Starts the first Worker; rejects when it cannot load (the page should then fall back). */
	static async start(options: WorkerShellHostOptions): Promise<WorkerShellHost> {
		const host = new WorkerShellHost(options);
		try {
			const ready = await (await host.currentConnection()).ready;
			host.names = ready.names;
			host.initialRepositoryRevision = ready.repositoryRevision;
		} catch (error) {
			host.dispose();
			throw error;
		}
		return host;
	}

	get commandNames(): readonly string[] {
		return this.names;
	}

	async run(request: ShellCommandRequest, stop: AbortSignal): Promise<ShellCommandOutcome> {
		if (stop.aborted) {
			return { exitCode: 124, stdout: '', stderr: '', stopReason: stopReasonOf(stop), changes: [] };
		}
		const connection = await this.currentConnection();
		const sync = await captureEntryStates(
			this.options.files,
			this.options.journal.takeTouchedPaths()
		);
		const id = (this.nextRunId += 1);
		const response = new Promise<Extract<ShellWorkerResponse, { type: 'result' }>>(
			(resolve, reject) => connection.pending.set(id, { resolve, reject })
		);
		// Settled later by kill() when the race below is lost: never an unhandled rejection.
		response.catch(() => undefined);
		if (connection.closed) {
			connection.pending.get(id)?.reject(new Error('The sandbox worker was stopped'));
			connection.pending.delete(id);
		}
		this.post(connection, { type: 'run', id, sync, request });

		let killTimer: ReturnType<typeof setTimeout> | undefined;
		let onStop: () => void = () => {};
		const overdue = new Promise<'overdue'>((resolve) => {
			onStop = () => {
				this.post(connection, { type: 'stop', id, reason: stopReasonOf(stop) });
				killTimer = setTimeout(() => resolve('overdue'), this.killGraceMs);
			};
		});
		stop.addEventListener('abort', onStop, { once: true });
		if (stop.aborted) onStop();
		try {
			const settled = await Promise.race([response, overdue]);
			if (settled === 'overdue') {
				const reason = stopReasonOf(stop);
				// A sandbox being closed needs no fresh Worker.
				this.kill(connection, 'a command did not stop when asked', {
					restart: reason !== 'disposed'
				});
				return {
					exitCode: 124,
					stdout: '',
					stderr: '',
					stopReason: stopReasonOf(stop),
					changes: [],
					changesDiscarded: true
				};
			}
			// The replica ran the command on an overlay it has already dropped: its changes come
			// back as a proposal only, which the sandbox commits (through the journal, so the
			// committed paths reach the replica with the next command) or discards.
			return settled.outcome;
		} finally {
			clearTimeout(killTimer);
			stop.removeEventListener('abort', onStop);
		}
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		const connection = this.connection;
		this.connection = undefined;
		void connection?.then(
			(open) => this.close(open, 'the sandbox was closed'),
			() => undefined
		);
	}

	private async currentConnection(): Promise<Connection> {
		// A second round covers a Worker that was closed (not restarted) since it was opened.
		for (let attempt = 0; ; attempt += 1) {
			if (this.disposed) throw new Error('This local sandbox has been disposed');
			let opening = this.connection;
			if (!opening) {
				opening = this.connect();
				this.connection = opening;
			}
			try {
				const connection = await opening;
				await connection.ready;
				if (!connection.closed || attempt > 0) return connection;
			} catch (error) {
				// A Worker that failed to start is retried by the next command rather than cached.
				if (this.connection === opening) this.connection = undefined;
				throw error;
			}
			if (this.connection === opening) this.connection = undefined;
		}
	}

	private async connect(): Promise<Connection> {
		const worker = this.options.createWorker();
		let markReady: (ready: {
			names: string[];
			repositoryRevision: string | null;
		}) => void = () => {};
		let failReady: (error: Error) => void = () => {};
		const connection: Connection = {
			worker,
			pending: new Map(),
			ready: new Promise((resolve, reject) => {
				markReady = resolve;
				failReady = reject;
			}),
			started: false,
			closed: false
		};
		connection.ready.catch(() => undefined);
		worker.onmessage = (event: MessageEvent) => {
			const message = event.data as ShellWorkerResponse;
			switch (message?.type) {
				case 'ready':
					connection.started = true;
					markReady({
						names: message.commandNames,
						repositoryRevision: message.repositoryRevision ?? null
					});
					break;
				case 'load-failed':
					failReady(new Error(`The sandbox worker could not start: ${message.message}`));
					this.close(connection, 'it could not start');
					break;
				case 'result':
					connection.pending.get(message.id)?.resolve(message);
					connection.pending.delete(message.id);
					break;
				case 'run-failed':
					connection.pending.get(message.id)?.reject(new Error(message.message));
					connection.pending.delete(message.id);
					break;
			}
		};
		worker.onerror = (event: ErrorEvent) => {
			const detail = event?.message ? `: ${event.message}` : '';
			failReady(new Error(`The sandbox worker could not start${detail}`));
			this.kill(connection, `it failed${detail}`);
		};
		const timer = setTimeout(() => {
			failReady(new Error(`The sandbox worker did not start within ${this.startTimeoutMs} ms`));
			this.kill(connection, 'it did not start in time');
		}, this.startTimeoutMs);
		void connection.ready.finally(() => clearTimeout(timer)).catch(() => undefined);

		// Writes made from here on are journaled and reach the replica with the next command.
		this.options.journal.takeTouchedPaths();
		const entries = await captureAllEntryStates(this.options.files);
		this.post(connection, {
			type: 'load',
			entries,
			...(this.options.limits ? { limits: this.options.limits } : {}),
			...(this.options.nodeLimits ? { nodeLimits: this.options.nodeLimits } : {}),
			...(this.options.maxCommandWriteBytes !== undefined
				? { maxCommandWriteBytes: this.options.maxCommandWriteBytes }
				: {}),
			...(this.options.repositoryDatabase
				? { repositoryDatabase: this.options.repositoryDatabase }
				: {})
		});
		return connection;
	}

	/**
	 * Terminates a Worker that is no longer trusted. One that was working is replaced at once by a
	 * fresh Worker from the main copy; one that never started is retried by the next command only.
	 */
	private kill(connection: Connection, reason: string, options: { restart?: boolean } = {}): void {
		if (connection.closed) return;
		this.close(connection, reason);
		if (this.disposed || !connection.started || options.restart === false) return;
		const restarted = this.connect();
		restarted.catch(() => undefined);
		this.connection = restarted;
	}

	private close(connection: Connection, reason: string): void {
		if (connection.closed) return;
		connection.closed = true;
		connection.worker.terminate();
		for (const pending of connection.pending.values()) {
			pending.reject(new Error(`The sandbox worker was stopped: ${reason}`));
		}
		connection.pending.clear();
	}

	private post(connection: Connection, message: ShellWorkerRequest): void {
		if (!connection.closed) connection.worker.postMessage(message);
	}
}
