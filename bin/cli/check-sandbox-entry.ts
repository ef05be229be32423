import { parentPort, workerData } from 'node:worker_threads';
import { createLocalSandbox } from '../../sandbox/local/local-sandbox.js';
import { MemoryWorkspaceFiles } from '../../sandbox/local/memory-workspace-files.js';
import type { SandboxThreadReply, SandboxThreadRequest } from './check-sandbox-thread.js';

/**
 * The sandbox thread of `threadline check` (started by check-sandbox-thread.ts): the offline
 * sandbox over the export's files, running one criterion's command at a time for the main
 * thread. Its JavaScript heap is bounded by the thread's resourceLimits, so a command that
 * makes the sandbox grow ends this thread, never the grader's process.
 */
const { files, maxCommandWriteBytes } = workerData as {
	files: Record<string, Uint8Array>;
	maxCommandWriteBytes?: number;
};
const port = parentPort;
if (!port) throw new Error('check-sandbox-entry runs in a worker thread');

const started = createLocalSandbox({
	files: new MemoryWorkspaceFiles(files),
	...(maxCommandWriteBytes !== undefined ? { maxCommandWriteBytes } : {})
});
started.then(
	() => port.postMessage({ type: 'ready' } satisfies SandboxThreadReply),
	(error: unknown) =>
		port.postMessage({
			type: 'failed',
			message: error instanceof Error ? error.message : String(error)
		} satisfies SandboxThreadReply)
);

port.on('message', (request: SandboxThreadRequest) => {
	void (async () => {
		let reply: SandboxThreadReply;
		try {
			// No review: the check's commands commit nothing to the copy (fail closed).
			const result = await (
				await started
			).exec(request.command, {
				timeoutMs: request.timeoutMs
			});
			reply = { type: 'result', id: request.id, exitCode: result.exitCode, output: result.output };
		} catch (error) {
			reply = {
				type: 'result',
				id: request.id,
				exitCode: 1,
				output: `the command could not run: ${error instanceof Error ? error.message : String(error)}`
			};
		}
		port.postMessage(reply);
	})();
});
