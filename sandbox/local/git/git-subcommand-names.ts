/**
 * The subcommands the offline `git` runs (git-subcommands.ts implements exactly these), apart so
 * the terminal's Tab completion can offer them without loading git's code into the page.
 */
export const gitSubcommandNames = [
	'add',
	'branch',
	'checkout',
	'commit',
	'config',
	'diff',
	'init',
	'log',
	'restore',
	'rev-parse',
	'rm',
	'show',
	'status',
	'switch'
] as const;
