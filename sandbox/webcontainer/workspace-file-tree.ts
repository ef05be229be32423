import { normalizeWorkspacePath } from '../workspace-path.js';
import type { DirectoryNode, FileNode, FileSystemTree } from '@webcontainer/api';

/**
 * Turns the workspace's flat `path → bytes` map into WebContainer's nested FileSystemTree for
 * `mount`. Nodes have no prototype, so a file named `__proto__` or `constructor` is an ordinary
 * entry instead of reaching Object.prototype.
 *
 * Throws a TypeError for a path that is not a valid workspace file path, for content that is not
 * a Uint8Array, and when one path is both a file and a folder ("a" and "a/b").
 */
export function toFileSystemTree(files: Readonly<Record<string, Uint8Array>>): FileSystemTree {
	if (typeof files !== 'object' || files === null) {
		throw new TypeError('The workspace files must be an object mapping paths to Uint8Array');
	}
	const root = emptyTree();
	const seen = new Set<string>();
	for (const [rawPath, contents] of Object.entries(files)) {
		const path = normalizeWorkspacePath(rawPath);
		if (path === '')
			throw new TypeError(`${JSON.stringify(rawPath)} is the workspace root, not a file`);
		if (!(contents instanceof Uint8Array)) {
			throw new TypeError(`The content of ${JSON.stringify(rawPath)} must be a Uint8Array`);
		}
		if (seen.has(path)) {
			throw new TypeError(`${JSON.stringify(rawPath)} names the same file as another entry`);
		}
		seen.add(path);
		placeFile(root, path, contents);
	}
	return root;
}

function placeFile(root: FileSystemTree, path: string, contents: Uint8Array): void {
	const segments = path.split('/');
	const name = segments.pop() as string;
	let folder = root;
	let walked = '';
	for (const segment of segments) {
		walked = walked === '' ? segment : `${walked}/${segment}`;
		const existing = folder[segment];
		if (existing === undefined) {
			const node: DirectoryNode = { directory: emptyTree() };
			folder[segment] = node;
			folder = node.directory;
		} else if ('directory' in existing) {
			folder = existing.directory;
		} else {
			throw new TypeError(`'${walked}' is both a file and the folder of '${path}'`);
		}
	}
	if (folder[name] !== undefined) {
		throw new TypeError(`'${path}' is both a file and a folder holding other files`);
	}
	const node: FileNode = { file: { contents } };
	folder[name] = node;
}

function emptyTree(): FileSystemTree {
	return Object.create(null) as FileSystemTree;
}

/** Counts the files of a tree (for progress messages and tests). */
export function countTreeFiles(tree: FileSystemTree): number {
	let count = 0;
	for (const node of Object.values(tree)) {
		count += 'directory' in node ? countTreeFiles(node.directory) : 1;
	}
	return count;
}
