import type { ChangeProposal, LineShellResult, LineShellSession } from '../sandbox.js';
import {
	defaultShellEnvironment,
	outputOf,
	workspaceMountPoint,
	type ShellCommandOutcome
} from './shell-command.js';
import type { ShellLineRunner } from './shell-line-runner.js';

/** Kept by the shell itself: carrying them over would pin state just-bash recomputes per line. */
const shellManagedVariables = new Set(['?', 'PWD', 'SHELLOPTS', 'BASHOPTS', 'OPTIND']);

/**
 * The person's terminal on the local sandbox. just-bash starts every command line with a fresh
 * working folder and environment, so the session carries them: each line runs in the folder the
 * previous one ended in, with the variables it left (every variable, exported or not, as one
 * interactive bash would keep them). The terminal stays inside the workspace: a `cd` that ends
 * above /workspace lands on /workspace (as in a chroot), one that ends elsewhere (/tmp) is undone.
 */
export class LocalLineShellSession implements LineShellSession {
	readonly mode = 'line' as const;
	private currentCwd = '';
	private environment: Record<string, string> = { ...defaultShellEnvironment };
	private readonly running = new Set<AbortController>();
	/** The lines typed in this terminal, for `history` (just-bash runs each line on its own). */
	private readonly lines: string[] = [];
	private disposed = false;

	constructor(
		private readonly sandbox: ShellLineRunner,
		private readonly timeoutMs: number,
		private readonly onDispose: () => void
	) {}

	get cwd(): string {
		return this.currentCwd;
	}

	async run(
		line: string,
		options: {
			signal?: AbortSignal;
			onOutput?: (chunk: string) => void;
			review?: (proposal: ChangeProposal) => Promise<void>;
		} = {}
	): Promise<LineShellResult> {
		if (this.disposed) throw new Error('This terminal session has been closed');
		if (typeof line !== 'string') throw new TypeError('run expects the command line as a string');
		if (line.trim() !== '') {
			this.lines.push(line);
			if (this.lines.length > historyLimit) this.lines.splice(0, this.lines.length - historyLimit);
		}
		const history = historyRequest(line);
		if (history) return this.answerHistory(history, options.onOutput);
		// Closing the session stops its line even when the caller's signal never fires.
		const controller = new AbortController();
		const forward = () => controller.abort();
		if (options.signal?.aborted) controller.abort();
		options.signal?.addEventListener('abort', forward, { once: true });
		this.running.add(controller);
		let outcome: Awaited<ReturnType<ShellLineRunner['runShellLine']>>;
		try {
			outcome = await this.sandbox.runShellLine({
				command: line,
				cwd: this.currentCwd,
				env: this.environment,
				timeoutMs: this.timeoutMs,
				signal: controller.signal,
				...(options.review ? { review: options.review } : {})
			});
		} finally {
			options.signal?.removeEventListener('abort', forward);
			this.running.delete(controller);
		}

		const notes: string[] = [];
		if (outcome.cwdWasMissing && this.currentCwd !== '') {
			notes.push(
				`bash: the folder /workspace/${this.currentCwd} no longer exists; back in /workspace`
			);
			this.currentCwd = '';
		}
		const carried = this.carryOver(outcome);
		if (carried) notes.push(carried);
		const stopNote = lineStopMessage(outcome, this.timeoutMs);
		const output = outputOf(outcome, [stopNote, ...notes].filter(Boolean).join('\n'));
		if (output !== '' && options.onOutput) {
			try {
				options.onOutput(output);
			} catch {
				// The line did run; a broken display must not hide its changes from the caller.
			}
		}
		let exitCode = outcome.exitCode;
		if (outcome.stopReason === 'aborted') exitCode = 130;
		else if (outcome.stopReason) exitCode = 124;
		return {
			exitCode,
			interrupted: outcome.stopReason !== undefined,
			changes: outcome.changes,
			entries: outcome.proposal ?? [],
			refused: outcome.refused ?? []
		};
	}

	/** `history`, `history N`, `history -c`: the session's own, as bash prints it. */
	private answerHistory(
		request: { count: number | null } | { clear: true },
		onOutput: ((chunk: string) => void) | undefined
	): LineShellResult {
		let output = '';
		if ('clear' in request) this.lines.length = 0;
		else {
			const first = request.count === null ? 0 : Math.max(0, this.lines.length - request.count);
			for (let index = first; index < this.lines.length; index++) {
				output += `${String(index + 1).padStart(5)}  ${this.lines[index]}\n`;
			}
		}
		if (output !== '') onOutput?.(output);
		return { exitCode: 0, interrupted: false, changes: [], entries: [], refused: [] };
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		for (const controller of this.running) controller.abort();
		this.onDispose();
	}

	/** Takes the folder and variables the line ended with; a note when the folder was refused. */
	private carryOver(outcome: ShellCommandOutcome): string | undefined {
		const finalEnv = outcome.finalEnv;
		// A stopped or failed line keeps what the session had: its end state is unknown or partial.
		if (!finalEnv || outcome.stopReason || outcome.failure) return undefined;
		const environment: Record<string, string> = {};
		for (const [name, value] of Object.entries(finalEnv)) {
			if (!shellManagedVariables.has(name)) environment[name] = value;
		}
		this.environment = environment;
		const pwd = finalEnv.PWD;
		if (pwd === undefined) return undefined;
		const next = workspaceFolderOf(pwd);
		if (next !== undefined) {
			this.currentCwd = next;
			return undefined;
		}
		if (isAncestorOfMountPoint(pwd)) {
			this.currentCwd = '';
			return undefined;
		}
		return `cd: the terminal stays inside /workspace (${pwd} is outside it)`;
	}
}

/** The workspace-relative folder for a shell path inside /workspace; undefined outside it. */
function workspaceFolderOf(shellPath: string): string | undefined {
	if (shellPath === workspaceMountPoint) return '';
	if (!shellPath.startsWith(`${workspaceMountPoint}/`)) return undefined;
	return shellPath
		.slice(workspaceMountPoint.length + 1)
		.split('/')
		.filter((segment) => segment !== '' && segment !== '.')
		.join('/');
}

function isAncestorOfMountPoint(shellPath: string): boolean {
	const normalized = shellPath.replace(/\/+$/, '') || '/';
	return normalized === '/' || workspaceMountPoint.startsWith(`${normalized}/`);
}

/** What the terminal shows when a line was stopped; Ctrl+C needs no words (the terminal shows ^C). */
function lineStopMessage(outcome: ShellCommandOutcome, timeoutMs: number): string {
	const discarded = outcome.changesDiscarded
		? 'The command did not stop when asked: the shell was restarted and the file changes it had made were discarded.'
		: '';
	switch (outcome.stopReason) {
		case undefined:
			return '';
		case 'aborted':
			return discarded;
		case 'timeout':
			return `Stopped after ${Math.round(timeoutMs / 1000)} s, the time limit of a terminal command.${discarded ? ` ${discarded}` : ''}`;
		case 'disposed':
			return `Stopped because the sandbox was closed.${discarded ? ` ${discarded}` : ''}`;
	}
}

const historyLimit = 1000;

/** A line that is only `history` (optionally a count, or -c); anything else runs in the shell. */
function historyRequest(line: string): { count: number | null } | { clear: true } | null {
	const match = /^\s*history(?:\s+(-c|\d+))?\s*$/.exec(line);
	if (!match) return null;
	if (match[1] === '-c') return { clear: true };
	return { count: match[1] === undefined ? null : Number(match[1]) };
}
