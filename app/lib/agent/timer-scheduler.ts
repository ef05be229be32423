import type { Scheduler } from '../../../hooks/pipeline/ports.js';

/** The page's timers behind the core's Scheduler port; an abort rejects with the signal's reason. */
export const timerScheduler: Scheduler = {
	delay(ms, signal) {
		return new Promise((resolve, reject) => {
			if (signal?.aborted) return reject(abortReason(signal));
			const onAbort = () => {
				clearTimeout(timer);
				reject(abortReason(signal as AbortSignal));
			};
			const timer = setTimeout(() => {
				signal?.removeEventListener('abort', onAbort);
				resolve();
			}, ms);
			signal?.addEventListener('abort', onAbort, { once: true });
		});
	}
};

function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}
