import { countChangedLines, formatFilePatch } from './git-patch.js';
import { branchNameProblem, isGovernedByTheCore, unsafeSegment } from './git-path-rules.js';
import { GitCommandError, type GitSession } from './git-session.js';
import {
	changedFiles,
	collapseUntracked,
	ignoredAsGovernance,
	longStatus,
	shortStatus
} from './git-status.js';

/**
 * The git subcommands the offline shell runs, on isomorphic-git. Each returns what it prints
 * (stdout) or throws GitCommandError; `writes` says whether it may change the repository or the
 * working tree for these arguments (agents and criteria run only the ones that do not).
 */
export interface GitSubcommand {
	writes(args: readonly string[]): boolean;
	/** What it prints: stdout, or stdout and warnings for stderr. */
	run(session: GitSession, args: readonly string[]): Promise<string | GitOutput>;
}

export interface GitOutput {
	stdout: string;
	stderr: string;
}

const always = () => true;
const never = () => false;

export const gitSubcommands: Record<string, GitSubcommand> = {
	init: { writes: always, run: init },
	status: { writes: never, run: status },
	add: { writes: always, run: add },
	rm: { writes: always, run: remove },
	commit: { writes: always, run: commit },
	log: { writes: never, run: log },
	show: { writes: never, run: show },
	diff: { writes: never, run: diff },
	branch: {
		writes: (args) => positional(args).length > 0 || args.some((arg) => /^-[dDmM]$/.test(arg)),
		run: branch
	},
	checkout: { writes: always, run: checkout },
	switch: { writes: always, run: switchBranch },
	restore: { writes: always, run: restore },
	'rev-parse': { writes: never, run: revParse },
	config: {
		writes: (args) =>
			!args.some((arg) => arg === '--get' || arg === '--list' || arg === '-l') &&
			positional(args).length >= 2,
		run: config
	}
};

/** What `git` says for the commands it knows but cannot run here. */
export function unsupportedSubcommandMessage(name: string): string {
	if (['push', 'pull', 'fetch', 'clone', 'remote', 'ls-remote', 'submodule'].includes(name))
		return `git ${name} needs a remote repository and the network, which the offline sandbox does not have. Export the workspace as a zip to take it elsewhere.`;
	return `git ${name} is not available in the offline sandbox. It runs: ${Object.keys(gitSubcommands).sort().join(', ')}.`;
}

/** Whether a repository path is a pathspec (a file, a folder, or '' for the whole tree) or under it. */
function isWithin(path: string, pathspec: string): boolean {
	return pathspec === '' || path === pathspec || path.startsWith(`${pathspec}/`);
}

function positional(args: readonly string[]): string[] {
	return args.filter((arg) => !arg.startsWith('-'));
}

/** Arguments after a `--` are paths even when they start with a dash. */
function splitPaths(args: readonly string[]): { options: string[]; paths: string[] } {
	const separator = args.indexOf('--');
	const before = separator === -1 ? [...args] : args.slice(0, separator);
	const after = separator === -1 ? [] : args.slice(separator + 1);
	return {
		options: before.filter((arg) => arg.startsWith('-')),
		paths: [...before.filter((arg) => !arg.startsWith('-')), ...after]
	};
}

function rejectUnknownOptions(
	command: string,
	options: readonly string[],
	known: readonly string[]
): void {
	const unknown = options.find(
		(option) => !known.includes(option) && !known.includes(option.split('=')[0] as string)
	);
	if (unknown)
		throw new GitCommandError(
			`error: unknown option '${unknown.replace(/^-+/, '')}' for git ${command} (the offline git knows: ${known.join(' ') || 'no options'})`,
			129
		);
}

async function init(session: GitSession, args: readonly string[]): Promise<string> {
	let branchName = 'main';
	let quiet = false;
	for (let index = 0; index < args.length; index++) {
		const arg = args[index] as string;
		if (arg === '-b' || arg === '--initial-branch') branchName = args[++index] ?? branchName;
		else if (arg.startsWith('--initial-branch='))
			branchName = arg.slice('--initial-branch='.length);
		else if (arg === '-q' || arg === '--quiet') quiet = true;
		else if (arg === '.' || arg === session.dir) continue;
		else
			throw new GitCommandError(
				`fatal: git init here always creates the workspace's repository (at ${session.dir}); '${arg}' is not supported`
			);
	}
	const problem = branchNameProblem(branchName);
	if (problem) throw new GitCommandError(problem);
	if (await session.isRepository())
		return quiet ? '' : `Reinitialized existing Git repository in ${session.dir}/.git/\n`;
	await session.git.init({ ...session.base, defaultBranch: branchName });
	return quiet ? '' : `Initialized empty Git repository in ${session.dir}/.git/\n`;
}

async function status(session: GitSession, args: readonly string[]): Promise<string> {
	await session.requireRepository();
	const { options, paths } = splitPaths(args);
	rejectUnknownOptions('status', options, ['-s', '--short', '--porcelain', '-b', '--branch']);
	const rows = await session.statusRows(paths.map((path) => session.repositoryPath(path)));
	const tracked = new Set(
		rows.filter(([, head, , stage]) => head !== 0 || stage !== 0).map(([path]) => path)
	);
	const files = collapseUntracked(changedFiles(rows), tracked);
	const short = options.some((option) => ['-s', '--short', '--porcelain'].includes(option));
	if (short) {
		const header = options.some((option) => option === '-b' || option === '--branch')
			? `## ${(await session.currentBranch()) ?? 'HEAD (no branch)'}\n`
			: '';
		return header + shortStatus(files);
	}
	return longStatus(files, {
		branch: await session.currentBranch(),
		headOid: await session.headOid()
	});
}

async function add(session: GitSession, args: readonly string[]): Promise<GitOutput> {
	await session.requireRepository();
	const { options, paths } = splitPaths(args);
	rejectUnknownOptions('add', options, [
		'-A',
		'--all',
		'-u',
		'--update',
		'-v',
		'--verbose',
		'-f',
		'--force'
	]);
	const force = options.includes('-f') || options.includes('--force');
	const all = options.includes('-A') || options.includes('--all');
	const updateOnly = options.includes('-u') || options.includes('--update');
	if (paths.length === 0 && !all && !updateOnly)
		throw new GitCommandError(
			"Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?",
			1
		);
	const repositoryPaths = paths.map((path) => session.repositoryPath(path));
	const rows = await session.statusRows(repositoryPaths, { withIgnored: force });
	const ignored: string[] = [];
	for (const [argument, path] of paths.map(
		(path, index) => [path, repositoryPaths[index] as string] as const
	)) {
		const matches = rows.some(([file]) => isWithin(file, path));
		if (matches) continue;
		const ignoredRows = force
			? []
			: (await session.statusRows([path], { withIgnored: true })).filter(ignoredAsGovernance);
		if (ignoredRows.length > 0) ignored.push(argument);
		else throw new GitCommandError(`fatal: pathspec '${argument}' did not match any files`);
	}
	if (ignored.length)
		throw new GitCommandError(
			`The following paths are ignored (governance files, kept by the IDE's ledger):\n${ignored.join('\n')}\nhint: Use -f if you really want to add them.`,
			1
		);
	const added: string[] = [];
	const warnings: string[] = [];
	for (const [path, head, workdir, stage] of rows) {
		if (updateOnly && head === 0 && stage === 0) continue;
		const unsafe = unsafeSegment(path);
		if (unsafe !== null) {
			// git refuses such a name in a tree; stored, it would make the repository unreadable.
			if (repositoryPaths.includes(path))
				throw new GitCommandError(
					`error: invalid path '${path}'\nerror: unable to add '${path}' to index`
				);
			warnings.push(`warning: skipped '${path}': git cannot store a file named '${unsafe}'`);
			continue;
		}
		if (workdir === 0) {
			if (stage !== 0) {
				await session.git.remove({ ...session.base, filepath: path });
				added.push(`remove '${path}'`);
			}
		} else if (stage !== 2 && !(stage === 1 && workdir === 1)) {
			await session.git.add({ ...session.base, filepath: path });
			added.push(`add '${path}'`);
		}
	}
	const verbose = options.includes('-v') || options.includes('--verbose');
	return {
		stdout: verbose ? added.map((line) => `${line}\n`).join('') : '',
		stderr: warnings.map((line) => `${line}\n`).join('')
	};
}

async function remove(session: GitSession, args: readonly string[]): Promise<string> {
	await session.requireRepository();
	const { options, paths } = splitPaths(args);
	rejectUnknownOptions('rm', options, ['--cached', '-r', '-f', '--force', '-q', '--quiet']);
	if (paths.length === 0) throw new GitCommandError('usage: git rm [--cached] [-r] <file>...', 129);
	const cachedOnly = options.includes('--cached');
	const recursive = options.includes('-r');
	const quiet = options.includes('-q') || options.includes('--quiet');
	const index = await session.indexEntries();
	const out: string[] = [];
	for (const argument of paths) {
		const path = session.repositoryPath(argument);
		const inside = [...index.keys()].filter((file) => isWithin(file, path));
		if (inside.length === 0)
			throw new GitCommandError(`fatal: pathspec '${argument}' did not match any files`);
		if (!index.has(path) && !recursive)
			throw new GitCommandError(`fatal: not removing '${argument}' recursively without -r`);
		if (!cachedOnly) refuseGovernancePaths('rm', inside);
		for (const file of inside) {
			await session.git.remove({ ...session.base, filepath: file });
			if (!cachedOnly) {
				const absolute = `${session.dir}/${file}`;
				if (await session.shell.exists(absolute)) await session.shell.rm(absolute);
			}
			out.push(`rm '${file}'`);
		}
	}
	return quiet ? '' : out.map((line) => `${line}\n`).join('');
}

async function commit(session: GitSession, args: readonly string[]): Promise<string> {
	await session.requireRepository();
	const messages: string[] = [];
	let stageTracked = false;
	let allowEmpty = false;
	let quiet = false;
	for (let index = 0; index < args.length; index++) {
		const arg = args[index] as string;
		// Short flags combine as in git: -a, -q, then -m with its value (-am "x", -qam "x", -m"x").
		const short = /^-([aq]*)(m?)(.*)$/s.exec(arg);
		if (arg === '--message' || arg.startsWith('--message=')) {
			const message = arg === '--message' ? args[++index] : arg.slice('--message='.length);
			if (message === undefined)
				throw new GitCommandError(`error: option \`message' requires a value`, 129);
			messages.push(message);
		} else if (arg === '--all') stageTracked = true;
		else if (arg === '--quiet') quiet = true;
		else if (arg === '--allow-empty') allowEmpty = true;
		else if (short && arg !== '-' && (short[2] || short[3] === '')) {
			if (short[1]?.includes('a')) stageTracked = true;
			if (short[1]?.includes('q')) quiet = true;
			if (short[2]) {
				const message = short[3] !== '' ? short[3] : args[++index];
				if (message === undefined)
					throw new GitCommandError(`error: switch \`m' requires a value`, 129);
				messages.push(message);
			}
		} else
			throw new GitCommandError(
				`error: git commit here takes -m <message>, -a and --allow-empty ('${arg}' is not supported)`,
				129
			);
	}
	if (messages.length === 0)
		throw new GitCommandError(
			'error: no commit message given: there is no editor in this terminal, so use git commit -m "what you changed"',
			1
		);
	// git's cleanup: trailing spaces and surrounding blank lines go; an empty message aborts.
	const paragraphs = messages
		.map((message) =>
			message
				.split('\n')
				.map((line) => line.trimEnd())
				.join('\n')
				.replace(/^\n+|\n+$/g, '')
		)
		.filter(Boolean);
	if (paragraphs.length === 0)
		throw new GitCommandError('Aborting commit due to empty commit message.', 1);
	if (stageTracked) {
		for (const [path, head, workdir, stage] of await session.statusRows()) {
			if (head === 0 && stage === 0) continue; // untracked: -a leaves it
			if (workdir === 0 && stage !== 0)
				await session.git.remove({ ...session.base, filepath: path });
			else if (workdir !== 0 && stage !== 2 && !(stage === 1 && workdir === 1))
				await session.git.add({ ...session.base, filepath: path });
		}
	}
	const parent = await session.headOid();
	const before = await session.treeEntries(parent);
	const after = await session.indexEntries();
	const touched = [...new Set([...before.keys(), ...after.keys()])]
		.filter((path) => before.get(path) !== after.get(path))
		.sort();
	if (touched.length === 0 && !allowEmpty) {
		const files = changedFiles(await session.statusRows());
		throw new GitCommandError(
			files.length === 0
				? `On branch ${(await session.currentBranch()) ?? 'HEAD'}\nnothing to commit, working tree clean`
				: 'no changes added to commit (use "git add" and/or "git commit -a")',
			1
		);
	}
	const author = await session.author();
	const oid = await session.git.commit({
		...session.base,
		message: `${paragraphs.join('\n\n')}\n`,
		author
	});
	let insertions = 0;
	let deletions = 0;
	for (const path of touched) {
		const counted = countChangedLines(
			await session.blob(before.get(path)),
			await session.blob(after.get(path))
		);
		insertions += counted.insertions;
		deletions += counted.deletions;
	}
	const branchName = (await session.currentBranch()) ?? 'detached HEAD';
	if (quiet) return '';
	const subject = paragraphs[0]?.split('\n')[0] ?? '';
	const counts = [
		`${touched.length} file${touched.length === 1 ? '' : 's'} changed`,
		...(insertions ? [`${insertions} insertion${insertions === 1 ? '' : 's'}(+)`] : []),
		...(deletions ? [`${deletions} deletion${deletions === 1 ? '' : 's'}(-)`] : [])
	];
	return `[${branchName}${parent ? '' : ' (root-commit)'} ${oid.slice(0, 7)}] ${subject}\n ${counts.join(', ')}\n`;
}

interface LogOptions {
	oneline: boolean;
	limit: number | undefined;
	ref: string;
}

function parseLogOptions(args: readonly string[]): LogOptions {
	const options: LogOptions = { oneline: false, limit: undefined, ref: 'HEAD' };
	for (let index = 0; index < args.length; index++) {
		const arg = args[index] as string;
		if (arg === '--oneline') options.oneline = true;
		else if (arg === '-n' || arg === '--max-count') options.limit = count(args[++index]);
		else if (arg.startsWith('--max-count=')) options.limit = count(arg.slice(12));
		else if (/^-\d+$/.test(arg)) options.limit = count(arg.slice(1));
		else if (/^-n\d+$/.test(arg)) options.limit = count(arg.slice(2));
		else if (!arg.startsWith('-')) options.ref = arg;
		else
			throw new GitCommandError(
				`error: git log here takes --oneline, -n <count> and a revision ('${arg}' is not supported)`,
				129
			);
	}
	return options;
}

function count(text: string | undefined): number {
	const value = Number(text);
	if (!Number.isInteger(value) || value < 0)
		throw new GitCommandError(`fatal: '${text ?? ''}': not a count`, 128);
	return value;
}

async function log(session: GitSession, args: readonly string[]): Promise<string> {
	await session.requireRepository();
	const options = parseLogOptions(args);
	const head = await session.headOid();
	if (!head && options.ref === 'HEAD')
		throw new GitCommandError(
			`fatal: your current branch '${(await session.currentBranch()) ?? 'HEAD'}' does not have any commits yet`
		);
	const start = await session.resolveCommit(options.ref);
	const commits = await session.git.log({
		...session.base,
		ref: start,
		...(options.limit !== undefined ? { depth: options.limit } : {})
	});
	const decorations = await decorationsOf(session);
	const shown = options.limit === undefined ? commits : commits.slice(0, options.limit);
	return shown
		.map((entry) =>
			options.oneline
				? `${entry.oid.slice(0, 7)}${decorations.get(entry.oid) ?? ''} ${entry.commit.message.split('\n')[0]}\n`
				: commitHeader(entry.oid, entry.commit, decorations.get(entry.oid) ?? '')
		)
		.join(options.oneline ? '' : '\n');
}

/** ` (HEAD -> main, other)` after the commits branches point at. */
async function decorationsOf(session: GitSession): Promise<Map<string, string>> {
	const byCommit = new Map<string, string[]>();
	const current = await session.currentBranch();
	for (const name of await session.git.listBranches({ ...session.base })) {
		const oid = await session.git.resolveRef({ ...session.base, ref: name }).catch(() => null);
		if (!oid) continue;
		const label = name === current ? `HEAD -> ${name}` : name;
		const labels = byCommit.get(oid) ?? [];
		if (name === current) labels.unshift(label);
		else labels.push(label);
		byCommit.set(oid, labels);
	}
	if (!current) {
		const head = await session.headOid();
		if (head) byCommit.set(head, ['HEAD', ...(byCommit.get(head) ?? [])]);
	}
	return new Map([...byCommit].map(([oid, labels]) => [oid, ` (${labels.join(', ')})`]));
}

interface CommitLike {
	message: string;
	author: { name: string; email: string; timestamp: number; timezoneOffset: number };
	parent: string[];
}

function commitHeader(oid: string, commit: CommitLike, decoration: string): string {
	const body = commit.message
		.replace(/\n+$/, '')
		.split('\n')
		.map((line) => (line ? `    ${line}` : ''))
		.join('\n');
	return (
		`commit ${oid}${decoration}\n` +
		(commit.parent.length > 1
			? `Merge: ${commit.parent.map((parent) => parent.slice(0, 7)).join(' ')}\n`
			: '') +
		`Author: ${commit.author.name} <${commit.author.email}>\n` +
		`Date:   ${gitDate(commit.author.timestamp, commit.author.timezoneOffset)}\n\n` +
		`${body}\n`
	);
}

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** git's default date: `Wed Nov 25 21:51:45 2026 +0000`, in the author's own zone. */
export function gitDate(timestamp: number, timezoneOffset: number): string {
	// isomorphic-git stores the offset as Date#getTimezoneOffset does: minutes west of UTC.
	const local = new Date((timestamp - timezoneOffset * 60) * 1000);
	const pad = (value: number) => String(value).padStart(2, '0');
	const east = -timezoneOffset;
	const zone = `${east < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(east) / 60))}${pad(Math.abs(east) % 60)}`;
	return (
		`${weekdays[local.getUTCDay()]} ${months[local.getUTCMonth()]} ${local.getUTCDate()} ` +
		`${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ` +
		`${local.getUTCFullYear()} ${zone}`
	);
}

async function show(session: GitSession, args: readonly string[]): Promise<string> {
	await session.requireRepository();
	const { options, paths } = splitPaths(args);
	rejectUnknownOptions('show', options, []);
	const oid = await session.resolveCommit(paths[0] ?? 'HEAD');
	const { commit: commitObject } = await session.git.readCommit({ ...session.base, oid });
	const decorations = await decorationsOf(session);
	const before = await session.treeEntries(commitObject.parent[0] ?? null);
	const after = await session.treeEntries(oid);
	const patches = await patchesBetween(session, before, after, async (path) =>
		session.blob(after.get(path))
	);
	return `${commitHeader(oid, commitObject, decorations.get(oid) ?? '')}${patches ? `\n${patches}` : ''}`;
}

/** Patches for every path whose blob differs between `before` and the `after` side. */
async function patchesBetween(
	session: GitSession,
	before: Map<string, string>,
	afterPaths: Map<string, string>,
	afterSide: (path: string) => ReturnType<GitSession['blob']>,
	within: (path: string) => boolean = () => true
): Promise<string> {
	const paths = [...new Set([...before.keys(), ...afterPaths.keys()])].filter(within).sort();
	const parts: string[] = [];
	for (const path of paths) {
		const old = await session.blob(before.get(path));
		const current = await afterSide(path);
		if (old?.oid === current?.oid) continue;
		parts.push(formatFilePatch(path, old, current));
	}
	return parts.join('');
}

async function diff(session: GitSession, args: readonly string[]): Promise<string> {
	await session.requireRepository();
	const separator = args.indexOf('--');
	const before = separator === -1 ? args : args.slice(0, separator);
	const options = before.filter((arg) => arg.startsWith('-'));
	rejectUnknownOptions('diff', options, ['--cached', '--staged']);
	const staged = options.includes('--cached') || options.includes('--staged');
	// Before `--`: up to two revisions, then paths (a name that exists as a path is a path, as in
	// git); after `--`: paths only.
	const revisions: string[] = [];
	const filters: string[] = [];
	for (const argument of before.filter((arg) => !arg.startsWith('-'))) {
		if (filters.length === 0 && revisions.length < 2 && !(await pathExists(session, argument))) {
			revisions.push(await session.resolveCommit(argument));
			continue;
		}
		filters.push(session.repositoryPath(argument));
	}
	if (separator !== -1)
		for (const argument of args.slice(separator + 1))
			filters.push(session.repositoryPath(argument));
	const within = (path: string) =>
		filters.length === 0 || filters.some((filter) => isWithin(path, filter));
	if (revisions.length === 2) {
		const [from, to] = revisions as [string, string];
		const target = await session.treeEntries(to);
		return patchesBetween(
			session,
			await session.treeEntries(from),
			target,
			(path) => session.blob(target.get(path)),
			within
		);
	}
	const against = revisions[0] ?? null;
	const index = await session.indexEntries();
	if (staged) {
		const head = await session.treeEntries(against ?? (await session.headOid()));
		return patchesBetween(session, head, index, (path) => session.blob(index.get(path)), within);
	}
	const base = against ? await session.treeEntries(against) : index;
	// The working tree's side: tracked paths only, as git diff shows them.
	const tracked = new Map([...base, ...(against ? index : new Map<string, string>())]);
	return patchesBetween(session, base, tracked, (path) => session.workingFile(path), within);
}

async function pathExists(session: GitSession, argument: string): Promise<boolean> {
	return session.shell.exists(session.shell.resolvePath(session.options.cwd, argument));
}

async function branch(session: GitSession, args: readonly string[]): Promise<string> {
	await session.requireRepository();
	const { options, paths } = splitPaths(args);
	rejectUnknownOptions('branch', options, [
		'-d',
		'-D',
		'--delete',
		'--show-current',
		'-m',
		'-M',
		'--list',
		'-a'
	]);
	const current = await session.currentBranch();
	if (options.includes('--show-current')) return current ? `${current}\n` : '';
	if (options.some((option) => ['-d', '-D', '--delete'].includes(option))) {
		if (paths.length === 0) throw new GitCommandError('fatal: branch name required');
		const out: string[] = [];
		for (const name of paths) {
			if (name === current)
				throw new GitCommandError(
					`error: cannot delete branch '${name}' used by the working tree`,
					1
				);
			const oid = await session.git
				.resolveRef({ ...session.base, ref: `refs/heads/${name}` })
				.catch(() => null);
			if (!oid) throw new GitCommandError(`error: branch '${name}' not found`, 1);
			await session.git.deleteBranch({ ...session.base, ref: name });
			out.push(`Deleted branch ${name} (was ${oid.slice(0, 7)}).`);
		}
		return out.map((line) => `${line}\n`).join('');
	}
	if (options.includes('-m') || options.includes('-M')) {
		const [from, to] = paths.length === 1 ? [current, paths[0]] : paths;
		if (!from || !to) throw new GitCommandError('fatal: branch name required');
		const problem = branchNameProblem(to);
		if (problem) throw new GitCommandError(problem);
		await session.git.renameBranch({
			...session.base,
			oldref: from,
			ref: to,
			checkout: from === current
		});
		return '';
	}
	if (paths.length > 0 && !options.includes('--list')) {
		const [name, start] = paths as [string, string | undefined];
		const problem = branchNameProblem(name);
		if (problem) throw new GitCommandError(problem);
		if (!(await session.headOid()) && !start)
			throw new GitCommandError(
				`fatal: not a valid object name: '${current ?? 'HEAD'}' (make a first commit before branching)`
			);
		const object = start ? await session.resolveCommit(start) : undefined;
		try {
			await session.git.branch({ ...session.base, ref: name, ...(object ? { object } : {}) });
		} catch (error) {
			throw new GitCommandError(`fatal: ${describe(error)}`);
		}
		return '';
	}
	const names = (await session.git.listBranches({ ...session.base })).sort();
	if (!current) {
		const head = await session.headOid();
		if (head) names.unshift(`(HEAD detached at ${head.slice(0, 7)})`);
	}
	return names
		.map((name) => `${name === current || name.startsWith('(HEAD') ? '*' : ' '} ${name}\n`)
		.join('');
}

async function switchTo(session: GitSession, name: string, create: boolean): Promise<string> {
	const current = await session.currentBranch();
	if (create) {
		const problem = branchNameProblem(name);
		if (problem) throw new GitCommandError(problem);
		if (!(await session.headOid())) {
			// Before the first commit a new branch is only a new name for HEAD.
			await session.git.writeRef({
				...session.base,
				ref: 'HEAD',
				value: `refs/heads/${name}`,
				symbolic: true,
				force: true
			});
			return `Switched to a new branch '${name}'\n`;
		}
		try {
			await session.git.branch({ ...session.base, ref: name, checkout: true });
		} catch (error) {
			throw new GitCommandError(`fatal: ${describe(error)}`);
		}
		return `Switched to a new branch '${name}'\n`;
	}
	if (name === current) return `Already on '${name}'\n`;
	const branches = await session.git.listBranches({ ...session.base });
	if (!branches.includes(name))
		throw new GitCommandError(
			`error: pathspec '${name}' did not match any file(s) known to git`,
			1
		);
	await refuseOverwritingChanges(session, name);
	await session.git.checkout({ ...session.base, ref: name });
	return `Switched to branch '${name}'\n`;
}

/**
 * git refuses to switch when a file with uncommitted changes differs between the two commits;
 * isomorphic-git would overwrite it, so the check is made here first.
 */
async function refuseOverwritingChanges(session: GitSession, target: string): Promise<void> {
	const head = await session.treeEntries(await session.headOid());
	const next = await session.treeEntries(await session.resolveCommit(target));
	const conflicts = changedFiles(await session.statusRows())
		.filter(
			(file) =>
				file.staged !== ' ' || file.unstaged !== ' ' || (file.untracked && next.has(file.path))
		)
		.map((file) => file.path)
		.filter((path) => head.get(path) !== next.get(path));
	if (conflicts.length)
		throw new GitCommandError(
			`error: Your local changes to the following files would be overwritten by checkout:\n${conflicts.map((path) => `\t${path}\n`).join('')}Please commit your changes or stash them before you switch branches.\nAborting`,
			1
		);
}

async function checkout(session: GitSession, args: readonly string[]): Promise<string | GitOutput> {
	await session.requireRepository();
	const separator = args.indexOf('--');
	if (args[0] === '-b' || args[0] === '-B') {
		const name = args[1];
		if (!name) throw new GitCommandError(`error: switch \`b' requires a value`, 129);
		return switchTo(session, name, true);
	}
	const beforeSeparator = separator === -1 ? args : args.slice(0, separator);
	const paths = separator === -1 ? [] : args.slice(separator + 1);
	const target = beforeSeparator.find((arg) => !arg.startsWith('-'));
	if (
		separator === -1 &&
		target &&
		(await session.git.listBranches({ ...session.base })).includes(target)
	)
		return switchTo(session, target, false);
	// `git checkout <paths>` / `git checkout -- <paths>`: the index's version back.
	return restorePaths(
		session,
		separator === -1 ? beforeSeparator.filter((arg) => !arg.startsWith('-')) : paths,
		false
	);
}

async function switchBranch(session: GitSession, args: readonly string[]): Promise<string> {
	await session.requireRepository();
	if (args[0] === '-c' || args[0] === '--create' || args[0] === '-C') {
		const name = args[1];
		if (!name) throw new GitCommandError(`error: switch \`c' requires a value`, 129);
		return switchTo(session, name, true);
	}
	const name = positional(args)[0];
	if (!name)
		throw new GitCommandError(
			'fatal: missing branch name; try git switch <branch> or git switch -c <new-branch>'
		);
	return switchTo(session, name, false);
}

async function restore(session: GitSession, args: readonly string[]): Promise<string | GitOutput> {
	await session.requireRepository();
	const { options, paths } = splitPaths(args);
	rejectUnknownOptions('restore', options, ['--staged', '-S', '--worktree', '-W']);
	if (paths.length === 0)
		throw new GitCommandError('fatal: you must specify path(s) to restore', 128);
	const staged = options.includes('--staged') || options.includes('-S');
	const worktree = options.includes('--worktree') || options.includes('-W') || !staged;
	if (staged) {
		const head = await session.treeEntries(await session.headOid());
		const index = await session.indexEntries();
		for (const argument of paths) {
			const path = session.repositoryPath(argument);
			const inside = [...new Set([...head.keys(), ...index.keys()])].filter((file) =>
				isWithin(file, path)
			);
			if (inside.length === 0)
				throw new GitCommandError(
					`error: pathspec '${argument}' did not match any file(s) known to git`,
					1
				);
			for (const file of inside) await session.git.resetIndex({ ...session.base, filepath: file });
		}
	}
	return worktree ? restorePaths(session, paths, true) : '';
}

/** The index's version of each path written back to the working tree. */
async function restorePaths(
	session: GitSession,
	paths: readonly string[],
	fromRestore: boolean
): Promise<GitOutput> {
	if (paths.length === 0)
		throw new GitCommandError('fatal: you must specify path(s) to restore', 128);
	const index = await session.indexEntries();
	let restored = 0;
	const skipped: string[] = [];
	const writes: { file: string; bytes: Uint8Array }[] = [];
	for (const argument of paths) {
		const path = session.repositoryPath(argument);
		const inside = [...index.keys()].filter((file) => isWithin(file, path));
		if (inside.length === 0)
			throw new GitCommandError(
				`error: pathspec '${argument}' did not match any file(s) known to git`,
				1
			);
		for (const file of inside) {
			const side = await session.blob(index.get(file));
			const current = await session.workingFile(file);
			if (!side || current?.oid === side.oid) continue;
			if (isGovernedByTheCore(file)) {
				// Named: refused outright; inside a folder or `.`: left as it is, with a warning.
				if (file === path) refuseGovernancePaths(fromRestore ? 'restore' : 'checkout', [file]);
				skipped.push(file);
				continue;
			}
			writes.push({ file, bytes: side.bytes });
		}
	}
	for (const { file, bytes } of writes) {
		{
			const absolute = `${session.dir}/${file}`;
			const parent = absolute.slice(0, absolute.lastIndexOf('/'));
			await session.shell.mkdir(parent, { recursive: true });
			await session.shell.writeFile(absolute, bytes);
			restored++;
		}
	}
	const warnings = skipped.map(
		(file) => `warning: left ${file} as it is: it changes only through governance\n`
	);
	const said =
		fromRestore || restored === 0
			? ''
			: `Updated ${restored} path${restored === 1 ? '' : 's'} from the index\n`;
	return { stdout: said, stderr: warnings.join('') };
}

async function revParse(session: GitSession, args: readonly string[]): Promise<string> {
	const out: string[] = [];
	let short = false;
	let abbreviatedName = false;
	for (const arg of args) {
		if (arg === '--show-toplevel') out.push(session.dir);
		else if (arg === '--is-inside-work-tree')
			out.push((await session.isRepository()) ? 'true' : 'false');
		else if (arg === '--git-dir') out.push('.git');
		else if (arg === '--short') short = true;
		else if (arg === '--abbrev-ref') abbreviatedName = true;
		else if (arg.startsWith('-'))
			throw new GitCommandError(`fatal: git rev-parse here does not know ${arg}`, 129);
		else {
			await session.requireRepository();
			if (abbreviatedName && arg === 'HEAD') {
				out.push((await session.currentBranch()) ?? 'HEAD');
				continue;
			}
			const oid = await session.resolveCommit(arg);
			out.push(short ? oid.slice(0, 7) : oid);
		}
	}
	return out.map((line) => `${line}\n`).join('');
}

async function config(session: GitSession, args: readonly string[]): Promise<string> {
	await session.requireRepository();
	const { options, paths } = splitPaths(args);
	rejectUnknownOptions('config', options, ['--get', '--list', '-l', '--local', '--global']);
	if (options.includes('--list') || options.includes('-l')) {
		const text = new TextDecoder().decode(await session.repository.read('config'));
		return configListing(text);
	}
	const [key, value] = paths;
	if (!key)
		throw new GitCommandError(
			'error: key does not contain a section: try git config user.name "Your Name"',
			2
		);
	if (value === undefined || options.includes('--get')) {
		const found = (await session.git.getConfig({ ...session.base, path: key })) as unknown;
		if (found === undefined) throw new GitCommandError('', 1);
		return `${String(found)}\n`;
	}
	await session.git.setConfig({ ...session.base, path: key, value });
	return '';
}

/** `git config --list`: `section.key=value` lines from the config file. */
function configListing(text: string): string {
	const out: string[] = [];
	let section = '';
	for (const raw of text.split('\n')) {
		const line = raw.trim();
		const header = /^\[([^\s\]"]+)(?:\s+"([^"]*)")?\]$/.exec(line);
		if (header) section = header[2] ? `${header[1]}.${header[2]}` : (header[1] as string);
		else if (line && !line.startsWith('#') && !line.startsWith(';')) {
			const [name, ...rest] = line.split('=');
			out.push(`${section}.${(name as string).trim().toLowerCase()}=${rest.join('=').trim()}`);
		}
	}
	return out.map((line) => `${line}\n`).join('');
}

/**
 * git may not write governance files into the working tree (the line's review would refuse the
 * write while the index recorded it): said before anything changes.
 */
function refuseGovernancePaths(command: string, paths: readonly string[]): void {
	const governed = paths.filter(isGovernedByTheCore);
	if (governed.length)
		throw new GitCommandError(
			`error: git ${command} would write ${governed.join(', ')}, which change only through governance (edit the intents in the IDE); nothing was changed`,
			1
		);
}

export function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
