import { normalizeWorkspacePath } from '../workspace-path.js';

/**
 * WebContainer resolves every `fs` path and spawn `cwd` against its working directory, so a
 * normalized workspace path is already a container path; only the root needs a name ('.').
 */
export function toContainerPath(workspacePath: string): string {
	return workspacePath === '' ? '.' : workspacePath;
}

/** The folder `npm install` fills: never snapshotted, and its insides never announced. */
export const dependencyFolderName = 'node_modules';

/** True for paths strictly inside a `node_modules` folder (the folder itself is not inside). */
export function isInsideDependencyFolder(path: string): boolean {
	const segments = path.split('/');
	return segments.slice(0, -1).includes(dependencyFolderName);
}

const decoder = new TextDecoder();

/**
 * The workspace path an `fs.watch` event names, or null when it names nothing inside the
 * workspace. With `watch('.', { recursive: true })` names are relative to the working directory
 * (Node's convention); absolute names are accepted too: under `workdir` they are made relative,
 * and other absolute names are read the way the fs API reads them, against the working directory.
 */
export function workspacePathFromWatch(
	filename: string | Uint8Array | null | undefined,
	workdir: string
): string | null {
	if (filename === null || filename === undefined) return null;
	let name = typeof filename === 'string' ? filename : decoder.decode(filename);
	const root = workdir.endsWith('/') ? workdir.slice(0, -1) : workdir;
	if (root !== '' && (name === root || name.startsWith(`${root}/`))) {
		name = name.slice(root.length);
	}
	name = name.replace(/^\/+/, '');
	try {
		return normalizeWorkspacePath(name);
	} catch {
		return null;
	}
}
