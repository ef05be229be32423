import type { IntentCheck } from '../../../hooks/intents/check-criteria.js';
import { verificationSummary } from '../governance-panels/intent-verification.js';

/** One step's last check: per intent, what its criteria said. */
export interface StepCheck {
	running: boolean;
	results: { intentId: string; check: IntentCheck | null; error: string | null }[];
}

/**
 * A step passes when every one of its intents passed its check (`IntentCheck.passed`: every
 * runnable criterion passed, and there was at least one). Criteria that are only sentences are
 * checked by hand and do not pass a step on their own.
 */
export function stepPassed(check: StepCheck): boolean {
	return (
		!check.running &&
		check.results.length > 0 &&
		check.results.every((result) => result.check?.passed === true)
	);
}

/** One line per checked intent: "INT-001: All 2 runnable criteria pass". */
export function stepCheckLines(check: StepCheck): string[] {
	return check.results.map((result) =>
		result.check
			? `${result.intentId}: ${verificationSummary(result.check)}`
			: `${result.intentId}: could not be checked (${result.error ?? 'unknown error'})`
	);
}

/** The step's verdict in one sentence, for the live region. */
export function stepCheckVerdict(check: StepCheck, stepNumber: number): string {
	if (check.running) return `Checking step ${stepNumber}…`;
	const lines = stepCheckLines(check).join('; ');
	if (stepPassed(check)) return `Step ${stepNumber} passes: ${lines}.`;
	const failed = check.results.some(
		(result) =>
			result.check === null ||
			result.check.criteria.some(
				(criterion) => criterion.outcome === 'failed' || criterion.outcome === 'not-run'
			)
	);
	return failed
		? `Step ${stepNumber} is not done yet: ${lines}.`
		: `Step ${stepNumber} has nothing that runs: ${lines}. Check it by hand, then go on.`;
}
