import type { BashOptions, Command, IFileSystem } from 'just-bash';
import { ChangeRecorder } from './change-recorder.js';
import {
	defaultShellEnvironment,
	describeError,
	stopReasonOf,
	workspaceMountPoint,
	type ShellCommandOutcome,
	type ShellCommandRequest,
	type StopReason
} from './shell-command.js';
import type { JustBashModule } from './load-just-bash.js';
import { defaultNodeCommandLimits, type NodeCommandLimits } from './node-command.js';
import { createGitCommand } from './git/git-command.js';
import { memoryGitRepository, type OpenGitRepository } from './git/git-repository-store.js';
import { readRepositoryHead } from './git/repository-head.js';
import { explainShellLimits } from './npm/offline-messages.js';
import { createToolchainCommands, toolchainCommandNames } from './npm/toolchain-commands.js';
import { fileChangesOf, OverlayWorkspaceFiles } from './overlay-workspace-files.js';
import { createShellBaseLayout } from './shell-base-layout.js';
import {
	createShellFileMetadata,
	ShellWorkspaceAdapter,
	type ShellFileMetadata
} from './shell-workspace-adapter.js';
import type { WorkspaceFiles } from './workspace-files.js';

/** just-bash's execution limits (not exported by name from the package). */
export type ExecutionLimits = NonNullable<BashOptions['executionLimits']>;

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

/**
 * Bytes one command may write into the workspace (its copy-on-write view holds them in memory
 * until the command ends): 64 MiB, like a `node` script's writes and the shell's /tmp. A command
 * that writes more is stopped and fails (exit 1) with a sentence saying so.
 */
export const defaultMaxCommandWriteBytes = 64 * 1024 * 1024;

export interface ShellCommandRunnerOptions {
	/** Merged over `defaultLocalExecutionLimits`; `maxExecutionTimeMs` is always the timeout. */
	limits?: ExecutionLimits;
	/** Merged over `defaultNodeCommandLimits`. */
	nodeLimits?: Partial<NodeCommandLimits>;
	/** `defaultMaxCommandWriteBytes` by default; see OverlayWorkspaceFiles. */
	maxCommandWriteBytes?: number;
	/** The workspace's git repository; one in memory, for this runner's life, by default. */
	repository?: OpenGitRepository;
}

/** How long a stopped command gets to unwind before its changes are collected without it. */
const stopGraceMs = 200;

/**
 * Runs command lines in just-bash over a WorkspaceFiles store, recording what each changed. The
 * one implementation of "run a command" for both hosts: the Node/in-page sandbox calls it
 * directly, the browser's Worker calls it on its replica of the workspace.
 */
export class ShellCommandRunner {
	readonly commandNames: readonly string[];
	private readonly shellBase: IFileSystem;
	private readonly metadata: ShellFileMetadata = createShellFileMetadata();
	private readonly limits: ExecutionLimits;
	private readonly nodeLimits: NodeCommandLimits;
	private readonly maxCommandWriteBytes: number;
	private readonly repository: OpenGitRepository;
	/** HEAD's commit when the sandbox started (ShellCommandHost); set by createLocalSandbox. */
	initialRepositoryRevision: string | null = null;

	constructor(
		private readonly justBash: JustBashModule,
		private readonly files: WorkspaceFiles,
		options: ShellCommandRunnerOptions = {}
	) {
		this.commandNames = [
			...new Set([...justBash.getCommandNames(), ...toolchainCommandNames, 'git'])
		].sort();
		this.shellBase = createShellBaseLayout(justBash, this.commandNames);
		this.limits = { ...defaultLocalExecutionLimits, ...options.limits };
		this.nodeLimits = { ...defaultNodeCommandLimits, ...options.nodeLimits };
		this.maxCommandWriteBytes = options.maxCommandWriteBytes ?? defaultMaxCommandWriteBytes;
		if (!(this.maxCommandWriteBytes > 0))
			throw new RangeError('maxCommandWriteBytes must be a positive number of bytes');
		this.repository = options.repository ?? memoryGitRepository();
	}

	/** The commit the repository's HEAD names; null without a repository or a commit. */
	async repositoryRevision(): Promise<string | null> {
		try {
			return await readRepositoryHead((await this.repository()).files);
		} catch {
			return null;
		}
	}

	/** Runs one command line; `stop` (aborted with a StopReason as its reason) ends it early. */
	async run(request: ShellCommandRequest, stop: AbortSignal): Promise<ShellCommandOutcome> {
		let gitRan = false;
		const outcome = await this.runLine(request, stop, () => (gitRan = true));
		return gitRan ? { ...outcome, repositoryRevision: await this.repositoryRevision() } : outcome;
	}

	private async runLine(
		request: ShellCommandRequest,
		stop: AbortSignal,
		onGit: () => void
	): Promise<ShellCommandOutcome> {
		// How many npm/npx scripts are running: git inside one is read-only (see createGitCommand).
		const scripts = { depth: 0 };
		if (stop.aborted) return stoppedBeforeStart(stop);
		const deadline = Date.now() + request.timeoutMs;
		// The command writes into a copy-on-write overlay: nothing reaches `files` until the caller
		// has checked the proposal and committed (part of) it. What it writes is held in memory
		// until then, so past maxCommandWriteBytes the command is stopped (and fails, below).
		let writeLimitPassed: string | undefined;
		const controller = new AbortController();
		const overlay = new OverlayWorkspaceFiles(this.files, Date.now, {
			maxBytes: this.maxCommandWriteBytes,
			onExceeded: (message) => {
				writeLimitPassed = message;
				adapter.revoke(message);
				controller.abort();
			}
		});
		const recorder = new ChangeRecorder(overlay);
		const adapter = new ShellWorkspaceAdapter(
			overlay,
			recorder,
			this.metadata,
			workspaceMountPoint
		);
		const bash = new this.justBash.Bash({
			fs: new this.justBash.MountableFs({
				base: this.shellBase,
				mounts: [{ mountPoint: workspaceMountPoint, filesystem: adapter }]
			}),
			cwd: request.cwd === '' ? workspaceMountPoint : `${workspaceMountPoint}/${request.cwd}`,
			env: { ...(request.env ?? defaultShellEnvironment) },
			// just-bash checks its deadline between statements, so it also ends loops that never
			// yield to the event loop (where a timer cannot fire).
			executionLimits: { ...this.limits, maxExecutionTimeMs: request.timeoutMs },
			customCommands: [
				...createToolchainCommands({
					limits: this.nodeLimits,
					deadline,
					shouldStop: () => stop.aborted,
					commandNames: this.commandNames
				}).map((command) => countingScripts(command, scripts)),
				createGitCommand({
					repository: this.repository,
					readOnlyReason: () =>
						request.mayWriteRepository !== true
							? "only a person's terminal may do here"
							: scripts.depth > 0
								? 'an npm script may not do (the script may not be yours); type the git command itself'
								: null,
					stopped: () => stop.aborted,
					onRun: onGit
				})
			]
		});

		let stopReason: StopReason | undefined;
		let signalStopped: () => void = () => {};
		const stopped = new Promise<void>((resolve) => (signalStopped = resolve));
		const onStop = () => {
			stopReason = stopReasonOf(stop);
			adapter.revoke(`the command was stopped (${stopReason})`);
			controller.abort();
			signalStopped();
		};
		stop.addEventListener('abort', onStop, { once: true });

		type Outcome =
			| { stdout: string; stderr: string; exitCode: number; env: Record<string, string> }
			| { error: unknown };
		const execution: Promise<Outcome> = bash
			.exec(request.command, { signal: controller.signal, rawScript: true })
			.then(
				(result) => ({
					stdout: result.stdout,
					stderr: result.stderr,
					exitCode: result.exitCode,
					env: result.env
				}),
				(error: unknown) => ({ error })
			);
		let outcome: Outcome | undefined;
		try {
			outcome = await Promise.race([execution, stopped.then(() => undefined)]);
			outcome ??= await Promise.race([execution, delay(stopGraceMs)]);
		} finally {
			stop.removeEventListener('abort', onStop);
			// Whatever still runs (a command ignoring cancellation) may no longer write.
			adapter.revoke('the command has already finished');
		}

		const proposal = await overlay.proposal();
		const changes = fileChangesOf(proposal);
		if (writeLimitPassed !== undefined && !stopReason) {
			// Whatever the shell made of the refused writes (a loop may have gone on), the command
			// did not do its work: it fails, and says why.
			return {
				exitCode: 1,
				stdout: outcome && !('error' in outcome) ? outcome.stdout : '',
				// just-bash's note on the abort this runner caused says nothing the failure does not.
				stderr:
					outcome && !('error' in outcome)
						? explainShellLimits(outcome.stderr.replace(/^bash: execution aborted\n?/m, ''))
						: '',
				failure: `stopped: ${writeLimitPassed}`,
				changes,
				proposal
			};
		}
		if (!outcome) return { exitCode: 124, stdout: '', stderr: '', stopReason, changes, proposal };
		if ('error' in outcome) {
			return {
				exitCode: 1,
				stdout: '',
				stderr: '',
				failure: `bash: ${describeError(outcome.error)}`,
				...(stopReason ? { stopReason } : {}),
				changes,
				proposal
			};
		}
		if (outcome.exitCode === 124 && outcome.stderr.includes('execution deadline')) {
			stopReason ??= 'timeout';
		}
		return {
			exitCode: outcome.exitCode,
			stdout: outcome.stdout,
			stderr: explainShellLimits(outcome.stderr),
			...(stopReason ? { stopReason } : {}),
			changes,
			proposal,
			finalEnv: outcome.env
		};
	}
}

/** npm and npx run scripts from package.json: while they run, `scripts.depth` is above 0. */
function countingScripts(command: Command, scripts: { depth: number }): Command {
	if (command.name !== 'npm' && command.name !== 'npx') return command;
	return {
		...command,
		execute: async (args, context) => {
			scripts.depth++;
			try {
				return await command.execute(args, context);
			} finally {
				scripts.depth--;
			}
		}
	};
}

function stoppedBeforeStart(stop: AbortSignal): ShellCommandOutcome {
	return {
		exitCode: 124,
		stdout: '',
		stderr: '',
		stopReason: stopReasonOf(stop),
		changes: [],
		proposal: []
	};
}

function delay(milliseconds: number): Promise<undefined> {
	return new Promise((resolve) => setTimeout(() => resolve(undefined), milliseconds));
}
