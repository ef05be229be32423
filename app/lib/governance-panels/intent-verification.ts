import type { CriterionCheck, IntentCheck } from '../../../hooks/intents/check-criteria.js';

/** The intents panel's "Verify intent": what one run left to show. */
export interface VerificationState {
	running: boolean;
	result?: IntentCheck;
	error?: string;
}

/**
 * "All 2 runnable criteria pass", "1 of 2 runnable criteria fails", plus the ones the deadline
 * left unrun and the manual ones.
 */
export function verificationSummary(result: IntentCheck): string {
	const runnable = result.criteria.filter((criterion) => criterion.outcome !== 'manual');
	const failed = runnable.filter((criterion) => criterion.outcome === 'failed').length;
	const notRun = runnable.filter((criterion) => criterion.outcome === 'not-run').length;
	const manual = result.criteria.length - runnable.length;
	let main =
		failed === 0 && notRun === 0
			? `All ${runnable.length} runnable criteria pass`
			: failed === 0
				? `${runnable.length - notRun} of ${runnable.length} runnable criteria pass`
				: `${failed} of ${runnable.length} runnable criteria ${failed === 1 ? 'fails' : 'fail'}`;
	if (notRun > 0) main += `; ${notRun} not run (the check's deadline passed)`;
	return manual > 0 ? `${main}; ${manual} to check by hand` : main;
}

export function criterionMark(criterion: CriterionCheck): string {
	switch (criterion.outcome) {
		case 'passed':
			return 'PASS';
		case 'failed':
			return 'FAIL';
		case 'manual':
			return 'BY HAND';
		case 'not-run':
			return 'NOT RUN';
	}
}
