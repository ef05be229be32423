/**
 * Workspace paths: POSIX, relative to the workspace root, normalized ('' is the root). Every
 * backend funnels its input through `normalizeWorkspacePath` so a path can never reach a store
 * pointing outside the workspace.
 */
export class WorkspacePathError extends Error {
	readonly path: string;

	constructor(path: string, reason: string) {
		super(`Invalid workspace path ${JSON.stringify(path)}: ${reason}`);
		this.name = 'WorkspacePathError';
		this.path = path;
	}
}

/**
 * Resolves `.`/`..` and duplicate or trailing slashes; '' and '.' are the root.
 * Throws a WorkspacePathError for absolute paths, backslashes, NUL bytes and paths that climb
 * above the root.
 */
export function normalizeWorkspacePath(path: string): string {
	if (typeof path !== 'string') {
		throw new WorkspacePathError(String(path), 'a path must be a string');
	}
	if (path.includes('\0')) throw new WorkspacePathError(path, 'it contains a NUL byte');
	// A backslash would be a separator on a Windows disk and a plain character elsewhere: refuse
	// rather than let the same path mean two different files.
	if (path.includes('\\')) {
		throw new WorkspacePathError(path, 'use forward slashes (/) as separators');
	}
	if (path.startsWith('/')) {
		throw new WorkspacePathError(
			path,
			'it is absolute; use a path relative to the workspace root (e.g. "src/index.ts")'
		);
	}
	const segments: string[] = [];
	for (const segment of path.split('/')) {
		if (segment === '' || segment === '.') continue;
		if (segment === '..') {
			if (segments.length === 0) {
				throw new WorkspacePathError(path, 'it escapes the workspace root');
			}
			segments.pop();
			continue;
		}
		segments.push(segment);
	}
	return segments.join('/');
}

/** Joins a normalized folder path and one entry name. */
export function joinWorkspacePath(folder: string, name: string): string {
	return folder === '' ? name : `${folder}/${name}`;
}

/** The parent folder of a normalized path; the root's parent is the root. */
export function parentWorkspacePath(path: string): string {
	const slash = path.lastIndexOf('/');
	return slash === -1 ? '' : path.slice(0, slash);
}

/** True when `candidate` is `folder` itself or lies below it (both normalized). */
export function isSameOrInsideWorkspacePath(folder: string, candidate: string): boolean {
	if (folder === '') return true;
	return candidate === folder || candidate.startsWith(`${folder}/`);
}
