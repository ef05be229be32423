import { afterEach, describe, expect, it } from 'vitest';
import { commitEveryChange } from '../commit-every-change.js';
import { IndexedDbWorkspaceFiles } from '../local/indexeddb-workspace-files.js';
import type { LineShellSession, Sandbox } from '../sandbox.js';
import { createWorkerLocalSandbox } from './worker-local-sandbox.js';

// Chromium: isomorphic-git loads in the real shell Worker (with the `buffer` package standing in
// for Node's Buffer), and the repository lives in an IndexedDB database of its own.

const suffix = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
const workspaceName = `threadline-git-browser-test-${suffix}`;
const repositoryName = `${workspaceName}-git`;

describe('git in the Worker sandbox', () => {
	const sandboxes: Sandbox[] = [];
	let workspace: IndexedDbWorkspaceFiles | undefined;

	afterEach(async () => {
		for (const sandbox of sandboxes.splice(0)) await sandbox.dispose();
		await workspace?.close();
		await IndexedDbWorkspaceFiles.deleteDatabase(workspaceName);
		await IndexedDbWorkspaceFiles.deleteDatabase(repositoryName);
	});

	async function terminal(files: IndexedDbWorkspaceFiles) {
		const sandbox = await createWorkerLocalSandbox({ files, repositoryDatabase: repositoryName });
		sandboxes.push(sandbox);
		const shell = (await sandbox.openShell({ cols: 80, rows: 24 })) as LineShellSession;
		return async (line: string) => {
			let output = '';
			const result = await shell.run(line, {
				review: commitEveryChange,
				onOutput: (chunk) => (output += chunk)
			});
			return { output, exitCode: result.exitCode };
		};
	}

	it('commits in a Worker and keeps the history when a new Worker starts', async () => {
		workspace = await IndexedDbWorkspaceFiles.open(workspaceName, {
			initialFiles: async () => ({ 'src/app.ts': 'export const answer = 42;\n' })
		});
		const first = await terminal(workspace);
		expect((await first('git init')).output).toContain('Initialized empty Git repository');
		const commit = await first('git add . && git commit -m "First commit"');
		expect(commit.exitCode).toBe(0);
		expect(commit.output).toMatch(/^\[main \(root-commit\) [0-9a-f]{7}\] First commit\n/);
		await sandboxes.splice(0)[0]?.dispose();

		const second = await terminal(workspace);
		const log = await second('git log --oneline');
		expect(log.output).toMatch(/^[0-9a-f]{7} \(HEAD -> main\) First commit\n$/);
		await second('echo "export const question = 6 * 7;" >> src/app.ts');
		expect((await second('git status -s')).output).toBe(' M src/app.ts\n');
		// The repository is not part of the workspace.
		expect(await workspace.stat('.git')).toBeNull();
	});
});
