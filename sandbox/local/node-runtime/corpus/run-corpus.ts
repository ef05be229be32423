import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Sandbox } from '../../../sandbox.js';
import { createLocalSandbox } from '../../local-sandbox.js';
import { MemoryWorkspaceFiles } from '../../memory-workspace-files.js';
import { corpusWorkspace, type CorpusLibrary } from './corpus-workspace.js';
import { parseTapSummary, type TapSummary } from './tap-summary.js';

/**
 * Runs one corpus library's own tests twice: with real Node (a child process over a temporary
 * copy, dependencies in node_modules) and offline, through `createLocalSandbox`'s `exec` (the
 * path acceptance criteria and `threadline check` use), dependencies as workspace packages.
 * Node-only.
 */

export interface CorpusRun {
	summary: TapSummary;
	exitCode: number;
	wallMs: number;
	output: string;
}

/** Where the offline workspace keeps dependencies (found by their package.json `name`). */
export const offlineDependencyFolder = 'corpus-dependencies';

export function testCommand(testFiles: readonly string[]): string {
	return `node --test ${testFiles.map((file) => `'${file}'`).join(' ')}`;
}

export async function runWithRealNode(library: CorpusLibrary): Promise<CorpusRun> {
	const workspace = corpusWorkspace(library, 'node_modules');
	const root = mkdtempSync(join(tmpdir(), 'threadline-corpus-'));
	try {
		for (const [path, bytes] of Object.entries(workspace.files)) {
			mkdirSync(dirname(join(root, path)), { recursive: true });
			writeFileSync(join(root, path), bytes);
		}
		const started = performance.now();
		const result = await new Promise<{ stdout: string; stderr: string; code: number }>(
			(resolve) => {
				execFile(
					process.execPath,
					['--test', '--test-reporter=tap', ...workspace.testFiles],
					{
						cwd: root,
						timeout: 120_000,
						maxBuffer: 64 * 1024 * 1024,
						env: realNodeEnvironment()
					},
					(error, stdout, stderr) => {
						const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
						resolve({ stdout, stderr, code });
					}
				);
			}
		);
		const wallMs = performance.now() - started;
		return {
			summary: parseTapSummary(result.stdout),
			exitCode: result.code,
			wallMs,
			output: result.stdout + result.stderr
		};
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}

/** This process's environment without what would make the child a test runner's child. */
function realNodeEnvironment(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
	// Set by a surrounding `node --test` (or Vitest's workers): the child would then only run
	// its tests as a subprocess of that runner and print no TAP of its own.
	delete env.NODE_TEST_CONTEXT;
	return env;
}

export async function offlineSandboxFor(library: CorpusLibrary): Promise<{
	sandbox: Sandbox;
	testFiles: string[];
}> {
	const workspace = corpusWorkspace(library, offlineDependencyFolder);
	const sandbox = await createLocalSandbox({ files: new MemoryWorkspaceFiles(workspace.files) });
	return { sandbox, testFiles: workspace.testFiles };
}

export async function runOffline(
	library: CorpusLibrary,
	options: { timeoutMs?: number } = {}
): Promise<CorpusRun> {
	const { sandbox, testFiles } = await offlineSandboxFor(library);
	try {
		return await runOfflineIn(sandbox, testFiles, options);
	} finally {
		await sandbox.dispose();
	}
}

export async function runOfflineIn(
	sandbox: Sandbox,
	testFiles: readonly string[],
	options: { timeoutMs?: number } = {}
): Promise<CorpusRun> {
	const started = performance.now();
	const result = await sandbox.exec(testCommand(testFiles), {
		timeoutMs: options.timeoutMs ?? 180_000
	});
	const wallMs = performance.now() - started;
	return {
		summary: parseTapSummary(result.output),
		exitCode: result.exitCode,
		wallMs,
		output: result.output
	};
}
