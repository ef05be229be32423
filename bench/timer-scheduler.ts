import type { Scheduler } from '../hooks/pipeline/ports.js';

/**
 * Real timers, as the app and the CLI inject them: an async pre-hook then pays for arming and
 * clearing its timeout, which a never-resolving test scheduler would hide.
 */
export const timerScheduler: Scheduler = {
	delay(milliseconds, signal) {
		return new Promise((resolve, reject) => {
			if (signal?.aborted) return reject(new Error('aborted'));
			const timer = setTimeout(resolve, milliseconds);
			signal?.addEventListener(
				'abort',
				() => {
					clearTimeout(timer);
					reject(new Error('aborted'));
				},
				{ once: true }
			);
		});
	}
};
