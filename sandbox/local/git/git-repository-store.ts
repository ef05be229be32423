import { IndexedDbWorkspaceFiles } from '../indexeddb-workspace-files.js';
import { MemoryWorkspaceFiles } from '../memory-workspace-files.js';
import type { WorkspaceFiles } from '../workspace-files.js';

/**
 * Where a workspace's repository (the `.git` folder's files) lives: beside the workspace, never
 * in it (see git-file-system.ts). `flush` makes what a `git` command wrote durable before the
 * command reports success.
 */
export interface GitRepositoryStore {
	files: WorkspaceFiles;
	flush?(): Promise<void>;
	/** Stores everything `work` writes as one transaction (an index never without its objects). */
	batch?<Result>(work: () => Promise<Result>): Promise<Result>;
}

export type OpenGitRepository = () => Promise<GitRepositoryStore>;

/** A repository that lives as long as the sandbox (tests, the CLI's throw-away sandboxes). */
export function memoryGitRepository(): OpenGitRepository {
	const store: GitRepositoryStore = { files: new MemoryWorkspaceFiles() };
	return () => Promise.resolve(store);
}

/**
 * The browser's: an IndexedDB database of its own (named after the workspace's), opened on the
 * first `git` command, so a shell that never runs git never opens it.
 */
export function indexedDbGitRepository(databaseName: string): OpenGitRepository {
	let opening: Promise<GitRepositoryStore> | undefined;
	return () => {
		opening ??= IndexedDbWorkspaceFiles.open(databaseName).then(
			(files) => ({
				files,
				flush: () => files.flush(),
				batch: (work) => files.batch(work)
			}),
			(error: unknown) => {
				opening = undefined;
				throw error;
			}
		);
		return opening;
	};
}

/** The repository database of a workspace database (`threadline-workspace-<id>`). */
export function gitRepositoryDatabaseName(workspaceDatabaseName: string): string {
	return `${workspaceDatabaseName}-git`;
}
