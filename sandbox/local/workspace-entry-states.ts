import { joinWorkspacePath, parentWorkspacePath } from '../workspace-path.js';
import type { WorkspaceFiles } from './workspace-files.js';

/**
 * What one path holds at a moment: the unit in which two copies of a workspace (the page's and a
 * Worker's replica) bring each other up to date. States, not operations: applying the latest state
 * of every touched path converges whatever happened in between and in whatever order the paths
 * come, so writes made on one side while the other was busy cannot be replayed out of order.
 */
export type WorkspaceEntryState =
	| { path: string; kind: 'file'; data: Uint8Array }
	| { path: string; kind: 'directory' }
	| { path: string; kind: 'absent' };

/** The current state of each path (normalized, not the root), in the order given. */
export async function captureEntryStates(
	files: WorkspaceFiles,
	paths: Iterable<string>
): Promise<WorkspaceEntryState[]> {
	const states: WorkspaceEntryState[] = [];
	for (const path of paths) {
		if (path === '') continue;
		const info = await files.stat(path);
		if (info?.kind === 'file') states.push({ path, kind: 'file', data: await files.read(path) });
		else if (info?.kind === 'directory') states.push({ path, kind: 'directory' });
		else states.push({ path, kind: 'absent' });
	}
	return states;
}

/** Every folder and file of the store, parents first: a full copy for a fresh replica. */
export async function captureAllEntryStates(files: WorkspaceFiles): Promise<WorkspaceEntryState[]> {
	const states: WorkspaceEntryState[] = [];
	const visit = async (folder: string): Promise<void> => {
		for (const entry of await files.list(folder)) {
			const path = joinWorkspacePath(folder, entry.name);
			if (entry.kind === 'directory') {
				states.push({ path, kind: 'directory' });
				await visit(path);
			} else {
				states.push({ path, kind: 'file', data: await files.read(path) });
			}
		}
	};
	await visit('');
	return states;
}

/**
 * Makes each path hold its state: whatever is in the way is replaced (a file where a folder must
 * be, a folder where a file must be), missing parent folders are created and an absent folder is
 * removed with its content.
 */
export async function applyEntryStates(
	files: WorkspaceFiles,
	states: Iterable<WorkspaceEntryState>
): Promise<void> {
	for (const state of states) {
		if (state.path === '') continue;
		const existing = await files.stat(state.path);
		if (state.kind === 'absent') {
			if (existing) await removeEntry(files, state.path, existing.kind);
			continue;
		}
		if (state.kind === 'directory') {
			if (existing?.kind === 'directory') continue;
			if (existing) await files.delete(state.path);
			await ensureFolder(files, parentWorkspacePath(state.path));
			await files.makeDirectory(state.path);
			continue;
		}
		if (existing?.kind === 'directory') await removeEntry(files, state.path, 'directory');
		else if (!existing) await ensureFolder(files, parentWorkspacePath(state.path));
		await files.write(state.path, state.data);
	}
}

async function ensureFolder(files: WorkspaceFiles, folder: string): Promise<void> {
	if (folder === '') return;
	const existing = await files.stat(folder);
	if (existing?.kind === 'directory') return;
	if (existing) await files.delete(folder);
	await ensureFolder(files, parentWorkspacePath(folder));
	await files.makeDirectory(folder);
}

async function removeEntry(
	files: WorkspaceFiles,
	path: string,
	kind: 'file' | 'directory'
): Promise<void> {
	if (kind === 'directory') {
		for (const entry of await files.list(path)) {
			await removeEntry(files, joinWorkspacePath(path, entry.name), entry.kind);
		}
	}
	await files.delete(path);
}
