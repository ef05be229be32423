import type { BashOptions, IFileSystem } from 'just-bash';
import type {
	ExecOptions,
	ExecResult,
	FileChange,
	SandboxCapabilities
} from '../../hooks/tools/sandbox-ports.js';
import type { Sandbox } from '../sandbox.js';
import { normalizeWorkspacePath } from '../workspace-path.js';
import { ChangeRecorder } from './change-recorder.js';
import { loadJustBash, type JustBashModule } from './load-just-bash.js';
import { createShellBaseLayout } from './shell-base-layout.js';
import {
	createShellFileMetadata,
	ShellWorkspaceAdapter,
	type ShellFileMetadata
} from './shell-workspace-adapter.js';
import { WorkspaceFileSystem } from './workspace-file-system.js';
import type { WorkspaceFiles } from './workspace-files.js';

/** just-bash's execution limits (not exported by name from the package). */
export type ExecutionLimits = NonNullable<BashOptions['executionLimits']>;

/** Where the shell sees the workspace; also its working directory and $HOME. */
export const workspaceMountPoint = '/workspace';

export const defaultLocalTimeoutMs = 30_000;

/**
 * Tighter than just-bash's `normal` profile where a learner's runaway command would otherwise
 * take long to stop (output and string sizes); the loop and command counts stay at 100k, which
 * also ends `while true; do :; done` in about a second even where no timer can fire.
 */
export const defaultLocalExecutionLimits: Readonly<ExecutionLimits> = Object.freeze({
	maxCommandCount: 100_000,
	maxLoopIterations: 100_000,
	maxAwkIterations: 100_000,
	maxSedIterations: 100_000,
	maxJqIterations: 100_000,
	maxCallDepth: 100,
	maxSubstitutionDepth: 50,
	maxOutputSize: 10 * 1024 * 1024,
	maxStringLength: 10 * 1024 * 1024,
	maxHeredocSize: 10 * 1024 * 1024,
	maxBraceExpansionResults: 100_000
});

export const localSandboxDescription =
	'bash-like shell (just-bash) over the workspace; no npm, no network';

/** How long a stopped command gets to unwind before its changes are collected without it. */
const stopGraceMs = 200;

export interface LocalSandboxOptions {
	files: WorkspaceFiles;
	/** Merged over `defaultLocalExecutionLimits`; `maxExecutionTimeMs` is always the exec timeout. */
	limits?: ExecutionLimits;
	/** Timeout of an `exec` that passes none; 30 s by default. */
	defaultTimeoutMs?: number;
}

type StopReason = 'timeout' | 'aborted' | 'disposed';

/**
 * The offline sandbox: just-bash over a WorkspaceFiles store. Loads just-bash on creation (not on
 * import). In a page, a runaway synchronous loop still blocks the thread until just-bash's own
 * limits or deadline stop it; running it in a Worker is the caller's choice.
 */
export async function createLocalSandbox(options: LocalSandboxOptions): Promise<Sandbox> {
	if (!options || typeof options.files !== 'object' || options.files === null) {
		throw new TypeError('createLocalSandbox needs a WorkspaceFiles store in `files`');
	}
	const defaultTimeoutMs = checkTimeout(options.defaultTimeoutMs ?? defaultLocalTimeoutMs);
	const justBash = await loadJustBash();
	return new LocalSandbox(justBash, options.files, options.limits ?? {}, defaultTimeoutMs);
}

class LocalSandbox implements Sandbox {
	readonly kind = 'local' as const;
	readonly fs: WorkspaceFileSystem;
	readonly capabilities: SandboxCapabilities;
	private readonly shellBase: IFileSystem;
	private readonly metadata: ShellFileMetadata = createShellFileMetadata();
	private readonly limits: ExecutionLimits;
	private queue: Promise<unknown> = Promise.resolve();
	private stopRunning: ((reason: StopReason) => void) | undefined;
	private disposed = false;

	constructor(
		private readonly justBash: JustBashModule,
		private readonly files: WorkspaceFiles,
		limits: ExecutionLimits,
		private readonly defaultTimeoutMs: number
	) {
		this.fs = new WorkspaceFileSystem(files, () => this.assertNotDisposed());
		const commands = [...justBash.getCommandNames()].sort();
		this.capabilities = { kind: 'local', description: localSandboxDescription, commands };
		this.shellBase = createShellBaseLayout(justBash, commands);
		this.limits = { ...defaultLocalExecutionLimits, ...limits };
	}

	exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
		// One command at a time: change recording compares before/after states of the same store.
		const run = this.queue.then(() => this.run(command, options));
		this.queue = run.catch(() => undefined);
		return run;
	}

	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		this.stopRunning?.('disposed');
		this.fs.clearWatchers();
		await this.queue;
	}

	private async run(command: string, options: ExecOptions): Promise<ExecResult> {
		this.assertNotDisposed();
		if (typeof command !== 'string') throw new TypeError('exec expects the command as a string');
		const timeoutMs = checkTimeout(options.timeoutMs ?? this.defaultTimeoutMs);
		const cwd = await this.resolveCwd(options.cwd);
		if (options.signal?.aborted) {
			return finish({ exitCode: 124, output: '', changes: [] }, 'aborted', timeoutMs, options);
		}

		const recorder = new ChangeRecorder(this.files);
		const adapter = new ShellWorkspaceAdapter(
			this.files,
			recorder,
			this.metadata,
			workspaceMountPoint
		);
		const bash = new this.justBash.Bash({
			fs: new this.justBash.MountableFs({
				base: this.shellBase,
				mounts: [{ mountPoint: workspaceMountPoint, filesystem: adapter }]
			}),
			cwd: cwd === '' ? workspaceMountPoint : `${workspaceMountPoint}/${cwd}`,
			env: { HOME: workspaceMountPoint, TMPDIR: '/tmp' },
			// just-bash checks its deadline between statements, so it also ends loops that never
			// yield to the event loop (where our timer below cannot fire).
			executionLimits: { ...this.limits, maxExecutionTimeMs: timeoutMs }
		});

		let stopReason: StopReason | undefined;
		let signalStopped: () => void = () => {};
		const stopped = new Promise<void>((resolve) => (signalStopped = resolve));
		const controller = new AbortController();
		const stop = (reason: StopReason) => {
			if (stopReason) return;
			stopReason = reason;
			adapter.revoke(`the command was stopped (${reason})`);
			controller.abort();
			signalStopped();
		};
		const timer = setTimeout(() => stop('timeout'), timeoutMs);
		const onAbort = () => stop('aborted');
		options.signal?.addEventListener('abort', onAbort, { once: true });
		this.stopRunning = stop;

		type Outcome = { stdout: string; stderr: string; exitCode: number } | { error: unknown };
		const execution: Promise<Outcome> = bash
			.exec(command, { signal: controller.signal, rawScript: true })
			.then(
				(result) => ({ stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode }),
				(error: unknown) => ({ error })
			);
		let outcome: Outcome | undefined;
		try {
			outcome = await Promise.race([execution, stopped.then(() => undefined)]);
			outcome ??= await Promise.race([execution, delay(stopGraceMs)]);
		} finally {
			clearTimeout(timer);
			options.signal?.removeEventListener('abort', onAbort);
			this.stopRunning = undefined;
			// Whatever still runs (a command ignoring cancellation) may no longer write.
			adapter.revoke('the command has already finished');
		}

		let output = '';
		let exitCode = 124;
		if (outcome && 'error' in outcome) {
			output = `bash: ${describeError(outcome.error)}\n`;
			exitCode = 1;
		} else if (outcome) {
			output = outcome.stdout + outcome.stderr;
			exitCode = outcome.exitCode;
			if (exitCode === 124 && outcome.stderr.includes('execution deadline'))
				stopReason ??= 'timeout';
		}
		const changes = await recorder.collectChanges();
		this.fs.notify(changes.map(({ type, path }) => ({ type, path })));
		return finish({ exitCode, output, changes }, stopReason, timeoutMs, options);
	}

	private async resolveCwd(cwd: string | undefined): Promise<string> {
		const path = normalizeWorkspacePath(cwd ?? '');
		const info = await this.files.stat(path);
		if (info?.kind !== 'directory') {
			throw new Error(
				`Cannot run the command in '${cwd}': ${info ? 'it is a file' : 'no such folder'} in the workspace`
			);
		}
		return path;
	}

	private assertNotDisposed(): void {
		if (this.disposed) throw new Error('This local sandbox has been disposed');
	}
}

function finish(
	result: { exitCode: number; output: string; changes: FileChange[] },
	stopReason: StopReason | undefined,
	timeoutMs: number,
	options: ExecOptions
): ExecResult {
	let { output, exitCode } = result;
	if (stopReason) {
		exitCode = 124;
		const separator = output === '' || output.endsWith('\n') ? '' : '\n';
		output += `${separator}${stopMessage(stopReason, timeoutMs)}\n`;
	}
	if (output !== '' && options.onOutput) {
		try {
			options.onOutput(output);
		} catch {
			// A failing display callback must not turn a finished command into a failed one.
		}
	}
	return { exitCode, output, changes: result.changes, interrupted: stopReason !== undefined };
}

function stopMessage(reason: StopReason, timeoutMs: number): string {
	switch (reason) {
		case 'timeout':
			return `Command timed out after ${timeoutMs} ms and was stopped (exit code 124).`;
		case 'aborted':
			return 'Command was cancelled (exit code 124).';
		case 'disposed':
			return 'Command was stopped because the sandbox was closed (exit code 124).';
	}
}

function checkTimeout(timeoutMs: number): number {
	if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
		throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
	}
	return Math.ceil(timeoutMs);
}

function describeError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function delay(milliseconds: number): Promise<undefined> {
	return new Promise((resolve) => setTimeout(() => resolve(undefined), milliseconds));
}
