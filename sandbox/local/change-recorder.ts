import type { FileChange } from '../../hooks/tools/sandbox-ports.js';
import { compareEntryNames, type WorkspaceFiles } from './workspace-files.js';

/**
 * Remembers, for one command, what every touched file held before the command's first write to it,
 * then turns that into FileChange records by comparing with what is there at the end. Comparing
 * end states (rather than logging each write) is what makes "written back to its original content"
 * disappear and a redirect's truncate-then-write count as one change.
 */
export class ChangeRecorder {
	private readonly before = new Map<string, Promise<Uint8Array | null>>();

	constructor(private readonly files: WorkspaceFiles) {}

	/** Snapshot `path` unless already done; concurrent calls for one path share the snapshot. */
	recordBefore(path: string): Promise<void> {
		let snapshot = this.before.get(path);
		if (!snapshot) {
			snapshot = readFileOrNull(this.files, path);
			this.before.set(path, snapshot);
		}
		return snapshot.then(() => undefined);
	}

	/** The net changes since the snapshots, sorted by path; unchanged files are left out. */
	async collectChanges(): Promise<FileChange[]> {
		const changes: FileChange[] = [];
		const paths = [...this.before.keys()].sort(compareEntryNames);
		for (const path of paths) {
			let before: Uint8Array | null;
			try {
				before = (await this.before.get(path)) ?? null;
			} catch {
				// No snapshot means every write to this path was refused before it happened.
				continue;
			}
			// A failing read here must surface: guessing "deleted" would make the core revert a file.
			const after = await readFileOrNull(this.files, path);
			if (before === null && after === null) continue;
			if (before === null) changes.push({ path, type: 'created', before, after });
			else if (after === null) changes.push({ path, type: 'deleted', before, after });
			else if (!sameBytes(before, after)) changes.push({ path, type: 'modified', before, after });
		}
		return changes;
	}
}

/** A file's bytes; `null` when nothing or a folder is at the path. */
async function readFileOrNull(files: WorkspaceFiles, path: string): Promise<Uint8Array | null> {
	const info = await files.stat(path);
	if (info?.kind !== 'file') return null;
	return files.read(path);
}

export function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
	if (left.byteLength !== right.byteLength) return false;
	for (let index = 0; index < left.byteLength; index += 1) {
		if (left[index] !== right[index]) return false;
	}
	return true;
}
