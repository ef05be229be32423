/**
 * The shared state of one classification: findings (each a level with a plain-language reason) and
 * the paths commands will write. Command handlers in several files add to it.
 */
import type { CommandSegment } from './tokenize-command.js';

export type CommandLevel = 'read-only' | 'destructive' | 'critical';

export const levelRank: Record<CommandLevel, number> = {
	'read-only': 0,
	destructive: 1,
	critical: 2
};

export interface CommandFinding {
	level: CommandLevel;
	reason: string;
}

export class CommandAnalysis {
	readonly findings: CommandFinding[] = [];
	readonly writeTargets: string[] = [];

	readOnly(reason: string): void {
		this.findings.push({ level: 'read-only', reason });
	}

	destructive(reason: string): void {
		this.findings.push({ level: 'destructive', reason });
	}

	critical(reason: string): void {
		this.findings.push({ level: 'critical', reason });
	}

	/**
	 * After a `cd`, a relative target names a path relative to a folder only the shell knows: it is
	 * left out of the pre-check (which would check the wrong path and block a legitimate write) and
	 * judged by the command's transaction, which sees the real paths.
	 */
	private directoryChanged = false;

	/** A `cd` came first: relative writes after it name folders only the shell knows. */
	get changedDirectory(): boolean {
		return this.directoryChanged;
	}

	changeDirectory(): void {
		this.directoryChanged = true;
	}

	write(target: string): void {
		if (this.directoryChanged && !target.startsWith('/')) return;
		this.writeTargets.push(target);
	}
}

export interface CommandContext {
	analysis: CommandAnalysis;
	/** How many scripts deep this command sits (`bash -c`, `$( … )`, `eval`). */
	depth: number;
	/** The segment the command came from (for its heredoc and substitutions). */
	segment: CommandSegment;
	/** A download (`curl`, `wget`) feeds this command through a pipe. */
	fedByDownload: boolean;
}

/** Classifies one command; `argv[0]` is the command word as written. */
export type CommandHandler = (argv: string[], context: CommandContext) => void;

const harmlessDevices = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

/** Writing to these changes no file: output is discarded or goes to the terminal. */
export function isHarmlessDevice(path: string): boolean {
	return harmlessDevices.has(path) || /^\/dev\/fd\/\d+$/.test(path);
}

const diskDevice = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|loop|mapper\/|k?mem$|port$)/;

/** Writing to these overwrites a disk, a partition or memory directly. */
export function isDiskDevice(path: string): boolean {
	return diskDevice.test(path);
}

const systemBinaryPath = /^\/(?:usr\/)?(?:local\/)?s?bin\/([^/]+)$/;

/** The program a word names: `/usr/bin/rm` is `rm`; `./rm` stays a path (it is not the real `rm`). */
export function commandName(word: string): string {
	const system = systemBinaryPath.exec(word);
	return system ? system[1]! : word;
}

/** Wraps text in backticks for a reason, e.g. code('git push -f'). */
export function code(text: string): string {
	return `\`${text}\``;
}
