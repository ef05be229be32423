import { joinPath, type WorkspaceSnapshot } from './workspace-snapshot.js';

/**
 * `node --test`'s file discovery (Node 20): with no paths, every file under the current folder
 * named `*.test.*`, `*-test.*`, `*_test.*`, `test-*.*`, `test.*`, or any script inside a `test`
 * folder; a folder given on the command line is searched the same way; a file is taken as is.
 * TypeScript extensions count too (as with `tsx --test`); node_modules and dot folders are
 * skipped.
 */

const scriptExtension = /\.(c|m)?(j|t)sx?$/;

export function isTestFileName(name: string, insideTestFolder: boolean): boolean {
	if (!scriptExtension.test(name)) return false;
	if (name.endsWith('.d.ts')) return false;
	if (insideTestFolder) return true;
	return (
		/\.test\.(c|m)?(j|t)sx?$/.test(name) ||
		/-test\.(c|m)?(j|t)sx?$/.test(name) ||
		/_test\.(c|m)?(j|t)sx?$/.test(name) ||
		/^test-.*\.(c|m)?(j|t)sx?$/.test(name) ||
		/^test\.(c|m)?(j|t)sx?$/.test(name)
	);
}

export function findTestFiles(
	snapshot: WorkspaceSnapshot,
	cwd: string,
	paths: readonly string[]
): { files: string[]; missing: string[] } {
	const files: string[] = [];
	const missing: string[] = [];
	const roots =
		paths.length === 0
			? [cwd]
			: paths.map((path) => (path.startsWith('/') ? path : joinPath(cwd, path)));
	for (const root of roots.map(normalize)) {
		if (snapshot.isFile(root)) files.push(root);
		else if (snapshot.isDirectory(root)) collect(snapshot, root, /(^|\/)test$/.test(root), files);
		else missing.push(root);
	}
	return { files: [...new Set(files)].sort(), missing };
}

function collect(
	snapshot: WorkspaceSnapshot,
	folder: string,
	insideTestFolder: boolean,
	files: string[]
): void {
	for (const child of snapshot.list(folder)) {
		const path = joinPath(folder, child.name);
		if (child.kind === 'directory') {
			if (child.name === 'node_modules' || child.name.startsWith('.')) continue;
			collect(snapshot, path, insideTestFolder || child.name === 'test', files);
		} else if (isTestFileName(child.name, insideTestFolder)) {
			files.push(path);
		}
	}
}

function normalize(path: string): string {
	const parts: string[] = [];
	for (const part of path.split('/')) {
		if (part === '' || part === '.') continue;
		if (part === '..') parts.pop();
		else parts.push(part);
	}
	return `/${parts.join('/')}`;
}
