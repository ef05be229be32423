import { isGovernancePath } from '../../../hooks/paths/protected-paths.js';
import type { SandboxFileSystem } from '../../../hooks/tools/sandbox-ports.js';

/** One row of the file tree as the tree view renders it (depth-first, folders first). */
export interface TreeRow {
	path: string;
	name: string;
	kind: 'file' | 'directory';
	/** 1-based, for `aria-level`. */
	level: number;
	/** For folders: whether their children are shown. */
	expanded: boolean;
	/** Under `.orchestration/` or `.git/`: people and agents change these only through governance. */
	locked: boolean;
	/** A file this session deleted: shown (struck through) so the change is visible in the tree. */
	deleted?: boolean;
}

interface FolderNode {
	folders: Map<string, FolderNode>;
	files: Set<string>;
	deleted: Set<string>;
}

/**
 * Turns the flat list of file paths (plus empty folders) into the visible rows of the tree,
 * honouring which folders are expanded. Pure, so the tree's order and levels are unit-tested.
 */
export function buildTreeRows(
	filePaths: Iterable<string>,
	folderPaths: Iterable<string>,
	expanded: ReadonlySet<string>,
	/** Files the session deleted (from the ledger), shown as deleted rows unless they exist again. */
	deletedPaths: Iterable<string> = []
): TreeRow[] {
	const root: FolderNode = { folders: new Map(), files: new Set(), deleted: new Set() };
	const folderAt = (segments: string[]): FolderNode => {
		let node = root;
		for (const segment of segments) {
			let child = node.folders.get(segment);
			if (!child) {
				child = { folders: new Map(), files: new Set(), deleted: new Set() };
				node.folders.set(segment, child);
			}
			node = child;
		}
		return node;
	};
	for (const path of filePaths) {
		const segments = path.split('/');
		const name = segments.pop() as string;
		folderAt(segments).files.add(name);
	}
	for (const path of folderPaths) folderAt(path.split('/'));
	for (const path of deletedPaths) {
		const segments = path.split('/');
		const name = segments.pop() as string;
		const node = folderAt(segments);
		if (!node.files.has(name) && !node.folders.has(name)) node.deleted.add(name);
	}

	const rows: TreeRow[] = [];
	const visit = (node: FolderNode, prefix: string, level: number) => {
		for (const name of [...node.folders.keys()].sort(compareNames)) {
			const path = prefix ? `${prefix}/${name}` : name;
			const isExpanded = expanded.has(path);
			rows.push({
				path,
				name,
				kind: 'directory',
				level,
				expanded: isExpanded,
				locked: isGovernancePath(path)
			});
			if (isExpanded) visit(node.folders.get(name) as FolderNode, path, level + 1);
		}
		for (const name of [...node.files, ...node.deleted].sort(compareNames)) {
			const path = prefix ? `${prefix}/${name}` : name;
			rows.push({
				path,
				name,
				kind: 'file',
				level,
				expanded: false,
				locked: isGovernancePath(path),
				...(node.deleted.has(name) ? { deleted: true } : {})
			});
		}
	};
	visit(root, '', 1);
	return rows;
}

/** Case-insensitive, then by code unit, so `README.md` sits next to `readme.txt` but order is stable. */
function compareNames(left: string, right: string): number {
	const folded = left.toLowerCase().localeCompare(right.toLowerCase());
	if (folded !== 0) return folded;
	return left < right ? -1 : left > right ? 1 : 0;
}

/** Every ancestor folder of a path, outermost first: `a/b/c.ts` → `a`, `a/b`. */
export function ancestorsOf(path: string): string[] {
	const segments = path.split('/');
	const ancestors: string[] = [];
	for (let index = 1; index < segments.length; index++)
		ancestors.push(segments.slice(0, index).join('/'));
	return ancestors;
}

/** Every file (with its size) and folder of a workspace, depth first. */
export async function listWorkspace(
	fs: SandboxFileSystem
): Promise<{ files: [string, number][]; folders: string[] }> {
	const files: [string, number][] = [];
	const folders: string[] = [];
	const walk = async (folder: string): Promise<void> => {
		for (const entry of await fs.readdir(folder)) {
			const path = folder ? `${folder}/${entry.name}` : entry.name;
			if (entry.kind === 'directory') {
				folders.push(path);
				await walk(path);
			} else {
				files.push([path, (await fs.stat(path))?.size ?? 0]);
			}
		}
	};
	await walk('');
	return { files, folders };
}
