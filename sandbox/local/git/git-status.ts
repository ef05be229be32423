import { isGovernedByTheCore } from './git-path-rules.js';

/**
 * `git status` from isomorphic-git's status matrix. A row is [path, head, workdir, stage]:
 * head 0 absent / 1 present; workdir 0 absent / 1 same as HEAD / 2 different from HEAD;
 * stage 0 absent / 1 same as HEAD / 2 same as the working tree / 3 different from both.
 * Pure: the matrix in, git's porcelain codes and texts out.
 */
export type StatusRow = [string, 0 | 1, 0 | 1 | 2, 0 | 1 | 2 | 3];

export interface FileStatus {
	path: string;
	/** What the index holds compared with HEAD: ' ', 'A', 'M' or 'D'. */
	staged: ' ' | 'A' | 'M' | 'D';
	/** What the working tree holds compared with the index: ' ', 'M' or 'D'. */
	unstaged: ' ' | 'M' | 'D';
	/** In the working tree but not in the index. */
	untracked: boolean;
}

export function fileStatusOf([path, head, workdir, stage]: StatusRow): FileStatus {
	const inIndex = stage !== 0;
	// The index holds HEAD's version (1), or the working tree's version when that is HEAD's.
	const indexIsHead = stage === 1 || (stage === 2 && workdir === 1);
	const staged: FileStatus['staged'] =
		head === 0 ? (inIndex ? 'A' : ' ') : !inIndex ? 'D' : indexIsHead ? ' ' : 'M';
	const unstaged: FileStatus['unstaged'] = !inIndex
		? ' '
		: workdir === 0
			? 'D'
			: stage === 2 || (stage === 1 && workdir === 1)
				? ' '
				: 'M';
	return { path, staged, unstaged, untracked: !inIndex && workdir !== 0 };
}

/**
 * An untracked governance file (`.orchestration/`, `.intentignore`, in any spelling the core
 * folds to them): git is told to leave it alone, as `.git/info/exclude` would, so status does not
 * list it and `git add -A` does not stage it. The governance core owns these files; tracked
 * copies (committed with `git add -f`) still show their changes, as excluded files do in git.
 */
export function ignoredAsGovernance([path, head, , stage]: StatusRow): boolean {
	return head === 0 && stage === 0 && isGovernedByTheCore(path);
}

/** The rows that differ from HEAD anywhere, in path order. */
export function changedFiles(rows: readonly StatusRow[]): FileStatus[] {
	return rows
		.map(fileStatusOf)
		.filter((file) => file.staged !== ' ' || file.unstaged !== ' ' || file.untracked)
		.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
}

/**
 * What git shows for untracked files: a folder that holds no tracked file is one entry,
 * `folder/` (the outermost such folder), as git's default `--untracked-files=normal`.
 */
export function collapseUntracked(
	files: readonly FileStatus[],
	trackedPaths: ReadonlySet<string>
): FileStatus[] {
	const trackedFolders = new Set<string>();
	for (const path of trackedPaths) {
		for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1))
			trackedFolders.add(path.slice(0, slash));
	}
	const shown = new Map<string, FileStatus>();
	for (const file of files) {
		if (!file.untracked) continue;
		let display = file.path;
		for (
			let slash = file.path.indexOf('/');
			slash !== -1;
			slash = file.path.indexOf('/', slash + 1)
		) {
			const folder = file.path.slice(0, slash);
			if (!trackedFolders.has(folder)) {
				display = `${folder}/`;
				break;
			}
		}
		shown.set(display, { path: display, staged: ' ', unstaged: ' ', untracked: true });
	}
	const tracked = files
		.filter((file) => file.staged !== ' ' || file.unstaged !== ' ')
		.map((file) => ({ ...file, untracked: false }));
	return [...tracked, ...[...shown.values()].sort((left, right) => compare(left.path, right.path))];
}

function compare(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}

/** `git status --short`: `XY path` for tracked changes, then untracked ones as `?? path`. */
export function shortStatus(files: readonly FileStatus[]): string {
	const lines: string[] = [];
	for (const file of files)
		if (file.staged !== ' ' || file.unstaged !== ' ')
			lines.push(`${file.staged}${file.unstaged} ${file.path}`);
	for (const file of files) if (file.untracked) lines.push(`?? ${file.path}`);
	return lines.map((line) => `${line}\n`).join('');
}

const stagedWords = { A: 'new file', M: 'modified', D: 'deleted' } as const;
const unstagedWords = { M: 'modified', D: 'deleted' } as const;

/** `git status` in git's long format (each section followed by a blank line, as git prints it). */
export function longStatus(
	files: readonly FileStatus[],
	where: { branch: string | null; headOid: string | null }
): string {
	const out: string[] = [
		where.branch ? `On branch ${where.branch}` : `HEAD detached at ${where.headOid?.slice(0, 7)}`
	];
	if (!where.headOid) out.push('', 'No commits yet', '');
	const staged = files.filter((file) => file.staged !== ' ');
	const unstaged = files.filter((file) => file.unstaged !== ' ');
	const untracked = files.filter((file) => file.untracked);
	if (staged.length) {
		out.push(
			'Changes to be committed:',
			where.headOid
				? '  (use "git restore --staged <file>..." to unstage)'
				: '  (use "git rm --cached <file>..." to unstage)',
			...staged.map(
				(file) => `\t${`${stagedWords[file.staged as 'A' | 'M' | 'D']}:`.padEnd(12)}${file.path}`
			),
			''
		);
	}
	if (unstaged.length) {
		out.push(
			'Changes not staged for commit:',
			'  (use "git add <file>..." to update what will be committed)',
			'  (use "git restore <file>..." to discard changes in working directory)',
			...unstaged.map(
				(file) => `\t${`${unstagedWords[file.unstaged as 'M' | 'D']}:`.padEnd(12)}${file.path}`
			),
			''
		);
	}
	if (untracked.length) {
		out.push(
			'Untracked files:',
			'  (use "git add <file>..." to include in what will be committed)',
			...untracked.map((file) => `\t${file.path}`),
			''
		);
	}
	if (!staged.length && !unstaged.length && !untracked.length)
		out.push(
			where.headOid
				? 'nothing to commit, working tree clean'
				: 'nothing to commit (create/copy files and use "git add" to track)'
		);
	else if (!staged.length)
		out.push(
			unstaged.length
				? 'no changes added to commit (use "git add" and/or "git commit -a")'
				: 'nothing added to commit but untracked files present (use "git add" to track)'
		);
	return `${out.join('\n')}\n`;
}
