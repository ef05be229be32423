import type { FileChange, SandboxFileSystem } from '../../../hooks/tools/sandbox-ports.js';

/** Applies the writes in order; on a failure, undoes those made and throws in words. */
export async function applyWrites(
	fs: SandboxFileSystem,
	writes: readonly FileChange[]
): Promise<void> {
	const applied: FileChange[] = [];
	for (const write of writes) {
		try {
			if (write.after === null) await fs.rm(write.path);
			else await fs.writeFile(write.path, write.after);
		} catch (error) {
			await revertWrites(fs, applied);
			const reason = error instanceof Error ? error.message : String(error);
			throw new Error(
				`Could not ${write.after === null ? 'delete' : 'write'} ${write.path}: ${reason}`,
				{
					cause: error
				}
			);
		}
		applied.push(write);
	}
}

/** Puts back what the writes replaced, last first; best effort, the original error matters more. */
export async function revertWrites(
	fs: SandboxFileSystem,
	writes: readonly FileChange[]
): Promise<void> {
	for (const write of [...writes].reverse()) {
		try {
			if (write.before === null) await fs.rm(write.path);
			else await fs.writeFile(write.path, write.before);
		} catch {
			// Nothing better to do: the caller reports the write that failed.
		}
	}
}
