/**
 * Classifies a shell command line before it runs: `read-only` (runs without asking), `destructive`
 * (may change files, the network or installed packages: needs approval) or `critical` (denied
 * outright). The level of a line is the worst of every command in it, including command
 * substitutions and the scripts given to `bash -c` or `eval`. Anything not known to be harmless,
 * and anything that cannot be parsed, is destructive: the classifier fails closed.
 */
import {
	CommandAnalysis,
	commandName,
	isDiskDevice,
	isHarmlessDevice,
	levelRank,
	type CommandContext,
	type CommandHandler,
	type CommandLevel
} from './command-analysis.js';
import { fileCommandHandlers } from './file-commands.js';
import { filterCommandHandlers } from './filter-commands.js';
import { analyzeGit } from './git-command.js';
import { packageAndNetworkHandlers } from './package-and-network-commands.js';
import { groupPipelines, tokenizeCommand, type CommandSegment } from './tokenize-command.js';

export type { CommandLevel } from './command-analysis.js';

export interface CommandClassification {
	level: CommandLevel;
	/** Plain-language reasons for the level, e.g. "`rm` deletes files". */
	reasons: string[];
	/** Paths the command will obviously write, as written in the command, for a scope pre-check. */
	writeTargets: string[];
	/**
	 * The command may write paths `writeTargets` cannot name: it changes folder first, writes to a
	 * name built from variables or substitutions, or runs something that is not read-only without
	 * a target we can see (a script, `npm run`, an unknown program). The approval says so; the
	 * command's transaction still judges every path it really wrote.
	 */
	writesUnknown: boolean;
}

/** Scripts inside scripts (`bash -c "eval '$(…)'"`) deeper than this are not worth trusting. */
const maximumNesting = 8;

export function classifyCommand(command: string): CommandClassification {
	const analysis = new CommandAnalysis();
	try {
		analyzeScript(command, 0, analysis);
	} catch (error) {
		// A bug or an absurd input must not let a command through unchecked.
		const detail = error instanceof Error ? error.message : String(error);
		analysis.destructive(`the command could not be analysed (${detail})`);
	}
	let level: CommandLevel = 'read-only';
	for (const finding of analysis.findings) {
		if (levelRank[finding.level] > levelRank[level]) level = finding.level;
	}
	const reasons = unique(
		analysis.findings.filter((finding) => finding.level === level).map((finding) => finding.reason)
	);
	if (reasons.length === 0) reasons.push('the command runs nothing');
	const writeTargets = unique(analysis.writeTargets);
	const writesUnknown =
		analysis.changedDirectory ||
		writeTargets.some((target) => /[$`*?[]/.test(target)) ||
		(level !== 'read-only' && writeTargets.length === 0);
	return { level, reasons, writeTargets, writesUnknown };
}

function unique(values: string[]): string[] {
	return [...new Set(values)];
}

// ---------------------------------------------------------------------------------------------
// Scripts and segments

/**
 * `name() { … name | name … }`: a function that pipes into itself, the classic fork bomb. Lengths
 * are bounded so a long line cannot make the regular expression backtrack for seconds.
 */
const forkBombPattern =
	/(?:^|[\s;&|])([^\s();&|{}]{1,64})\s*\(\s*\)\s*\{[^}]{0,200}?\1\s*\|&?\s*\1/;

function analyzeScript(script: string, depth: number, analysis: CommandAnalysis): void {
	if (depth > maximumNesting) {
		analysis.destructive('scripts are nested too deeply to check');
		return;
	}
	if (forkBombPattern.test(script)) {
		analysis.critical('fork bomb: a function that keeps starting copies of itself');
	}
	const tokenized = tokenizeCommand(script);
	if (tokenized.error !== undefined) {
		analysis.destructive(`the command could not be parsed (${tokenized.error})`);
	}
	for (const pipeline of groupPipelines(tokenized.segments)) {
		let fedByDownload = false;
		for (const segment of pipeline) {
			analyzeSegment(segment, { analysis, depth, segment, fedByDownload });
			if (!fedByDownload && segmentDownloads(segment, depth)) fedByDownload = true;
		}
	}
}

function analyzeSegment(segment: CommandSegment, context: CommandContext): void {
	for (const substitution of segment.substitutions) {
		analyzeScript(substitution, context.depth + 1, context.analysis);
	}
	for (const redirect of segment.redirects) {
		analyzeRedirect(redirect.operator, redirect.target, context.analysis);
	}
	analyzeCommand(segment.argv, context);
	if (directoryCommands.has(commandName(segment.argv[0] ?? ''))) context.analysis.changeDirectory();
}

const directoryCommands = new Set(['cd', 'pushd', 'popd']);

function analyzeRedirect(operator: string, target: string, analysis: CommandAnalysis): void {
	const bareOperator = operator.replace(/^\d+/, '');
	if (!bareOperator.includes('>')) return;
	// `2>&1`, `>&2` and `>&-` duplicate or close a descriptor; they write no file.
	if (bareOperator.endsWith('&') && /^(?:\d+-?|-)$/.test(target)) return;
	if (isHarmlessDevice(target)) return;
	analysis.write(target);
	if (isDiskDevice(target)) {
		analysis.critical(`redirect \`${operator}\` overwrites the device ${target}`);
		return;
	}
	analysis.destructive(`redirect \`${operator}\` writes to ${target}`);
}

// ---------------------------------------------------------------------------------------------
// Command words: reserved words, assignments and wrappers (`sudo`, `env`, `timeout`, …)

/** Shell keywords that can stand before a command (`if cmd`, `! cmd`, `{ cmd; }`, `time cmd`). */
const reservedWords = new Set([
	'if',
	'then',
	'else',
	'elif',
	'fi',
	'do',
	'done',
	'while',
	'until',
	'esac',
	'!',
	'{',
	'}',
	'time'
]);
const assignmentPattern = /^[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=/;

/**
 * Strips what stands before the real command: reserved words, `NAME=value` assignments, function
 * headers and wrappers that run their arguments as a command. Wrapper findings go to `analysis`.
 */
function unwrapCommand(argv: readonly string[], analysis: CommandAnalysis): string[] {
	let words = [...argv];
	for (;;) {
		while (words.length > 0) {
			const first = words[0]!;
			if (reservedWords.has(first) || assignmentPattern.test(first)) words = words.slice(1);
			else if (words[1] === '()') words = words.slice(2);
			else if (first === 'function' && words.length > 1) {
				words = words.slice(words[2] === '()' ? 3 : 2);
			} else break;
		}
		const first = words[0];
		if (first === undefined) return words;
		const unwrapped = unwrapWrapper(commandName(first), words, analysis);
		if (unwrapped === null) return words;
		words = unwrapped;
	}
}

/** The wrapped command's words, or `null` when `name` is not a wrapper around a command. */
function unwrapWrapper(name: string, words: string[], analysis: CommandAnalysis): string[] | null {
	const args = words.slice(1);
	switch (name) {
		case 'sudo':
		case 'doas': {
			analysis.destructive(`\`${name}\` runs a command as another user`);
			return args.slice(leadingOptionCount(args, 'ugChprtUD'));
		}
		case 'env': {
			if (
				args.some((arg) => arg === '-S' || arg.startsWith('--split-string') || /^-[^-]*S/.test(arg))
			) {
				return null;
			}
			let rest = args.slice(leadingOptionCount(args, 'uC', ['unset', 'chdir']));
			while (rest.length > 0 && assignmentPattern.test(rest[0]!)) rest = rest.slice(1);
			return rest.length > 0 ? rest : null;
		}
		case 'nice':
			return args.slice(leadingOptionCount(args, 'n', ['adjustment']));
		case 'nohup':
		case 'builtin':
		case 'exec':
			return args.length > 0 ? args : null;
		case 'stdbuf':
			return args.slice(leadingOptionCount(args, 'ioe', ['input', 'output', 'error']));
		case 'command':
			if (args.some((arg) => /^-[pvV]*[vV]/.test(arg))) return null;
			return args.length > 0 ? args.slice(leadingOptionCount(args, '')) : null;
		case 'timeout': {
			const rest = args.slice(leadingOptionCount(args, 'sk', ['signal', 'kill-after']));
			return rest.length > 1 ? rest.slice(1) : null;
		}
		default:
			return null;
	}
}

/** How many leading words are options (and their values) before a wrapped command starts. */
function leadingOptionCount(
	args: readonly string[],
	shortWithValue: string,
	longWithValue: readonly string[] = []
): number {
	let index = 0;
	while (index < args.length) {
		const arg = args[index]!;
		if (arg === '--') return index + 1;
		if (!arg.startsWith('-') || arg === '-') return index;
		index += 1;
		if (arg.startsWith('--')) {
			if (!arg.includes('=') && longWithValue.includes(arg.slice(2))) index += 1;
			continue;
		}
		// `nice -10` gives a number, not options.
		if (/^-\d+$/.test(arg)) continue;
		for (let letterIndex = 1; letterIndex < arg.length; letterIndex += 1) {
			if (shortWithValue.includes(arg[letterIndex]!)) {
				if (letterIndex === arg.length - 1) index += 1;
				break;
			}
		}
	}
	return index;
}

function analyzeCommand(argv: readonly string[], context: CommandContext): void {
	const { analysis } = context;
	if (context.depth > maximumNesting) {
		analysis.destructive('commands are nested too deeply to check');
		return;
	}
	const words = unwrapCommand(argv, analysis);
	const first = words[0];
	if (first === undefined) return;
	const name = commandName(first);
	const handler = commandHandlers.get(name);
	if (handler !== undefined) {
		handler(words, context);
		return;
	}
	if (readOnlyCommands.has(name)) {
		analysis.readOnly(`\`${name}\` does not change files`);
		return;
	}
	if (name === 'mkfs' || name.startsWith('mkfs.') || diskFormatters.has(name)) {
		analysis.critical(`\`${name}\` formats a disk and erases it`);
		return;
	}
	if (name.includes('/')) {
		analysis.destructive(`\`${name}\` runs a program, which can write files`);
		return;
	}
	analysis.destructive(`\`${name}\` is not a known read-only command`);
}

// ---------------------------------------------------------------------------------------------
// Downloads piped into shells

const downloaders = new Set(['curl', 'wget']);

function segmentDownloads(segment: CommandSegment, depth: number): boolean {
	const words = unwrapCommand(segment.argv, new CommandAnalysis());
	const first = words[0];
	if (first !== undefined && downloaders.has(commandName(first))) return true;
	return segment.substitutions.some((substitution) => scriptDownloads(substitution, depth + 1));
}

function scriptDownloads(script: string, depth: number): boolean {
	if (depth > maximumNesting) return false;
	return tokenizeCommand(script).segments.some((segment) => segmentDownloads(segment, depth));
}

/** True when the segment runs a download's output as code (`sh <(curl …)`, `eval "$(curl …)"`). */
function substitutionsDownload(context: CommandContext): boolean {
	return context.segment.substitutions.some((substitution) =>
		scriptDownloads(substitution, context.depth + 1)
	);
}

// ---------------------------------------------------------------------------------------------
// Command tables

/**
 * Commands that only read or print. Commands with a risky option (`sort -o`, `sed -i`, `find
 * -delete`, …) have handlers instead; this list is consulted only after them.
 */
const readOnlyCommands = new Set(
	[
		'ls cat head tail wc grep egrep fgrep pwd echo printf diff cmp comm cut tr jq file stat',
		'du df which type basename dirname realpath readlink true false test [ [[ : nl rev tac',
		'column fold fmt paste join expand unexpand seq sleep whoami id groups uname printenv',
		'base64 sha1sum sha256sum sha512sum md5sum cksum strings od hexdump expr cd pushd popd',
		'dirs export unset set shift read local declare typeset wait jobs exit return break',
		'continue help ps nproc uptime locale exec nice for case select'
	]
		.join(' ')
		.split(' ')
);

const diskFormatters = new Set(['mke2fs', 'mkswap', 'wipefs', 'fdisk', 'sfdisk', 'parted']);
const shells = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish']);
const interpreters = new Set([
	'node',
	'nodejs',
	'python',
	'python2',
	'python3',
	'deno',
	'bun',
	'ruby',
	'perl',
	'php'
]);

const commandHandlers: ReadonlyMap<string, CommandHandler> = new Map<string, CommandHandler>([
	...fileCommandHandlers,
	...filterCommandHandlers,
	...packageAndNetworkHandlers,
	['git', analyzeGit],
	['find', analyzeFind],
	['xargs', analyzeXargs],
	['eval', analyzeEval],
	['source', analyzeSource],
	['.', analyzeSource],
	...[...shells].map((name): [string, CommandHandler] => [name, analyzeShell]),
	...[...interpreters].map((name): [string, CommandHandler] => [name, analyzeInterpreter])
]);

// ---------------------------------------------------------------------------------------------
// find and xargs, which run other commands

function analyzeFind(argv: string[], context: CommandContext): void {
	const { analysis } = context;
	let changes = false;
	for (let index = 1; index < argv.length; index += 1) {
		const arg = argv[index]!;
		if (arg === '-delete') {
			changes = true;
			analysis.destructive('`find -delete` deletes the files it finds');
		} else if (arg === '-exec' || arg === '-execdir' || arg === '-ok' || arg === '-okdir') {
			const end = argv.findIndex(
				(word, position) => position > index && (word === ';' || word === '+')
			);
			const inner = argv.slice(index + 1, end === -1 ? argv.length : end);
			if (end === -1 || inner.length === 0) {
				changes = true;
				analysis.destructive(`\`find ${arg}\` has no complete command to check`);
				break;
			}
			const before = analysis.findings.length;
			analyzeInnerCommand(inner, context);
			if (analysis.findings.slice(before).some((finding) => finding.level !== 'read-only')) {
				changes = true;
			}
			index = end;
		} else if (/^-f(?:print0?|printf|ls)$/.test(arg)) {
			changes = true;
			const file = argv[index + 1];
			if (file !== undefined && !isHarmlessDevice(file)) analysis.write(file);
			analysis.destructive(`\`find ${arg}\` writes to ${file ?? 'a file'}`);
		}
	}
	if (!changes) analysis.readOnly('`find` does not change files');
}

const emptySegment: CommandSegment = { argv: [], redirects: [], substitutions: [], operator: null };

function analyzeXargs(argv: string[], context: CommandContext): void {
	let index = 1;
	while (index < argv.length) {
		const arg = argv[index]!;
		if (arg === '--') {
			index += 1;
			break;
		}
		if (!arg.startsWith('-') || arg === '-') break;
		index += 1;
		if (arg.startsWith('--')) {
			const valued = ['arg-file', 'delimiter', 'max-args', 'max-lines', 'max-procs', 'max-chars'];
			if (!arg.includes('=') && valued.includes(arg.slice(2))) index += 1;
			continue;
		}
		for (let letterIndex = 1; letterIndex < arg.length; letterIndex += 1) {
			if ('ILnPsdEa'.includes(arg[letterIndex]!)) {
				if (letterIndex === arg.length - 1) index += 1;
				break;
			}
			// `-i`, `-l`, `-e` take only an attached value.
			if ('ile'.includes(arg[letterIndex]!)) break;
		}
	}
	const inner = argv.slice(index);
	if (inner.length === 0) {
		context.analysis.readOnly('`xargs` without a command only prints its input');
		return;
	}
	analyzeInnerCommand(inner, context);
}

/**
 * Classifies a command that `find -exec` or `xargs` runs per item. Its operands include the `{}`
 * placeholder, which names no real path, so placeholder targets are dropped.
 */
function analyzeInnerCommand(inner: string[], context: CommandContext): void {
	const scratch = new CommandAnalysis();
	analyzeCommand(inner, {
		...context,
		analysis: scratch,
		depth: context.depth + 1,
		fedByDownload: false,
		segment: emptySegment
	});
	context.analysis.findings.push(...scratch.findings);
	for (const target of scratch.writeTargets) {
		if (!target.includes('{}')) context.analysis.write(target);
	}
}
// ---------------------------------------------------------------------------------------------
// Interpreters and shells: they run code, and a downloaded script piped into one is critical

const versionOrHelp = new Set(['--version', '-v', '-V', 'version', '--help', '-h']);
const codeOptions = new Set(['-e', '-E', '-p', '--eval', '--print', '-c', '-m', '-r']);

function analyzeInterpreter(argv: string[], context: CommandContext): void {
	const { analysis } = context;
	const name = commandName(argv[0]!);
	const args = argv.slice(1);
	if (args.length > 0 && args.every((arg) => versionOrHelp.has(arg))) {
		analysis.readOnly(`\`${name} ${args[0]}\` only prints`);
		return;
	}
	if (substitutionsDownload(context)) analysis.critical(`\`${name}\` runs a downloaded script`);
	const codeOption = args.find((arg) => codeOptions.has(arg) || /^-[a-zA-Z]*e$/.test(arg));
	if (codeOption !== undefined) {
		analysis.destructive(`\`${name} ${codeOption}\` runs code, which can write files`);
		return;
	}
	const script = args.find((arg) => !arg.startsWith('-') || arg === '-');
	if (script === undefined || script === '-' || script === '/dev/stdin') {
		if (context.fedByDownload) {
			analysis.critical(`downloads a script and runs it with \`${name}\``);
		}
		analysis.destructive(`\`${name}\` runs code from its input, which can write files`);
		return;
	}
	analysis.destructive(`\`${name} ${script}\` runs a script, which can write files`);
}

function analyzeShell(argv: string[], context: CommandContext): void {
	const { analysis } = context;
	const name = commandName(argv[0]!);
	let index = 1;
	let runsCommandString = false;
	let readsInput = false;
	while (index < argv.length) {
		const arg = argv[index]!;
		if (arg === '--') {
			index += 1;
			break;
		}
		if (arg === '-' || !/^[-+]/.test(arg)) break;
		index += 1;
		if (arg.startsWith('--')) {
			if (arg === '--rcfile' || arg === '--init-file') index += 1;
			continue;
		}
		if (arg.startsWith('-') && arg.includes('c')) runsCommandString = true;
		if (arg.startsWith('-') && arg.includes('s')) readsInput = true;
		if (/[oO]$/.test(arg)) index += 1;
	}
	const operands = argv.slice(index);
	if (substitutionsDownload(context)) analysis.critical(`\`${name}\` runs a downloaded script`);
	if (runsCommandString) {
		const script = operands[0];
		if (script === undefined) {
			analysis.destructive(`\`${name} -c\` has no script to check`);
			return;
		}
		analyzeScript(script, context.depth + 1, analysis);
		return;
	}
	const first = operands[0];
	if (first === undefined || readsInput || first === '-' || first === '/dev/stdin') {
		if (context.fedByDownload) {
			analysis.critical(`downloads a script and runs it with \`${name}\``);
			return;
		}
		const inline = inlineInput(context.segment);
		if (inline !== null) {
			analyzeScript(inline, context.depth + 1, analysis);
			return;
		}
		analysis.destructive(`\`${name}\` runs commands from its input, which cannot be checked`);
		return;
	}
	analysis.destructive(`\`${name} ${first}\` runs a script, which can write files`);
}

/** The text a heredoc (`<<`) or here-string (`<<<`) gives a command as its input, if any. */
function inlineInput(segment: CommandSegment): string | null {
	for (const redirect of segment.redirects) {
		const match = /^(0?)(<<-?|<<<)$/.exec(redirect.operator);
		if (match === null) continue;
		return match[2] === '<<<' ? redirect.target : (redirect.body ?? '');
	}
	return null;
}

function analyzeEval(argv: string[], context: CommandContext): void {
	if (substitutionsDownload(context)) context.analysis.critical('`eval` runs a downloaded script');
	const script = argv.slice(1).join(' ');
	if (script.trim() === '') {
		context.analysis.readOnly('`eval` without arguments does nothing');
		return;
	}
	analyzeScript(script, context.depth + 1, context.analysis);
}

function analyzeSource(argv: string[], context: CommandContext): void {
	const name = argv[0]!;
	if (substitutionsDownload(context))
		context.analysis.critical(`\`${name}\` runs a downloaded script`);
	const file = argv[1];
	if (context.fedByDownload && (file === '/dev/stdin' || file === '-')) {
		context.analysis.critical(`downloads a script and runs it with \`${name}\``);
	}
	context.analysis.destructive(`\`${name} ${file ?? ''}\` runs a script in the current shell`);
}
