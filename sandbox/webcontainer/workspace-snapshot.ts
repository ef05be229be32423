import type { FileChange } from '../../hooks/tools/sandbox-ports.js';
import { sameBytes } from '../local/change-recorder.js';
import { compareEntryNames } from '../local/workspace-files.js';
import { joinWorkspacePath } from '../workspace-path.js';
import { dependencyFolderName, toContainerPath } from './container-path.js';
import type { ContainerFileSystem } from './webcontainer-api.js';

/** Every workspace file (outside `node_modules`) and its bytes at one moment. */
export type WorkspaceSnapshot = ReadonlyMap<string, Uint8Array>;

/**
 * Reads every file of the workspace except what lies in `node_modules` folders. Commands in the
 * container run real programs whose writes we cannot intercept (unlike just-bash), so a command's
 * changes are found by comparing a snapshot taken before it with one taken after. The bytes are
 * kept, not just a hash, because a change must carry the content before it for revert and diff.
 *
 * Files of one folder are read concurrently: each read is a message round trip to the container.
 * A file that disappears between listing and reading (a background process) is left out.
 */
export async function takeWorkspaceSnapshot(fs: ContainerFileSystem): Promise<WorkspaceSnapshot> {
	const files = new Map<string, Uint8Array>();
	const visit = async (folder: string): Promise<void> => {
		const entries = await fs.readdir(toContainerPath(folder), { withFileTypes: true });
		const folders: string[] = [];
		const reads: Promise<void>[] = [];
		for (const entry of entries) {
			const path = joinWorkspacePath(folder, entry.name);
			if (entry.isDirectory()) {
				if (entry.name !== dependencyFolderName) folders.push(path);
			} else if (entry.isFile()) {
				reads.push(
					fs.readFile(path).then(
						(bytes) => void files.set(path, bytes),
						() => undefined
					)
				);
			}
		}
		await Promise.all(reads);
		for (const child of folders) {
			try {
				await visit(child);
			} catch {
				// Removed while we walked: its files count as absent.
			}
		}
	};
	await visit('');
	return files;
}

/** What changed from `before` to `after`, sorted by path; a rename is a delete plus a create. */
export function diffSnapshots(before: WorkspaceSnapshot, after: WorkspaceSnapshot): FileChange[] {
	const paths = new Set([...before.keys(), ...after.keys()]);
	const changes: FileChange[] = [];
	for (const path of [...paths].sort(compareEntryNames)) {
		const old = before.get(path) ?? null;
		const current = after.get(path) ?? null;
		if (old === null && current !== null) {
			changes.push({ path, type: 'created', before: null, after: current });
		} else if (old !== null && current === null) {
			changes.push({ path, type: 'deleted', before: old, after: null });
		} else if (old !== null && current !== null && !sameBytes(old, current)) {
			changes.push({ path, type: 'modified', before: old, after: current });
		}
	}
	return changes;
}
