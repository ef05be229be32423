import { randomUUID } from 'node:crypto';
import type { Clock, IdSource, Scheduler } from '../../hooks/pipeline/ports.js';

export const systemClock: Clock = {
	nowIso: () => new Date().toISOString(),
	nowMs: () => performance.now()
};

export const timerScheduler: Scheduler = {
	delay(ms, signal) {
		return new Promise((resolve, reject) => {
			if (signal?.aborted) return reject(new Error('aborted'));
			const timer = setTimeout(resolve, ms);
			signal?.addEventListener('abort', () => {
				clearTimeout(timer);
				reject(new Error('aborted'));
			});
		});
	}
};

export const randomIds: IdSource = { uuid: () => randomUUID() };
