/**
 * Where a learner is in a scenario's steps, kept in the ledger's per-scenario state (so a reset or
 * an import, which empty the ledger, start the steps over too): the step shown, the ledger event
 * each step began at ("Reset step" restores the files to right after it) and the steps whose
 * check passed.
 */
export const stepProgressKey = 'scenario-steps';

export interface StepProgress {
	/** 0-based index of the step shown. */
	current: number;
	/** By step index: the seq of the last ledger event when the learner first opened the step. */
	starts: (number | null)[];
	/** By step index: whether its intents' runnable criteria all passed at its last check. */
	passed: boolean[];
}

/** A stored value read back defensively: another version (or a hand-edited export) may differ. */
export function readStepProgress(value: unknown, stepCount: number): StepProgress {
	const fresh: StepProgress = {
		current: 0,
		starts: Array.from({ length: stepCount }, () => null),
		passed: Array.from({ length: stepCount }, () => false)
	};
	if (typeof value !== 'object' || value === null) return fresh;
	const stored = value as Partial<Record<keyof StepProgress, unknown>>;
	const current = stored.current;
	if (
		typeof current === 'number' &&
		Number.isInteger(current) &&
		current >= 0 &&
		current < stepCount
	)
		fresh.current = current;
	if (Array.isArray(stored.starts))
		for (let index = 0; index < stepCount; index++) {
			const start: unknown = stored.starts[index];
			if (typeof start === 'number' && Number.isInteger(start) && start > 0)
				fresh.starts[index] = start;
		}
	if (Array.isArray(stored.passed))
		for (let index = 0; index < stepCount; index++)
			fresh.passed[index] = stored.passed[index] === true;
	return fresh;
}

/** Opens step `index`: the first time, it begins at the ledger's head `headSeq`. */
export function openStep(progress: StepProgress, index: number, headSeq: number): StepProgress {
	const starts = [...progress.starts];
	if (starts[index] === null || starts[index] === undefined) starts[index] = headSeq;
	return { ...progress, current: index, starts };
}
