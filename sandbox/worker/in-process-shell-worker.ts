import type { ShellWorkerEndpoint, ShellWorkerHandle } from './shell-worker-protocol.js';
import { serveShellWorker } from './shell-worker-server.js';

export interface InProcessShellWorker extends ShellWorkerHandle {
	readonly terminated: boolean;
}

/**
 * The shell Worker's code served over a MessageChannel in this thread: the same messages,
 * structured cloning and ordering as a real Worker, for tests in Node. `terminate()` only cuts the
 * channel (a command already running here finishes unseen), which is what a killed Worker looks
 * like from the page. `filter` may drop requests, e.g. to play a Worker too busy to read `stop`.
 */
export function createInProcessShellWorker(
	options: { filter?: (message: unknown) => boolean } = {}
): InProcessShellWorker {
	const channel = new MessageChannel();
	serveShellWorker(channel.port2 as unknown as ShellWorkerEndpoint);
	let terminated = false;
	const handle: InProcessShellWorker = {
		onmessage: null,
		onerror: null,
		get terminated() {
			return terminated;
		},
		postMessage(message: unknown) {
			if (terminated || (options.filter && !options.filter(message))) return;
			channel.port1.postMessage(message);
		},
		terminate() {
			terminated = true;
			channel.port1.close();
			channel.port2.close();
		}
	};
	channel.port1.onmessage = (event: MessageEvent) => {
		if (!terminated) handle.onmessage?.(event);
	};
	return handle;
}
