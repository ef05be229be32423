import type { WorkspaceEntry, WorkspaceEntryInfo, WorkspaceFiles } from './workspace-files.js';

/**
 * A WorkspaceFiles that remembers which paths were written, deleted or created since the last
 * `takeTouchedPaths`. Used on both sides of the Worker sandbox: the page's copy collects the
 * writes made through `fs` (sent to the replica before the next command), the replica collects
 * what a command did (sent back, folders included, which FileChange records leave out).
 */
export class JournaledWorkspaceFiles implements WorkspaceFiles {
	private touched = new Set<string>();

	constructor(readonly inner: WorkspaceFiles) {}

	/** The touched paths in first-touch order; the journal starts empty again. */
	takeTouchedPaths(): string[] {
		const paths = [...this.touched];
		this.touched = new Set();
		return paths;
	}

	stat(path: string): Promise<WorkspaceEntryInfo | null> {
		return this.inner.stat(path);
	}

	read(path: string): Promise<Uint8Array> {
		return this.inner.read(path);
	}

	list(path: string): Promise<WorkspaceEntry[]> {
		return this.inner.list(path);
	}

	async write(path: string, data: Uint8Array): Promise<void> {
		await this.inner.write(path, data);
		this.touched.add(path);
	}

	async delete(path: string): Promise<void> {
		await this.inner.delete(path);
		this.touched.add(path);
	}

	async makeDirectory(path: string): Promise<void> {
		await this.inner.makeDirectory(path);
		this.touched.add(path);
	}
}
