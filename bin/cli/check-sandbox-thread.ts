import { Worker } from 'node:worker_threads';
import type { CriteriaSandbox } from '../../hooks/intents/check-export-criteria.js';

/**
 * `threadline check` runs the offline sandbox in a worker thread whose JavaScript heap is
 * bounded (`resourceLimits`): garbage a hostile command leaves behind is collected before the
 * heap passes the limit (it took the process to 620 MB otherwise), and a sandbox that still
 * outgrows it ends its own thread, not the grader's process. That criterion then fails with a
 * plain message and the next one runs in a fresh sandbox; the results so far are kept in this
 * thread. A thread that does not answer within its command's time limit (plus a grace) is
 * terminated the same way.
 */

export type SandboxThreadRequest = { id: number; command: string; timeoutMs: number };
export type SandboxThreadReply =
	| { type: 'ready' }
	| { type: 'failed'; message: string }
	| { type: 'result'; id: number; exitCode: number; output: string };

/** The sandbox's JavaScript heap, by default (`threadline check --sandbox-memory-mb`). */
export const defaultSandboxHeapMb = 256;
/** How long past its own time limit a command may take to answer before its thread is ended. */
const unansweredGraceMs = 10_000;

/** The TypeScript the thread runs. */
export const checkSandboxEntry = new URL('./check-sandbox-entry.ts', import.meta.url).href;

/**
 * The thread's first code: tsx's loader, then the entry, as real ES modules, so the sandbox
 * loads its packages exactly as on the main thread (a CommonJS bundle of it got the QuickJS
 * variant's CommonJS default, which dropped the wasm memory limit). Starting tsx in a thread
 * costs a few hundred milliseconds (bin/CONTEXT.md), once per check and after a crash.
 */
const bootstrap = `
const { workerData, parentPort } = require('node:worker_threads');
import(workerData.tsx)
	.then(({ register }) => {
		register();
		return import(workerData.entry);
	})
	.catch((error) => parentPort.postMessage({ type: 'failed', message: String(error && error.message || error) }));
`;

export interface SandboxThreadOptions {
	/** The export's workspace (and `.orchestration/`), by path. */
	files: Record<string, Uint8Array>;
	/** The sandbox thread's JavaScript heap limit, in MiB. */
	heapMb?: number;
	/** Bytes one command may write (LocalSandboxOptions.maxCommandWriteBytes). */
	maxCommandWriteBytes?: number;
	/** The thread's TypeScript (a file URL); checkSandboxEntry by default (tests pass their own). */
	entry?: string;
	/** How long past its time limit a command may take to answer; 10 s by default. */
	answerGraceMs?: number;
}

/** A CriteriaSandbox whose commands run in a bounded worker thread, started again after a crash. */
export async function startSandboxThread(options: SandboxThreadOptions): Promise<CriteriaSandbox> {
	const entry = options.entry ?? checkSandboxEntry;
	const heapMb = options.heapMb ?? defaultSandboxHeapMb;
	const tsx = import.meta.resolve('tsx/esm/api');
	let current: Promise<RunningThread> | null = null;
	let disposed = false;
	const thread = () =>
		(current ??= startThread({
			entry,
			tsx,
			heapMb,
			files: options.files,
			maxCommandWriteBytes: options.maxCommandWriteBytes,
			answerGraceMs: options.answerGraceMs ?? unansweredGraceMs
		}));
	// The first thread starts now, so a sandbox that cannot start at all is an error of the check.
	await thread();
	let nextId = 0;
	return {
		async exec(command, { timeoutMs }) {
			if (disposed) throw new Error('the sandbox thread was disposed');
			let running: RunningThread;
			try {
				running = await thread();
			} catch (error) {
				current = null;
				throw error;
			}
			const outcome = await running.run({ id: ++nextId, command, timeoutMs });
			if ('ended' in outcome) {
				// A fresh sandbox for whatever runs next; this one is gone with its thread.
				current = null;
				void running.worker.terminate();
				return { exitCode: outcome.exitCode, output: outcome.ended };
			}
			return outcome;
		},
		async dispose() {
			disposed = true;
			const last = current;
			current = null;
			if (last) await (await last.catch(() => null))?.worker.terminate();
		}
	};
}

interface RunningThread {
	worker: Worker;
	run(
		request: SandboxThreadRequest
	): Promise<{ exitCode: number; output: string } | { exitCode: number; ended: string }>;
}

function startThread(options: {
	entry: string;
	tsx: string;
	heapMb: number;
	files: Record<string, Uint8Array>;
	maxCommandWriteBytes: number | undefined;
	answerGraceMs: number;
}): Promise<RunningThread> {
	const worker = new Worker(bootstrap, {
		eval: true,
		workerData: {
			entry: options.entry,
			tsx: options.tsx,
			files: options.files,
			...(options.maxCommandWriteBytes !== undefined
				? { maxCommandWriteBytes: options.maxCommandWriteBytes }
				: {})
		},
		resourceLimits: { maxOldGenerationSizeMb: options.heapMb, maxYoungGenerationSizeMb: 32 },
		// The sandbox's own output goes into the criterion's result, never to the grader's terminal.
		stdout: true,
		stderr: true
	});
	worker.stdout.resume();
	worker.stderr.resume();
	// Why the thread ended, once it has: every later wait settles at once with it.
	let endedBecause: string | null = null;
	const endedListeners = new Set<(reason: string) => void>();
	const end = (reason: string) => {
		endedBecause ??= reason;
		for (const listener of endedListeners) listener(endedBecause);
	};
	worker.on('error', (error: Error & { code?: string }) =>
		end(
			error.code === 'ERR_WORKER_OUT_OF_MEMORY'
				? `stopped: the sandbox ran out of memory (its JavaScript heap may hold ${options.heapMb} MiB); the criteria after this one run in a fresh sandbox`
				: `stopped: the sandbox failed (${error.message}); the criteria after this one run in a fresh sandbox`
		)
	);
	worker.on('exit', (code) => end(`stopped: the sandbox ended (exit code ${code})`));
	const whenEnded = () =>
		new Promise<string>((resolve) => {
			if (endedBecause !== null) resolve(endedBecause);
			else endedListeners.add(resolve);
		});

	return new Promise<RunningThread>((resolve, reject) => {
		const onStart = (reply: SandboxThreadReply) => {
			if (reply.type === 'failed')
				reject(new Error(`the sandbox could not start: ${reply.message}`));
			else if (reply.type === 'ready') resolve({ worker, run });
			else return;
			worker.off('message', onStart);
		};
		worker.on('message', onStart);
		void whenEnded().then((reason) => reject(new Error(`the sandbox could not start: ${reason}`)));
	});

	function run(request: SandboxThreadRequest) {
		return new Promise<{ exitCode: number; output: string } | { exitCode: number; ended: string }>(
			(resolve) => {
				const onReply = (reply: SandboxThreadReply) => {
					if (reply.type !== 'result' || reply.id !== request.id) return;
					finish({ exitCode: reply.exitCode, output: reply.output });
				};
				const watchdog = setTimeout(() => {
					finish({
						exitCode: 124,
						ended: `stopped: the command did not stop at its time limit (${request.timeoutMs} ms), so its sandbox was ended; the criteria after this one run in a fresh sandbox`
					});
				}, request.timeoutMs + options.answerGraceMs);
				const onEnded = (reason: string) => finish({ exitCode: 137, ended: reason });
				function finish(
					outcome: { exitCode: number; output: string } | { exitCode: number; ended: string }
				) {
					clearTimeout(watchdog);
					worker.off('message', onReply);
					endedListeners.delete(onEnded);
					resolve(outcome);
				}
				worker.on('message', onReply);
				if (endedBecause !== null) onEnded(endedBecause);
				else endedListeners.add(onEnded);
				worker.postMessage(request);
			}
		);
	}
}
