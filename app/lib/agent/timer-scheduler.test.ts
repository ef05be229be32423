import { describe, expect, it } from 'vitest';
import { timerScheduler } from './timer-scheduler.js';

describe('timerScheduler', () => {
	it('resolves after the delay', async () => {
		const started = performance.now();
		await timerScheduler.delay(20);
		expect(performance.now() - started).toBeGreaterThanOrEqual(15);
	});

	it('rejects with the abort reason when aborted while waiting', async () => {
		const controller = new AbortController();
		const waiting = timerScheduler.delay(10_000, controller.signal);
		controller.abort();
		await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
	});

	it('rejects at once when the signal is already aborted', async () => {
		const controller = new AbortController();
		controller.abort(new Error('gone'));
		await expect(timerScheduler.delay(10_000, controller.signal)).rejects.toThrow('gone');
	});
});
