import type { StartVerifyHelper, VerifiedPart } from '../../../hooks/ledger/verify-parts.js';

/** What the helper Worker answers to its one job: that it has it, then the parts it verified. */
export type VerifyHelperReply =
	{ kind: 'taken' } | { kind: 'done'; parts: VerifiedPart[] } | { kind: 'failed'; message: string };

/** How long a helper may take to start before verify goes on without it. */
const takenWithinMs = 2_000;

/**
 * A verify helper in a Worker of its own (verify-helper.worker.ts), started by the verify Worker
 * for a large ledger: the machine's other core verifies parts of it at the same time
 * (hooks/ledger/verify-parts.ts). Terminating the verify Worker (Cancel) ends its helper with it.
 */
export const startVerifyHelperWorker: StartVerifyHelper = () => {
	const worker = new Worker(new URL('./verify-helper.worker.ts', import.meta.url), {
		type: 'module',
		name: 'threadline-verify-helper'
	});
	return {
		verifyParts(job) {
			let timer: ReturnType<typeof setTimeout> | undefined;
			let onTaken: () => void = () => {};
			let onNotTaken: (error: Error) => void = () => {};
			let onFailed: (error: Error) => void = () => {};
			const taken = new Promise<void>((resolve, reject) => {
				onTaken = resolve;
				onNotTaken = reject;
				timer = setTimeout(
					() => reject(new Error('the verify helper did not start')),
					takenWithinMs
				);
			}).finally(() => clearTimeout(timer));
			const results = new Promise<VerifiedPart[]>((resolve, reject) => {
				onFailed = reject;
				worker.onmessage = (message: MessageEvent<VerifyHelperReply>) => {
					const reply = message.data;
					if (reply.kind === 'taken') onTaken();
					else if (reply.kind === 'done') resolve(reply.parts);
					else reject(new Error(`the verify helper failed: ${reply.message}`));
				};
			});
			worker.onerror = (event) => {
				const error = new Error(
					`the verify helper failed: ${event.message || 'it could not start'}`
				);
				onNotTaken(error);
				onFailed(error);
			};
			// Rejections nobody waits for (a helper that failed after verify went on without it).
			taken.catch(() => {});
			results.catch(() => {});
			worker.postMessage(job);
			return { taken, results };
		},
		close: () => worker.terminate()
	};
};
