import type { Clock, IdSource, Scheduler } from '../../../hooks/pipeline/ports.js';

/** The pipeline's ports in the page: wall clock, timers and Web Crypto ids. */
export function browserPorts(): { clock: Clock; scheduler: Scheduler; ids: IdSource } {
	return {
		clock: { nowIso: () => new Date().toISOString(), nowMs: () => performance.now() },
		scheduler: {
			delay: (ms, signal) =>
				new Promise((resolve, reject) => {
					if (signal?.aborted) return reject(new Error('aborted'));
					const timer = setTimeout(resolve, ms);
					signal?.addEventListener('abort', () => {
						clearTimeout(timer);
						reject(new Error('aborted'));
					});
				})
		},
		ids: { uuid: () => crypto.randomUUID() }
	};
}
