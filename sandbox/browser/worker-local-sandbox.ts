import { JournaledWorkspaceFiles } from '../local/journaled-workspace-files.js';
import {
	checkLocalSandboxOptions,
	type LocalSandboxOptions
} from '../local/local-sandbox-options.js';
import { ShellSandbox } from '../local/shell-sandbox.js';
import { WorkspaceFileSystem } from '../local/workspace-file-system.js';
import type { Sandbox, SandboxFileSystem } from '../sandbox.js';
import type { ShellWorkerHandle } from '../worker/shell-worker-protocol.js';
import { WorkerShellHost } from '../worker/worker-shell-host.js';

export interface WorkerLocalSandboxOptions extends LocalSandboxOptions {
	/** The Worker to run commands in; the bundled shell Worker by default (tests inject one). */
	createWorker?: () => ShellWorkerHandle;
	/** How long a stopped command may take before its Worker is terminated; 600 ms by default. */
	killGraceMs?: number;
	/** How long the Worker may take to load just-bash and the workspace; 30 s by default. */
	startTimeoutMs?: number;
	/**
	 * The IndexedDB database the Worker keeps the workspace's git repository in (opened by the
	 * first `git` command); without one the repository lives as long as the Worker.
	 */
	repositoryDatabase?: string;
	/**
	 * The Worker starts once this settles (fulfilled or rejected), not before: the IDE holds it
	 * back while Monaco loads, as its boot would take the CPU the page needs on a two-core machine.
	 * `fs` works meanwhile.
	 */
	startAfter?: Promise<unknown>;
}

/**
 * The local sandbox for the browser: the same interface and behaviour as createLocalSandbox, but
 * every command line (exec and terminal) runs in a dedicated module Worker holding a replica of
 * the workspace, so a runaway loop is ended by terminating the Worker while the page stays
 * responsive. `files` (this page's copy, e.g. IndexedDbWorkspaceFiles) stays the authority: `fs`
 * reads and writes it directly, and each command's changes are written back to it.
 *
 * just-bash and QuickJS are loaded inside the Worker only. Rejects when the Worker cannot start.
 */
export async function createWorkerLocalSandbox(
	options: WorkerLocalSandboxOptions
): Promise<Sandbox> {
	return openWorkerLocalSandbox(options).sandbox;
}

/**
 * The same sandbox in two parts: `fs` at once (the page's files, readable and writable while
 * the Worker still loads just-bash, so the IDE shows the tree and opens files without waiting
 * for it) and `sandbox` when the Worker is ready. `sandbox.fs` is that same `fs`. Writes to `fs`
 * before then reach the Worker with the first command, like every other page write.
 */
export function openWorkerLocalSandbox(options: WorkerLocalSandboxOptions): {
	fs: SandboxFileSystem;
	sandbox: Promise<Sandbox>;
} {
	const timeouts = checkLocalSandboxOptions(options, 'createWorkerLocalSandbox');
	const journal = new JournaledWorkspaceFiles(options.files);
	let created: ShellSandbox | undefined;
	let failed = false;
	const fs = new WorkspaceFileSystem(journal, () => {
		if (failed || created?.isDisposed)
			throw new Error('This local sandbox has been disposed (or never started)');
	});
	const started = options.startAfter
		? options.startAfter.then(
				() => undefined,
				() => undefined
			)
		: Promise.resolve();
	const sandbox = started
		.then(() =>
			WorkerShellHost.start({
				files: options.files,
				journal,
				createWorker: options.createWorker ?? createShellWorker,
				...(options.limits ? { limits: options.limits } : {}),
				...(options.nodeLimits ? { nodeLimits: options.nodeLimits } : {}),
				...(options.maxCommandWriteBytes !== undefined
					? { maxCommandWriteBytes: options.maxCommandWriteBytes }
					: {}),
				...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
				...(options.startTimeoutMs !== undefined ? { startTimeoutMs: options.startTimeoutMs } : {}),
				...(options.repositoryDatabase ? { repositoryDatabase: options.repositoryDatabase } : {})
			})
		)
		.then(
			(host) => (created = new ShellSandbox(journal, host, timeouts, fs)),
			(error: unknown) => {
				failed = true;
				throw error;
			}
		);
	return { fs, sandbox };
}

function createShellWorker(): ShellWorkerHandle {
	// This exact form lets Vite bundle the Worker as a same-origin module (COEP require-corp).
	return new Worker(new URL('../worker/local-sandbox.worker.ts', import.meta.url), {
		type: 'module',
		name: 'threadline-shell'
	});
}
