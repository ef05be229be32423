import type { EntryChange, EntryState } from '../../hooks/tools/sandbox-ports.js';
import { compareTreeOrder, sameState } from '../local/overlay-workspace-files.js';
import { joinWorkspacePath } from '../workspace-path.js';
import { dependencyFolderName, toContainerPath } from './container-path.js';
import type { ContainerFileSystem } from './webcontainer-api.js';

/** Every entry of the container's workspace (outside `node_modules`): files, folders, links. */
export type EntrySnapshot = ReadonlyMap<string, EntryState>;

/**
 * WebContainer runs real programs whose writes cannot be intercepted, so a command's transaction
 * there is a before/after comparison: this reads every entry, folders and links included (an entry
 * that is neither a file nor a folder is a link; its target is not readable through the API).
 */
export async function takeEntrySnapshot(fs: ContainerFileSystem): Promise<EntrySnapshot> {
	const entries = new Map<string, EntryState>();
	const visit = async (folder: string): Promise<void> => {
		const listed = await fs.readdir(toContainerPath(folder), { withFileTypes: true });
		const folders: string[] = [];
		const reads: Promise<void>[] = [];
		for (const entry of listed) {
			const path = joinWorkspacePath(folder, entry.name);
			if (entry.isDirectory()) {
				if (entry.name === dependencyFolderName) continue;
				entries.set(path, { kind: 'folder' });
				folders.push(path);
			} else if (entry.isFile()) {
				reads.push(
					fs.readFile(toContainerPath(path)).then(
						(data) => void entries.set(path, { kind: 'file', data }),
						() => undefined
					)
				);
			} else {
				entries.set(path, { kind: 'link', target: '' });
			}
		}
		await Promise.all(reads);
		for (const child of folders) {
			try {
				await visit(child);
			} catch {
				// Removed while we walked: its entries count as absent.
			}
		}
	};
	await visit('');
	return entries;
}

/** Every path whose entry differs, parents before children. */
export function diffEntrySnapshots(before: EntrySnapshot, after: EntrySnapshot): EntryChange[] {
	const changes: EntryChange[] = [];
	for (const path of [...new Set([...before.keys(), ...after.keys()])].sort(compareTreeOrder)) {
		const old = before.get(path) ?? { kind: 'absent' as const };
		const current = after.get(path) ?? { kind: 'absent' as const };
		if (!sameState(old, current)) changes.push({ path, before: old, after: current });
	}
	return changes;
}

/**
 * Puts `entries` back to their before-state, as one step: first everything the command left that
 * must go (deepest first), then what was there before (parents first). Throws at the first
 * failure; the caller must then treat the workspace as no longer governed.
 */
export async function restoreEntries(
	fs: ContainerFileSystem,
	entries: readonly EntryChange[]
): Promise<void> {
	const ordered = [...entries].sort((left, right) => compareTreeOrder(right.path, left.path));
	for (const entry of ordered) {
		if (entry.after.kind === 'absent') continue;
		if (entry.before.kind === 'folder' && entry.after.kind === 'folder') continue;
		await fs.rm(toContainerPath(entry.path), { recursive: true, force: true });
	}
	for (const entry of [...ordered].reverse()) {
		const path = toContainerPath(entry.path);
		if (entry.before.kind === 'folder') await fs.mkdir(path, { recursive: true });
		else if (entry.before.kind === 'file') await fs.writeFile(path, entry.before.data);
		else if (entry.before.kind === 'link') {
			throw new Error(`${entry.path} was a symbolic link; links cannot be restored`);
		}
	}
}
