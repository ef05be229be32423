import type { CriterionCheck, IntentCheck } from '../../../hooks/intents/check-criteria.js';

/** The intents panel's "Verify intent": what one run left to show. */
export interface VerificationState {
	running: boolean;
	result?: IntentCheck;
	error?: string;
}

/** "All 2 runnable criteria pass", "1 of 2 runnable criteria fails", plus the manual ones. */
export function verificationSummary(result: IntentCheck): string {
	const runnable = result.criteria.filter((criterion) => criterion.outcome !== 'manual');
	const failed = runnable.filter((criterion) => criterion.outcome === 'failed').length;
	const manual = result.criteria.length - runnable.length;
	const main =
		failed === 0
			? `All ${runnable.length} runnable criteria pass`
			: `${failed} of ${runnable.length} runnable criteria ${failed === 1 ? 'fails' : 'fail'}`;
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
	}
}
