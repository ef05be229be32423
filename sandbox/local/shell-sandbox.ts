import type {
	ChangeProposal,
	EntryChange,
	ExecOptions,
	ExecResult,
	SandboxCapabilities
} from '../../hooks/tools/sandbox-ports.js';
import type { Sandbox, ShellSession } from '../sandbox.js';
import { normalizeWorkspacePath } from '../workspace-path.js';
import { LocalLineShellSession } from './line-shell-session.js';
import type { ShellLineRunner, ShellRunRequest } from './shell-line-runner.js';
import { explanatoryProgramNames } from './npm/toolchain-commands.js';
import { applyEntryChanges, fileChangesOf } from './overlay-workspace-files.js';
import {
	defaultShellEnvironment,
	outputOf,
	type ShellCommandOutcome,
	type ShellCommandRequest,
	type StopReason
} from './shell-command.js';
import { WorkspaceFileSystem } from './workspace-file-system.js';
import type { WorkspaceFiles } from './workspace-files.js';

export const localSandboxDescription =
	'bash-like shell (just-bash) over the workspace, plus an offline Node-compatible runtime: ' +
	'`node` (ES modules, CommonJS, TypeScript, node:fs/path/url/assert/test/crypto), ' +
	'`node --test`, `npx tsx`, `npm test` and `npm run <script>`; no npm install, no packages ' +
	"from npm, no network; `git` (isomorphic-git) reads the workspace's repository: status, diff, " +
	'log, show, branch, rev-parse (only the person commits)';

/**
 * Where command lines actually run: in this thread (ShellCommandRunner itself) or in a Worker
 * (WorkerShellHost). Either way the changes are in `files` by the time `run` resolves.
 */
export interface ShellCommandHost {
	readonly commandNames: readonly string[];
	/** `stop` is aborted with a StopReason as its reason. */
	run(request: ShellCommandRequest, stop: AbortSignal): Promise<ShellCommandOutcome>;
	dispose?(): void | Promise<void>;
	/** HEAD's commit in the git repository when the host started. */
	readonly initialRepositoryRevision?: string | null;
}

export interface ShellSandboxOptions {
	/** Timeout of an `exec` that passes none. */
	defaultTimeoutMs: number;
	/** Time limit of one terminal line: generous, a person is watching and has Ctrl+C. */
	shellTimeoutMs: number;
}

export type { ShellRunRequest } from './shell-line-runner.js';

/**
 * The local sandbox, whatever runs its commands: `fs` straight over the workspace store, commands
 * one at a time through a ShellCommandHost, watchers told about what commands changed.
 */
export class ShellSandbox implements Sandbox, ShellLineRunner {
	readonly kind = 'local' as const;
	readonly fs: WorkspaceFileSystem;
	readonly capabilities: SandboxCapabilities;
	private queue: Promise<unknown> = Promise.resolve();
	private readonly running = new Set<(reason: StopReason) => void>();
	private readonly sessions = new Set<LocalLineShellSession>();
	private disposed = false;
	private revision: string | null;

	constructor(
		private readonly files: WorkspaceFiles,
		private readonly host: ShellCommandHost,
		private readonly options: ShellSandboxOptions,
		/**
		 * The fs over `files` handed out before this sandbox existed (openWorkerLocalSandbox); it
		 * must refuse writes once this sandbox is disposed (`isDisposed`).
		 */
		fs?: WorkspaceFileSystem
	) {
		this.revision = host.initialRepositoryRevision ?? null;
		this.fs = fs ?? new WorkspaceFileSystem(files, () => this.assertNotDisposed());
		this.capabilities = {
			kind: 'local',
			description: localSandboxDescription,
			// Only what runs: the programs that are there only to explain their absence (gcc,
			// python, yarn…) are not offered to Tab completion or named to the model.
			commands: host.commandNames.filter((name) => !explanatoryProgramNames.includes(name))
		};
	}

	vcsRevision(): string | null {
		return this.revision;
	}

	/**
	 * Commits the whole working tree to the git repository (creating it when there is none), for
	 * complete_intent when the scenario asks for it. The one write to the repository that is not a
	 * person's terminal line: the governance core calls it, never a tool. It changes no workspace
	 * file (whatever the line would change is dropped by its review).
	 */
	async commitWorkingTree(request: {
		message: string;
		author: { name: string; email: string };
	}): Promise<{ revision: string | null; committed: boolean; problem?: string }> {
		this.assertNotDisposed();
		const outcome = await this.enqueue(() =>
			this.runNow(
				{
					command:
						'git init -q >/dev/null && git add -A && git commit -q -m "$THREADLINE_COMMIT_MESSAGE"',
					cwd: '',
					env: {
						...defaultShellEnvironment,
						THREADLINE_COMMIT_MESSAGE: request.message,
						GIT_AUTHOR_NAME: request.author.name,
						GIT_AUTHOR_EMAIL: request.author.email
					},
					timeoutMs: this.options.defaultTimeoutMs,
					review: (proposal) => proposal.commit([])
				},
				{ mayWriteRepository: true }
			)
		);
		const committed = outcome.exitCode === 0;
		const said = `${outcome.stdout}${outcome.stderr}`.trim();
		return {
			revision: this.revision,
			committed,
			...(committed ? {} : { problem: said || `git exited with ${outcome.exitCode}` })
		};
	}

	async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
		this.assertNotDisposed();
		if (typeof command !== 'string') throw new TypeError('exec expects the command as a string');
		const timeoutMs = checkTimeout(options.timeoutMs ?? this.options.defaultTimeoutMs);
		const cwd = normalizeWorkspacePath(options.cwd ?? '');
		const outcome = await this.enqueue(async () => {
			await this.requireFolder(cwd, options.cwd);
			return this.runNow({
				command,
				cwd,
				timeoutMs,
				signal: options.signal,
				review: options.review
			});
		});
		const output = outputOf(outcome, stopMessage(outcome, timeoutMs));
		if (output !== '' && options.onOutput) {
			try {
				options.onOutput(output);
			} catch {
				// A failing display callback must not turn a finished command into a failed one.
			}
		}
		return {
			exitCode: outcome.stopReason ? 124 : outcome.exitCode,
			output,
			changes: outcome.changes,
			entries: outcome.proposal ?? [],
			refused: outcome.refused ?? [],
			interrupted: outcome.stopReason !== undefined
		};
	}

	async openShell(size: { cols: number; rows: number }): Promise<ShellSession> {
		this.assertNotDisposed();
		if (
			typeof size !== 'object' ||
			size === null ||
			!Number.isFinite(size.cols) ||
			!Number.isFinite(size.rows)
		) {
			throw new TypeError('openShell expects a size { cols, rows }');
		}
		const session = new LocalLineShellSession(this, this.options.shellTimeoutMs, () =>
			this.sessions.delete(session)
		);
		this.sessions.add(session);
		return session;
	}

	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		for (const stop of this.running) stop('disposed');
		for (const session of [...this.sessions]) session.dispose();
		this.fs.clearWatchers();
		await this.queue;
		await this.host.dispose?.();
	}

	/**
	 * Runs a terminal line after the commands queued before it; a missing working folder falls back
	 * to the root (the session says so). Used by LocalLineShellSession.
	 */
	runShellLine(
		request: ShellRunRequest
	): Promise<ShellCommandOutcome & { cwd: string; cwdWasMissing: boolean }> {
		this.assertNotDisposed();
		return this.enqueue(async () => {
			const info = await this.files.stat(request.cwd);
			const cwdWasMissing = info?.kind !== 'directory';
			const cwd = cwdWasMissing ? '' : request.cwd;
			// A terminal is a person's: only its lines may change the git repository.
			const outcome = await this.runNow({ ...request, cwd }, { mayWriteRepository: true });
			return { ...outcome, cwd, cwdWasMissing };
		});
	}

	private enqueue<Result>(task: () => Promise<Result>): Promise<Result> {
		// One command at a time: change recording compares before/after states of the same store.
		const run = this.queue.then(() => {
			this.assertNotDisposed();
			return task();
		});
		this.queue = run.catch(() => undefined);
		return run;
	}

	private async runNow(
		request: ShellRunRequest,
		access: { mayWriteRepository?: boolean } = {}
	): Promise<ShellCommandOutcome> {
		const controller = new AbortController();
		const stop = (reason: StopReason) => {
			if (!controller.signal.aborted) controller.abort(reason);
		};
		const onAbort = () => stop('aborted');
		if (request.signal?.aborted) stop('aborted');
		request.signal?.addEventListener('abort', onAbort, { once: true });
		const timer = setTimeout(() => stop('timeout'), request.timeoutMs);
		this.running.add(stop);
		let outcome: ShellCommandOutcome;
		try {
			outcome = await this.host.run(
				{
					command: request.command,
					cwd: request.cwd,
					timeoutMs: request.timeoutMs,
					...(request.env ? { env: request.env } : {}),
					...(access.mayWriteRepository ? { mayWriteRepository: true } : {})
				},
				controller.signal
			);
		} finally {
			clearTimeout(timer);
			request.signal?.removeEventListener('abort', onAbort);
			this.running.delete(stop);
		}
		// Before the review: records of what this line's git wrote carry the commit it moved to.
		if (outcome.repositoryRevision !== undefined) this.revision = outcome.repositoryRevision;
		if (controller.signal.aborted && !outcome.stopReason) {
			// Stopped while finishing anyway: still report it as stopped, as the caller asked.
			outcome = { ...outcome, stopReason: controller.signal.reason as StopReason };
		}
		const committed = await this.settle(outcome.proposal ?? [], request.review);
		const refused = (outcome.proposal ?? []).filter((entry) => !committed.includes(entry));
		outcome = { ...outcome, changes: fileChangesOf(committed), proposal: committed, refused };
		this.fs.notify(outcome.changes.map(({ type, path }) => ({ type, path })));
		return outcome;
	}

	/**
	 * The end of a command's transaction, still inside the command queue (nothing else runs): the
	 * review sees every proposed change and commits the paths it allows, once; the rest is dropped
	 * with the overlay. Returns the committed entries.
	 */
	private async settle(
		proposed: EntryChange[],
		review: ShellRunRequest['review']
	): Promise<EntryChange[]> {
		let committed: EntryChange[] = [];
		let settled = false;
		const proposal: ChangeProposal = {
			entries: proposed,
			commit: async (paths) => {
				if (settled) throw new Error("This command's changes were already committed or discarded");
				settled = true;
				const chosen = new Set(paths);
				const entries = proposed.filter((entry) => chosen.has(entry.path));
				await applyEntryChanges(this.files, entries);
				committed = entries;
			}
		};
		try {
			// No review, no commit: a caller that forgets to govern a command loses its writes
			// rather than bypassing the hooks (ungoverned callers pass commitEveryChange).
			if (review) await review(proposal);
		} finally {
			settled = true;
		}
		return committed;
	}

	private async requireFolder(path: string, asGiven: string | undefined): Promise<void> {
		const info = await this.files.stat(path);
		if (info?.kind !== 'directory') {
			throw new Error(
				`Cannot run the command in '${asGiven}': ${info ? 'it is a file' : 'no such folder'} in the workspace`
			);
		}
	}

	get isDisposed(): boolean {
		return this.disposed;
	}

	private assertNotDisposed(): void {
		if (this.disposed) throw new Error('This local sandbox has been disposed');
	}
}

/** What an `exec` caller (the agent) is told about a stop; '' when the command was not stopped. */
function stopMessage(outcome: ShellCommandOutcome, timeoutMs: number): string {
	if (!outcome.stopReason) return '';
	const discarded = outcome.changesDiscarded
		? ' It did not stop when asked, so the sandbox was restarted and the file changes it had' +
			' made were discarded.'
		: '';
	switch (outcome.stopReason) {
		case 'timeout':
			return `Command timed out after ${timeoutMs} ms and was stopped (exit code 124).${discarded}`;
		case 'aborted':
			return `Command was cancelled (exit code 124).${discarded}`;
		case 'disposed':
			return `Command was stopped because the sandbox was closed (exit code 124).${discarded}`;
	}
}

export function checkTimeout(timeoutMs: number): number {
	if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
		throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
	}
	return Math.ceil(timeoutMs);
}
