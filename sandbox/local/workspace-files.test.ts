import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { DiskWorkspaceFiles } from './disk-workspace-files.js';
import { MemoryWorkspaceFiles } from './memory-workspace-files.js';
import { describeWorkspaceFilesContract } from './workspace-files-contract.js';

const temporaryFolders: string[] = [];

afterEach(async () => {
	await Promise.all(
		temporaryFolders.splice(0).map((folder) => rm(folder, { recursive: true, force: true }))
	);
});

describeWorkspaceFilesContract('memory', async () => new MemoryWorkspaceFiles());

describeWorkspaceFilesContract('disk', async () => {
	const folder = await mkdtemp(join(tmpdir(), 'threadline-files-'));
	temporaryFolders.push(folder);
	return new DiskWorkspaceFiles(folder);
});
