/// <reference lib="webworker" />
import { createGradeWorker } from './grade-worker.js';
import type { GradeRequest } from './grade-protocol.js';

// Verify and report run here, off the page's thread, so 60 exports never freeze the table.
const scope = self as unknown as DedicatedWorkerGlobalScope;
const worker = createGradeWorker((response) => scope.postMessage(response));
scope.addEventListener('message', (event: MessageEvent<GradeRequest>) => {
	void worker.handle(event.data);
});
