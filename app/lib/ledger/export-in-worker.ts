import type { ExportRequest, ExportResponse } from './export-messages.js';

/**
 * Builds the "Export .orchestration" zip in a Worker (the page stays responsive while 40k events
 * are written and compressed); `onProgress` hears steps done of the total (see zipStream).
 */
export function exportInWorker(
	request: ExportRequest,
	onProgress: (done: number, total: number) => void = () => undefined
): Promise<Uint8Array> {
	return new Promise((resolve, reject) => {
		const worker = new Worker(new URL('./export.worker.ts', import.meta.url), {
			type: 'module',
			name: 'threadline-export'
		});
		worker.onmessage = (message: MessageEvent<ExportResponse>) => {
			const response = message.data;
			if (response.kind === 'progress') onProgress(response.done, response.total);
			else {
				worker.terminate();
				if (response.kind === 'done') resolve(response.zip);
				else reject(new Error(response.message));
			}
		};
		worker.onerror = (event) => {
			worker.terminate();
			reject(new Error(`the export Worker failed: ${event.message || 'it could not start'}`));
		};
		worker.postMessage(request);
	});
}
