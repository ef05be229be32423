/**
 * `git`: inspecting subcommands are read-only; everything that changes the working tree, the index,
 * history, settings or the remote is destructive; force-pushing is critical.
 */
import { code, type CommandAnalysis, type CommandContext } from './command-analysis.js';
import { hasOption, parseOptions } from './parse-options.js';

const readOnlyGitSubcommands = new Set([
	'status',
	'log',
	'diff',
	'show',
	'blame',
	'annotate',
	'ls-files',
	'ls-tree',
	'ls-remote',
	'rev-parse',
	'rev-list',
	'cat-file',
	'describe',
	'shortlog',
	'whatchanged',
	'grep',
	'help',
	'version',
	'count-objects',
	'check-ignore',
	'check-attr',
	'name-rev',
	'for-each-ref',
	'merge-base',
	'show-ref',
	'show-branch',
	'diff-tree',
	'diff-files',
	'diff-index',
	'range-diff',
	'cherry',
	'var'
]);

const gitReasons: Record<string, string> = {
	commit: 'records a commit',
	checkout: 'changes files in the working tree',
	switch: 'changes files in the working tree',
	restore: 'overwrites files in the working tree',
	reset: 'moves the branch and can discard changes',
	clean: 'deletes untracked files',
	push: 'sends commits to the remote',
	pull: 'fetches and merges into the working tree',
	merge: 'changes the working tree and history',
	rebase: 'rewrites history',
	'cherry-pick': 'changes the working tree and history',
	revert: 'changes the working tree and history',
	stash: 'changes the working tree',
	apply: 'patches files',
	am: 'applies patches and commits',
	add: 'changes the index',
	rm: 'deletes files',
	mv: 'moves files',
	init: 'creates a repository',
	clone: 'downloads a repository',
	fetch: 'downloads from the remote'
};

/** Options before the subcommand that take a value: `git -C dir log`. */
const globalOptionsWithValue = ['-C', '--git-dir', '--work-tree', '--namespace', '--exec-path'];

export function analyzeGit(argv: string[], { analysis }: CommandContext): void {
	let index = 1;
	while (index < argv.length) {
		const arg = argv[index]!;
		if (!arg.startsWith('-')) break;
		index += 1;
		if (arg === '--version' || arg === '-v' || arg === '--help' || arg === '-h') {
			analysis.readOnly(`${code(`git ${arg}`)} only prints`);
			return;
		}
		if (arg === '-c' || arg === '--config-env' || arg.startsWith('--config-env=')) {
			// Configuration can name programs git then runs (pager, diff tool, aliases).
			analysis.destructive('`git -c` can make git run other commands');
			if (arg === '-c' || arg === '--config-env') index += 1;
		} else if (globalOptionsWithValue.includes(arg)) {
			index += 1;
		}
	}
	const subcommand = argv[index];
	const args = argv.slice(index + 1);
	if (subcommand === undefined) {
		analysis.readOnly('`git` without a subcommand only prints help');
		return;
	}
	const command = `git ${subcommand}`;
	if (readOnlyGitSubcommands.has(subcommand)) {
		analyzeInspection(args, command, analysis);
		return;
	}
	switch (subcommand) {
		case 'branch':
			analyzeListingOrCreation(args, command, analysis, {
				changing: branchChangingOptions,
				creates: 'creates a branch'
			});
			return;
		case 'tag':
			analyzeListingOrCreation(args, command, analysis, {
				changing: tagChangingOptions,
				creates: 'creates a tag'
			});
			return;
		case 'remote':
			if (args.length === 0 || ['-v', '--verbose', 'show', 'get-url'].includes(args[0]!)) {
				analysis.readOnly(`${code(command)} only lists remotes`);
			} else {
				analysis.destructive(`${code(`${command} ${args[0]}`)} changes the remotes`);
			}
			return;
		case 'config':
			analyzeConfig(args, command, analysis);
			return;
		case 'stash':
		case 'reflog':
		case 'worktree':
		case 'notes':
		case 'submodule':
			analyzeListingSubcommand(subcommand, args, analysis);
			return;
		case 'push':
			analyzePush(args, command, analysis);
			return;
		default:
			analysis.destructive(
				`${code(command)} ${gitReasons[subcommand] ?? 'changes the repository'}`
			);
	}
}

/** Inspecting subcommands; only `--output` (diff, log, show) makes them write a file. */
function analyzeInspection(args: string[], command: string, analysis: CommandAnalysis): void {
	args.forEach((arg, position) => {
		let output: string | undefined;
		if (arg.startsWith('--output=')) output = arg.slice('--output='.length);
		else if (arg === '--output') output = args[position + 1];
		if (output === undefined) return;
		analysis.write(output);
		analysis.destructive(`${code(`${command} --output`)} writes to ${output}`);
	});
	analysis.readOnly(`${code(command)} does not change the repository`);
}

const branchChangingOptions = [
	'd',
	'D',
	'm',
	'M',
	'c',
	'C',
	'f',
	'u',
	'delete',
	'move',
	'copy',
	'force',
	'set-upstream-to',
	'unset-upstream',
	'edit-description',
	'track',
	'no-track'
];
const tagChangingOptions = [
	'd',
	'delete',
	'f',
	'force',
	'a',
	'annotate',
	's',
	'sign',
	'm',
	'message',
	'F',
	'file',
	'u'
];
/** With these, operands of `git branch`/`git tag` are patterns or commits, not new names. */
const listingOptions = ['l', 'list', 'contains', 'no-contains', 'merged', 'no-merged', 'points-at'];

/** `git branch` and `git tag` list without arguments but create, delete or move with them. */
function analyzeListingOrCreation(
	args: string[],
	command: string,
	analysis: CommandAnalysis,
	flags: { changing: string[]; creates: string }
): void {
	const parsed = parseOptions(args, {
		longWithValue: ['sort', 'format', 'set-upstream-to', 'message', 'file']
	});
	const changing = parsed.options.find((option) => flags.changing.includes(option.name));
	if (changing !== undefined) {
		const written = changing.name.length === 1 ? `-${changing.name}` : `--${changing.name}`;
		analysis.destructive(`${code(`${command} ${written}`)} changes the repository`);
		return;
	}
	const name = parsed.operands[0];
	if (name !== undefined && !hasOption(parsed, ...listingOptions)) {
		analysis.destructive(`${code(`${command} ${name}`)} ${flags.creates}`);
		return;
	}
	analysis.readOnly(`${code(command)} only lists`);
}

/** `git stash`, `reflog`, `worktree`, `notes`, `submodule`: some actions list, the rest change. */
function analyzeListingSubcommand(
	subcommand: string,
	args: string[],
	analysis: CommandAnalysis
): void {
	const action = args.find((arg) => !arg.startsWith('-'));
	let lists: boolean;
	if (subcommand === 'reflog') lists = action === undefined || action === 'show';
	else if (subcommand === 'submodule')
		lists = action === undefined || action === 'status' || action === 'summary';
	else lists = action === 'list' || action === 'show';
	const command = action === undefined ? `git ${subcommand}` : `git ${subcommand} ${action}`;
	if (lists) analysis.readOnly(`${code(command)} only lists`);
	else
		analysis.destructive(`${code(command)} ${gitReasons[subcommand] ?? 'changes the repository'}`);
}

const configReadingOptions = [
	'get',
	'get-all',
	'get-regexp',
	'get-urlmatch',
	'list',
	'l',
	'show-origin'
];
const configWritingOptions = [
	'unset',
	'unset-all',
	'add',
	'replace-all',
	'edit',
	'e',
	'rename-section',
	'remove-section'
];

function analyzeConfig(args: string[], command: string, analysis: CommandAnalysis): void {
	const parsed = parseOptions(args, {
		shortWithValue: 'f',
		longWithValue: ['file', 'blob', 'type']
	});
	const [first] = parsed.operands;
	// `git config key` reads; `git config key value`, `set`, `unset` and `edit` write.
	const reads =
		hasOption(parsed, ...configReadingOptions) ||
		first === 'get' ||
		first === 'list' ||
		(parsed.operands.length === 1 && first !== 'set' && first !== 'unset' && first !== 'edit');
	if (reads && !hasOption(parsed, ...configWritingOptions)) {
		analysis.readOnly(`${code(command)} only reads settings`);
		return;
	}
	analysis.destructive(`${code(command)} changes settings`);
}

const forceOptions = ['f', 'force', 'force-with-lease', 'force-if-includes', 'mirror'];

function analyzePush(args: string[], command: string, analysis: CommandAnalysis): void {
	const parsed = parseOptions(args, {
		shortWithValue: 'o',
		longWithValue: ['push-option', 'receive-pack', 'exec', 'repo']
	});
	analysis.destructive(`${code(command)} sends commits to the remote`);
	const force = parsed.options.find((option) => forceOptions.includes(option.name));
	if (force !== undefined) {
		const written = force.name.length === 1 ? `-${force.name}` : `--${force.name}`;
		analysis.critical(`${code(`git push ${written}`)} overwrites history on the remote`);
	}
	const forcedRefspec = parsed.operands.find((operand) => operand.startsWith('+'));
	if (forcedRefspec !== undefined) {
		analysis.critical(
			`${code(`git push ${forcedRefspec}`)} force-overwrites history on the remote`
		);
	}
}
