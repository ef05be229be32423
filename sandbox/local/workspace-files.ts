/**
 * The backing store of the local sandbox: the workspace's bytes, wherever they live (a folder on
 * disk, memory, IndexedDB). Deliberately small: the shared layers above it (WorkspaceTree, the
 * shell adapter) do path normalization, parent creation, recursion and change recording, so a new
 * store only has to get these six primitives right.
 *
 * Every `path` is already normalized and workspace-relative ('' is the root, 'src/a.ts' a file);
 * the root always exists and is a folder. Failures throw SandboxFileSystemError with an errno code.
 */
export interface WorkspaceEntryInfo {
	kind: 'file' | 'directory';
	/** Bytes for a file; 0 for a folder. */
	size: number;
	/** Milliseconds since the epoch, when the store knows it. */
	modifiedAt?: number;
}

export interface WorkspaceEntry {
	name: string;
	kind: 'file' | 'directory';
}

export interface WorkspaceFiles {
	/** What is at `path`, or `null` when nothing is. */
	stat(path: string): Promise<WorkspaceEntryInfo | null>;
	/** The file's bytes; ENOENT when missing, EISDIR for a folder. */
	read(path: string): Promise<Uint8Array>;
	/** Creates or replaces a file. The parent folder must exist (ENOENT / ENOTDIR otherwise). */
	write(path: string, data: Uint8Array): Promise<void>;
	/** Removes a file or an empty folder (ENOTEMPTY otherwise); ENOENT when missing. */
	delete(path: string): Promise<void>;
	/** Creates one folder; EEXIST when something is there, ENOENT when the parent is missing. */
	makeDirectory(path: string): Promise<void>;
	/** The direct entries of a folder, sorted by name; ENOENT / ENOTDIR otherwise. */
	list(path: string): Promise<WorkspaceEntry[]>;
}

/** Orders entry names the way `ls` in the C locale does (code units), independent of locale. */
export function compareEntryNames(left: string, right: string): number {
	if (left < right) return -1;
	return left > right ? 1 : 0;
}
