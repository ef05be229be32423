/**
 * The bounds every run of acceptance criteria keeps, wherever it runs: `threadline check`, the
 * grader's "Re-run criteria", the intents panel's "Verify intent" and `complete_intent`. One
 * place for the defaults, so the browser and the CLI grade an export within the same limits.
 * (What one command may write and how much memory `node` may use are the sandbox's own limits,
 * the same for every command: sandbox/local/local-sandbox-options.ts.)
 */
export const criteriaBounds = Object.freeze({
	/** How long one criterion's command may run. */
	criterionTimeoutMs: 120_000,
	/** How long all the criteria of one check may run together (the whole export, or one intent). */
	deadlineMs: 600_000,
	/**
	 * Acceptance criteria in one `active_intents.yaml` (all intents together): refused when the
	 * file is loaded, so an export cannot queue more work than a check can do.
	 */
	maxCriteriaPerFile: 100
});

/** The time left for a check's criteria, read from an injected clock (hooks/ has no timers). */
export interface CriteriaDeadline {
	/** The timeout for the next criterion: its own limit, or less when the deadline is closer. */
	timeoutForNext(): number;
	/** True once the whole check's time is used up. */
	passed(): boolean;
	/** "the check's deadline (600 s) passed", for the criteria it cut short or never started. */
	readonly reason: string;
}

export function criteriaDeadline(options: {
	/** Monotonic milliseconds. */
	nowMs: () => number;
	deadlineMs?: number | undefined;
	criterionTimeoutMs?: number | undefined;
}): CriteriaDeadline {
	const deadlineMs = options.deadlineMs ?? criteriaBounds.deadlineMs;
	const criterionTimeoutMs = options.criterionTimeoutMs ?? criteriaBounds.criterionTimeoutMs;
	for (const [name, value] of [
		['deadline', deadlineMs],
		['criterion timeout', criterionTimeoutMs]
	] as const) {
		if (!Number.isFinite(value) || value <= 0)
			throw new RangeError(`the ${name} must be a positive number of milliseconds`);
	}
	const endsAt = options.nowMs() + deadlineMs;
	const remaining = () => endsAt - options.nowMs();
	return {
		timeoutForNext: () => Math.max(0, Math.min(criterionTimeoutMs, remaining())),
		passed: () => remaining() <= 0,
		reason: `the check's deadline (${formatSeconds(deadlineMs)}) passed`
	};
}

function formatSeconds(milliseconds: number): string {
	const seconds = milliseconds / 1000;
	return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
