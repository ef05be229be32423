import type { VerifyReport } from '../../../hooks/ledger/verify.js';
import type { VerifyProgress, VerifyRequest, VerifyResponse } from './verify-messages.js';

export interface VerifyInWorkerOptions {
	onProgress?: (progress: VerifyProgress) => void;
	/** Aborting terminates the Worker at once and rejects with an AbortError. */
	signal?: AbortSignal;
}

/**
 * Runs verify in its own Worker (one per run: a Cancel ends it with `terminate()`, which stops even
 * a pass in the middle of a line). jsonl bytes are transferred, not copied.
 */
export function verifyInWorker(
	request: VerifyRequest,
	options: VerifyInWorkerOptions = {}
): Promise<VerifyReport> {
	return new Promise<VerifyReport>((resolve, reject) => {
		if (options.signal?.aborted) {
			reject(new DOMException('Verify was cancelled', 'AbortError'));
			return;
		}
		const worker = new Worker(new URL('./verify.worker.ts', import.meta.url), {
			type: 'module',
			name: 'threadline-verify'
		});
		const finish = () => {
			worker.terminate();
			options.signal?.removeEventListener('abort', abort);
		};
		const abort = () => {
			finish();
			reject(new DOMException('Verify was cancelled', 'AbortError'));
		};
		options.signal?.addEventListener('abort', abort, { once: true });
		worker.onmessage = (message: MessageEvent<VerifyResponse>) => {
			const response = message.data;
			if (response.kind === 'progress') {
				options.onProgress?.({ checked: response.checked, total: response.total });
			} else if (response.kind === 'done') {
				finish();
				resolve(response.report);
			} else {
				finish();
				reject(new Error(response.message));
			}
		};
		worker.onerror = (event) => {
			finish();
			reject(new Error(`the verify Worker failed: ${event.message || 'it could not start'}`));
		};
		const buffers =
			request.kind === 'jsonl' ? new Set([request.audit.buffer, request.trace.buffer]) : new Set();
		const transfer = [...buffers].filter((buffer) => buffer instanceof ArrayBuffer);
		worker.postMessage(request, transfer as Transferable[]);
	});
}
