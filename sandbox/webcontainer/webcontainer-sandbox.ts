import type {
	ChangeProposal,
	EntryChange,
	ExecOptions,
	ExecResult,
	FileChange,
	SandboxCapabilities
} from '../../hooks/tools/sandbox-ports.js';
import type { Sandbox, ShellSession } from '../sandbox.js';
import { normalizeWorkspacePath } from '../workspace-path.js';
import { TerminalTextCleaner } from './terminal-text.js';
import {
	loadWebContainerApi,
	type ContainerInstance,
	type WebContainerApi,
	type WebContainerProcess
} from './webcontainer-api.js';
import { WebContainerFileSystem } from './webcontainer-file-system.js';
import { checkTerminalSize, WebContainerPtySession } from './webcontainer-pty-session.js';
import { countTreeFiles, toFileSystemTree } from './workspace-file-tree.js';
import { fileChangesOf } from '../local/overlay-workspace-files.js';
import {
	diffEntrySnapshots,
	restoreEntries,
	takeEntrySnapshot
} from './workspace-entry-snapshot.js';

export type WorkspaceFilesSource =
	Readonly<Record<string, Uint8Array>> | (() => Promise<Readonly<Record<string, Uint8Array>>>);

export type WebContainerStartStage = 'booting' | 'mounting' | 'ready';

export interface WebContainerSandboxOptions {
	/** The workspace to mount (path → bytes), or a function that reads it (e.g. from IndexedDB). */
	files: WorkspaceFilesSource;
	/** How long `WebContainer.boot()` may take; 20 s by default. Offline it never settles. */
	bootTimeoutMs?: number;
	/** Timeout of an `exec` that passes none; 120 s by default (npm install takes a while). */
	defaultTimeoutMs?: number;
	onProgress?: (stage: WebContainerStartStage, detail?: string) => void;
	/** StackBlitz API key, required on some non-localhost origins; applied before the first boot. */
	apiKey?: string;
	/** A dev server in the container is listening (for a preview). */
	onServerReady?: (port: number, url: string) => void;
	/** An internal error the container reported after it started. */
	onContainerError?: (message: string) => void;
	/** The @webcontainer/api module; tests pass a fake. Loaded lazily when omitted. */
	webContainerApi?: WebContainerApi;
	/** How long our own fs operations' watch events count as echoes; 300 ms by default. */
	echoWindowMs?: number;
}

export const defaultBootTimeoutMs = 20_000;
export const defaultWebContainerTimeoutMs = 120_000;
const defaultEchoWindowMs = 300;
/** After a kill, how long the process gets to report its exit before we stop waiting. */
const killGraceMs = 1_000;
/** After the exit, how long the output stream gets to deliver its last chunks. */
const outputGraceMs = 1_000;
/** Output kept per command; more is cut with a note (a runaway loop must not fill memory). */
const maximumOutputCharacters = 10 * 1024 * 1024;

export const webContainerSandboxDescription =
	'real Node.js and npm in the browser (WebContainer); the shell is jsh: no grep, sed, awk or ' +
	'sleep, so use node -e or npm scripts for text processing';

/**
 * Commands jsh offers, as listed by StackBlitz's own bolt.new system prompt (there is no official
 * list); plus npm, npx and the shell's `cd` and `echo`.
 */
export const webContainerCommands: readonly string[] = Object.freeze(
	[
		'alias',
		'cat',
		'cd',
		'chmod',
		'clear',
		'command',
		'cp',
		'curl',
		'echo',
		'env',
		'exit',
		'export',
		'false',
		'getconf',
		'head',
		'hostname',
		'jq',
		'kill',
		'ln',
		'ls',
		'mkdir',
		'mv',
		'node',
		'npm',
		'npx',
		'ps',
		'pwd',
		'python3',
		'rm',
		'rmdir',
		'sort',
		'source',
		'tail',
		'touch',
		'true',
		'uptime',
		'which',
		'xxd'
	].sort()
);

export type WebContainerStartFailure =
	'timeout' | 'busy' | 'stuck' | 'boot-failed' | 'mount-failed';

/** Why a WebContainer sandbox did not start; `reason` lets the app word its fallback notice. */
export class WebContainerStartError extends Error {
	constructor(
		readonly reason: WebContainerStartFailure,
		message: string,
		options?: { cause?: unknown }
	) {
		super(message, options);
		this.name = 'WebContainerStartError';
	}
}

/**
 * WebContainer allows one instance per page, and a boot that never settled keeps the library's
 * own boot lock forever (a later boot() would wait behind it): both are remembered here.
 */
let pageState: 'idle' | 'starting' | 'running' | 'stuck' = 'idle';
let apiKeyConfigured = false;

/**
 * Boots a WebContainer (with our own timeout), mounts the workspace and returns it as a Sandbox.
 * Rejects with a WebContainerStartError: `timeout` (boot did not settle in time; the page must be
 * reloaded before another try), `busy` (one is already running in this page), `stuck` (an earlier
 * boot never settled), `boot-failed` (e.g. the page is not cross-origin isolated) or
 * `mount-failed`. Invalid options throw a TypeError or RangeError before anything boots.
 */
export async function createWebContainerSandbox(
	options: WebContainerSandboxOptions
): Promise<Sandbox> {
	if (typeof options !== 'object' || options === null) {
		throw new TypeError('createWebContainerSandbox needs options with the workspace `files`');
	}
	const bootTimeoutMs = checkTimeout(
		options.bootTimeoutMs ?? defaultBootTimeoutMs,
		'bootTimeoutMs'
	);
	const defaultTimeoutMs = checkTimeout(
		options.defaultTimeoutMs ?? defaultWebContainerTimeoutMs,
		'defaultTimeoutMs'
	);
	const echoWindowMs = options.echoWindowMs ?? defaultEchoWindowMs;
	if (!Number.isFinite(echoWindowMs) || echoWindowMs < 0) {
		throw new RangeError(`echoWindowMs must be zero or more milliseconds, got ${echoWindowMs}`);
	}
	if (
		typeof options.files !== 'function' &&
		(typeof options.files !== 'object' || !options.files)
	) {
		throw new TypeError(
			'`files` must map workspace paths to Uint8Array, or be a function returning that'
		);
	}
	if (pageState === 'starting' || pageState === 'running') {
		throw new WebContainerStartError(
			'busy',
			'A WebContainer sandbox is already running in this page (WebContainer allows one per page); dispose it before starting another'
		);
	}
	if (pageState === 'stuck') {
		throw new WebContainerStartError(
			'stuck',
			'An earlier WebContainer boot never finished (StackBlitz servers unreachable?); reload the page to try again'
		);
	}
	pageState = 'starting';
	const progress = (stage: WebContainerStartStage, detail?: string) => {
		try {
			options.onProgress?.(stage, detail);
		} catch {
			// A broken progress display must not stop the start.
		}
	};

	let container: ContainerInstance | undefined;
	try {
		// The files come first: a bad workspace should fail before an expensive boot.
		const files = typeof options.files === 'function' ? await options.files() : options.files;
		const tree = toFileSystemTree(files);
		const api = options.webContainerApi ?? (await loadWebContainerApi());
		if (options.apiKey && !apiKeyConfigured) {
			api.configureAPIKey(options.apiKey);
			apiKeyConfigured = true;
		}

		progress('booting');
		container = await bootWithTimeout(api, bootTimeoutMs);

		const fileCount = countTreeFiles(tree);
		progress('mounting', `${fileCount} file${fileCount === 1 ? '' : 's'}`);
		try {
			await container.mount(tree);
		} catch (error) {
			throw new WebContainerStartError(
				'mount-failed',
				`WebContainer started but the workspace could not be mounted: ${describeError(error)}`,
				{ cause: error }
			);
		}
		const sandbox = new WebContainerSandbox(container, defaultTimeoutMs, echoWindowMs, options);
		pageState = 'running';
		progress('ready');
		return sandbox;
	} catch (error) {
		if (container) tearDown(container);
		// A timed-out boot left the page 'stuck'; anything else frees it for another try.
		if (pageState === 'starting') pageState = 'idle';
		throw error;
	}
}

async function bootWithTimeout(
	api: WebContainerApi,
	timeoutMs: number
): Promise<ContainerInstance> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const boot = Promise.resolve().then(() =>
		// require-corp: our pages are isolated with it (Safari has no credentialless).
		api.WebContainer.boot({ coep: 'require-corp', workdirName: 'workspace' })
	);
	const timedOut = new Promise<'timeout'>((resolve) => {
		timer = setTimeout(() => resolve('timeout'), timeoutMs);
	});
	let outcome: ContainerInstance | 'timeout';
	try {
		outcome = await Promise.race([boot, timedOut]);
	} catch (error) {
		throw new WebContainerStartError(
			'boot-failed',
			`WebContainer could not start: ${describeError(error)}`,
			{ cause: error }
		);
	} finally {
		clearTimeout(timer);
	}
	if (outcome !== 'timeout') return outcome;

	pageState = 'stuck';
	// Should the boot finish after all, nobody uses that container: free it and the page.
	boot.then(
		(late) => {
			tearDown(late);
			if (pageState === 'stuck') pageState = 'idle';
		},
		() => {
			if (pageState === 'stuck') pageState = 'idle';
		}
	);
	throw new WebContainerStartError(
		'timeout',
		`WebContainer did not start within ${formatSeconds(timeoutMs)} (StackBlitz servers unreachable?)`
	);
}

type StopReason = 'timeout' | 'aborted' | 'disposed';

class WebContainerSandbox implements Sandbox {
	readonly kind = 'webcontainer' as const;
	readonly fs: WebContainerFileSystem;
	readonly capabilities: SandboxCapabilities = {
		kind: 'webcontainer',
		description: webContainerSandboxDescription,
		commands: [...webContainerCommands]
	};
	private readonly shells = new Set<WebContainerPtySession>();
	private readonly unsubscribes: (() => void)[] = [];
	private queue: Promise<unknown> = Promise.resolve();
	private stopRunning: ((reason: StopReason) => void) | undefined;
	private disposed = false;
	/** Set when a refused command's changes could not be undone: agents may no longer use it. */
	private ungovernedBecause: string | undefined;

	constructor(
		private readonly container: ContainerInstance,
		private readonly defaultTimeoutMs: number,
		echoWindowMs: number,
		options: WebContainerSandboxOptions
	) {
		this.fs = new WebContainerFileSystem(container, {
			echoWindowMs,
			assertUsable: () => this.assertNotDisposed()
		});
		this.fs.startWatching();
		const { onServerReady, onContainerError } = options;
		if (onServerReady) {
			this.unsubscribes.push(container.on('server-ready', (port, url) => onServerReady(port, url)));
		}
		if (onContainerError) {
			this.unsubscribes.push(container.on('error', (error) => onContainerError(error.message)));
		}
	}

	exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
		// One command at a time: each compares the workspace before and after itself.
		const run = this.queue.then(() => this.run(command, options));
		this.queue = run.catch(() => undefined);
		return run;
	}

	async openShell(size: { cols: number; rows: number }): Promise<ShellSession> {
		this.assertNotDisposed();
		checkTerminalSize(size);
		const process = await this.container.spawn('jsh', ['--osc'], {
			terminal: { cols: size.cols, rows: size.rows }
		});
		if (this.disposed) {
			process.kill();
			this.assertNotDisposed();
		}
		const session = new WebContainerPtySession(process, (closed) => this.shells.delete(closed));
		this.shells.add(session);
		return session;
	}

	async dispose(): Promise<void> {
		if (this.disposed) return;
		this.disposed = true;
		this.stopRunning?.('disposed');
		for (const shell of [...this.shells]) shell.dispose();
		for (const unsubscribe of this.unsubscribes.splice(0)) {
			try {
				unsubscribe();
			} catch {
				// The container is going away anyway.
			}
		}
		this.fs.close();
		await this.queue;
		tearDown(this.container);
		pageState = 'idle';
	}

	private async run(command: string, options: ExecOptions): Promise<ExecResult> {
		this.assertNotDisposed();
		if (typeof command !== 'string') throw new TypeError('exec expects the command as a string');
		const timeoutMs = checkTimeout(options.timeoutMs ?? this.defaultTimeoutMs, 'timeoutMs');
		const cwd = await this.resolveCwd(options.cwd);
		const output = new OutputCollector(options.onOutput);
		if (options.signal?.aborted) return finish(output, 124, [], 'aborted', timeoutMs);

		if (this.ungovernedBecause) {
			throw new Error(
				`This WebContainer sandbox can no longer run governed commands: ${this.ungovernedBecause}`
			);
		}
		const before = await takeEntrySnapshot(this.container.fs);
		if (options.signal?.aborted) return finish(output, 124, [], 'aborted', timeoutMs);
		let process: WebContainerProcess;
		try {
			process = await this.container.spawn('jsh', ['-c', command], {
				...(cwd === '' ? {} : { cwd }),
				// npx and npm init must not wait for a "y" nobody can type.
				env: { npm_config_yes: 'true' }
			});
		} catch (error) {
			throw new Error(`WebContainer could not start the command: ${describeError(error)}`, {
				cause: error
			});
		}

		let stopReason: StopReason | undefined;
		let signalStopped: () => void = () => {};
		const stopped = new Promise<void>((resolve) => (signalStopped = resolve));
		const stop = (reason: StopReason) => {
			if (stopReason) return;
			stopReason = reason;
			try {
				process.kill();
			} catch {
				// Already gone.
			}
			signalStopped();
		};
		const timer = setTimeout(() => stop('timeout'), timeoutMs);
		const onAbort = () => stop('aborted');
		options.signal?.addEventListener('abort', onAbort, { once: true });
		this.stopRunning = stop;

		const reader = process.output.getReader();
		const cleaner = new TerminalTextCleaner();
		const drained = (async () => {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) return;
				output.add(cleaner.push(value));
			}
		})().catch(() => undefined);

		const exited = process.exit.then(
			(code) => ({ code }),
			(error: unknown) => ({ error })
		);
		let exit: { code: number } | { error: unknown } | undefined;
		try {
			exit = await Promise.race([exited, stopped.then(() => undefined)]);
			exit ??= await within(exited, killGraceMs);
			await within(drained, outputGraceMs);
		} finally {
			clearTimeout(timer);
			options.signal?.removeEventListener('abort', onAbort);
			this.stopRunning = undefined;
			reader.cancel().catch(() => undefined);
		}
		output.add(cleaner.flush());

		let exitCode = 124;
		if (!stopReason && exit && 'code' in exit) exitCode = exit.code;
		else if (!stopReason && exit && 'error' in exit) {
			output.add(`\njsh: ${describeError(exit.error)}\n`);
			exitCode = 1;
		}
		const proposed = diffEntrySnapshots(before, await takeEntrySnapshot(this.container.fs));
		const committed = await this.settle(proposed, options.review);
		const changes = fileChangesOf(committed);
		this.fs.notify(changes.map(({ type, path }) => ({ type, path })));
		return {
			...finish(output, exitCode, changes, stopReason, timeoutMs),
			entries: committed,
			refused: proposed.filter((entry) => !committed.includes(entry))
		};
	}

	/**
	 * The command's transaction on a backend that cannot run on a copy: its changes are already on
	 * the container's disk, so "commit these paths" means "put every other path back", as one
	 * step. When that fails the workspace holds changes nobody allowed: the sandbox refuses every
	 * further governed command and the error says so; success is never reported over it.
	 */
	private async settle(
		proposed: EntryChange[],
		review: ExecOptions['review']
	): Promise<EntryChange[]> {
		let committed: EntryChange[] | undefined;
		const proposal: ChangeProposal = {
			entries: proposed,
			commit: async (paths) => {
				if (committed) throw new Error("This command's changes were already committed");
				const chosen = new Set(paths);
				await this.restore(proposed.filter((entry) => !chosen.has(entry.path)));
				committed = proposed.filter((entry) => chosen.has(entry.path));
			}
		};
		try {
			// No review, no commit (see ExecOptions.review): everything is put back.
			if (review) await review(proposal);
		} finally {
			// A review that committed nothing (or failed) discards everything.
			if (!committed) {
				committed = [];
				await this.restore(proposed);
			}
		}
		return committed;
	}

	private async restore(entries: EntryChange[]): Promise<void> {
		if (entries.length === 0) return;
		try {
			await restoreEntries(this.container.fs, entries);
		} catch (error) {
			this.ungovernedBecause =
				`restoring ${entries.map((entry) => entry.path).join(', ')} after a refused command ` +
				`failed (${describeError(error)}); the workspace may hold changes nobody allowed. ` +
				'Reload the page to start a fresh sandbox.';
			throw new Error(`The refused changes could not be undone: ${this.ungovernedBecause}`, {
				cause: error
			});
		}
	}

	private async resolveCwd(cwd: string | undefined): Promise<string> {
		const path = normalizeWorkspacePath(cwd ?? '');
		const kind = await this.fs.kindOf(path);
		if (kind !== 'directory') {
			throw new Error(
				`Cannot run the command in '${cwd}': ${kind ? 'it is a file' : 'no such folder'} in the workspace`
			);
		}
		return path;
	}

	private assertNotDisposed(): void {
		if (this.disposed) throw new Error('This WebContainer sandbox has been disposed');
	}
}

/** Collects a command's output and streams the same text to `onOutput`. */
class OutputCollector {
	text = '';
	private truncated = false;

	constructor(private readonly onOutput: ((chunk: string) => void) | undefined) {}

	add(chunk: string): void {
		if (chunk === '' || this.truncated) return;
		let accepted = chunk;
		if (this.text.length + chunk.length > maximumOutputCharacters) {
			this.truncated = true;
			accepted =
				chunk.slice(0, Math.max(0, maximumOutputCharacters - this.text.length)) +
				`\n[output cut at ${maximumOutputCharacters} characters]\n`;
		}
		this.text += accepted;
		if (!this.onOutput) return;
		try {
			this.onOutput(accepted);
		} catch {
			// A failing display callback must not turn a running command into a failed one.
		}
	}
}

function finish(
	output: OutputCollector,
	exitCode: number,
	changes: FileChange[],
	stopReason: StopReason | undefined,
	timeoutMs: number
): ExecResult {
	if (stopReason) {
		const separator = output.text === '' || output.text.endsWith('\n') ? '' : '\n';
		output.add(`${separator}${stopMessage(stopReason, timeoutMs)}\n`);
	}
	return {
		exitCode: stopReason ? 124 : exitCode,
		output: output.text,
		changes,
		interrupted: stopReason !== undefined
	};
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

function tearDown(container: ContainerInstance): void {
	try {
		container.teardown();
	} catch {
		// "already torn down" is the state we want.
	}
}

function checkTimeout(timeoutMs: number, name: string): number {
	if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
		throw new RangeError(`${name} must be a positive number of milliseconds, got ${timeoutMs}`);
	}
	return Math.ceil(timeoutMs);
}

function formatSeconds(milliseconds: number): string {
	return `${Number((milliseconds / 1000).toFixed(2))} s`;
}

function describeError(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The promise's value, or undefined once `milliseconds` have passed without it. */
async function within<T>(promise: Promise<T>, milliseconds: number): Promise<T | undefined> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<undefined>((resolve) => {
		timer = setTimeout(() => resolve(undefined), milliseconds);
	});
	try {
		return await Promise.race([promise, timeout]);
	} finally {
		clearTimeout(timer);
	}
}
