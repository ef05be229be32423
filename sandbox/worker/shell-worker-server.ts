import { JournaledWorkspaceFiles } from '../local/journaled-workspace-files.js';
import { indexedDbGitRepository, memoryGitRepository } from '../local/git/git-repository-store.js';
import { loadJustBash } from '../local/load-just-bash.js';
import { MemoryWorkspaceFiles } from '../local/memory-workspace-files.js';
import { describeError, type StopReason } from '../local/shell-command.js';
import { ShellCommandRunner } from '../local/shell-command-runner.js';
import { applyEntryStates } from '../local/workspace-entry-states.js';
import type {
	ShellWorkerEndpoint,
	ShellWorkerRequest,
	ShellWorkerResponse
} from './shell-worker-protocol.js';

interface Replica {
	/** The replica's bytes, written directly when the page's writes arrive. */
	memory: MemoryWorkspaceFiles;
	/** The same store as the command sees it, remembering what the command touched. */
	journal: JournaledWorkspaceFiles;
	runner: ShellCommandRunner;
}

/**
 * The Worker's side of the local sandbox: holds a replica of the workspace and runs each command
 * with the same ShellCommandRunner the in-page sandbox uses. `load` and `run` are handled one at a
 * time in arrival order; `stop` at once (when the thread is free to read it: a command that never
 * yields is ended by the page terminating this Worker instead).
 */
export function serveShellWorker(endpoint: ShellWorkerEndpoint): void {
	let replica: Replica | undefined;
	let queue: Promise<void> = Promise.resolve();
	const running = new Map<number, AbortController>();
	// A stop can overtake its command while that still waits in the queue.
	const stoppedEarly = new Map<number, StopReason>();
	const send = (message: ShellWorkerResponse) => endpoint.postMessage(message);

	const handle = async (message: ShellWorkerRequest): Promise<void> => {
		if (message.type === 'load') {
			try {
				const justBash = await loadJustBash();
				const memory = new MemoryWorkspaceFiles();
				await applyEntryStates(memory, message.entries);
				const journal = new JournaledWorkspaceFiles(memory);
				const runner = new ShellCommandRunner(justBash, journal, {
					...(message.limits ? { limits: message.limits } : {}),
					...(message.nodeLimits ? { nodeLimits: message.nodeLimits } : {}),
					...(message.maxCommandWriteBytes !== undefined
						? { maxCommandWriteBytes: message.maxCommandWriteBytes }
						: {}),
					// The repository lives beside the workspace, opened by the first `git` command.
					repository: message.repositoryDatabase
						? indexedDbGitRepository(message.repositoryDatabase)
						: memoryGitRepository()
				});
				replica = { memory, journal, runner };
				send({
					type: 'ready',
					commandNames: [...runner.commandNames],
					repositoryRevision: await runner.repositoryRevision()
				});
			} catch (error) {
				send({ type: 'load-failed', message: describeError(error) });
			}
			return;
		}
		if (message.type !== 'run') return;
		const controller = new AbortController();
		running.set(message.id, controller);
		for (const [id, reason] of stoppedEarly) {
			if (id === message.id) controller.abort(reason);
			if (id <= message.id) stoppedEarly.delete(id);
		}
		try {
			if (!replica) throw new Error('the shell worker received a command before its workspace');
			// The page's writes go straight to the bytes: the command did not make them.
			await applyEntryStates(replica.memory, message.sync);
			replica.journal.takeTouchedPaths();
			// The runner writes into an overlay it drops at the end: the replica is unchanged, and the
			// command's changes travel back as `outcome.proposal` for the page to commit or refuse.
			const outcome = await replica.runner.run(message.request, controller.signal);
			send({ type: 'result', id: message.id, outcome });
		} catch (error) {
			send({ type: 'run-failed', id: message.id, message: describeError(error) });
		} finally {
			running.delete(message.id);
		}
	};

	endpoint.onmessage = (event: MessageEvent) => {
		const message = event.data as ShellWorkerRequest;
		if (message?.type === 'stop') {
			const controller = running.get(message.id);
			if (controller) controller.abort(message.reason);
			else stoppedEarly.set(message.id, message.reason);
			return;
		}
		queue = queue.then(() => handle(message));
	};
}
