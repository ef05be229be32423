/// <reference lib="webworker" />
// The export Worker: the zip of "Export .orchestration", built off the page's thread from the
// events it reads from IndexedDB itself, with progress.
import { orchestrationZip } from './export-orchestration.js';
import type { ExportRequest, ExportResponse } from './export-messages.js';
import { readStoredEvents } from './read-stored-events.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = async (message: MessageEvent<ExportRequest>) => {
	const request = message.data;
	const post = (response: ExportResponse, transfer: Transferable[] = []) =>
		scope.postMessage(response, transfer);
	try {
		const events =
			request.events.kind === 'events'
				? request.events.events
				: await readStoredEvents(request.events);
		let reported = 0;
		const zip = await orchestrationZip(
			{
				events,
				activeIntentsYaml: request.activeIntentsYaml,
				intents: request.intents,
				files: request.files,
				folder: request.folder,
				secrets: request.secrets
			},
			(done, total) => {
				// A message per percent is plenty for a progress bar.
				if (done - reported >= total / 100 || done === total) {
					reported = done;
					post({ kind: 'progress', done, total });
				}
			}
		);
		post({ kind: 'done', zip }, [zip.buffer]);
	} catch (error) {
		post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
	}
};
