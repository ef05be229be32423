import { parentPort } from 'node:worker_threads';
import type { SandboxThreadReply, SandboxThreadRequest } from './check-sandbox-thread.js';

/**
 * A stand-in for the sandbox thread (check-sandbox-thread.test.ts): `leak` keeps allocating
 * until the thread's heap limit ends it, `hang` never answers, anything else echoes.
 */
const port = parentPort;
if (!port) throw new Error('a worker thread only');
const kept: string[][] = [];
port.postMessage({ type: 'ready' } satisfies SandboxThreadReply);
port.on('message', (request: SandboxThreadRequest) => {
	if (request.command === 'leak') {
		for (;;) kept.push(Array.from({ length: 100_000 }, (_, index) => `${index}-${kept.length}`));
	}
	if (request.command === 'hang') return;
	port.postMessage({
		type: 'result',
		id: request.id,
		exitCode: 0,
		output: `ran ${request.command} (${kept.length})`
	} satisfies SandboxThreadReply);
});
