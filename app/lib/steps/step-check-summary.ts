import { verificationSummary } from '../governance-panels/intent-verification.js';
import type { StepCheck } from './scenario-steps.svelte.js';

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
	const failed = check.results.some(
		(result) =>
			result.check === null ||
			result.check.criteria.some((criterion) => criterion.outcome === 'failed')
	);
	return failed
		? `Step ${stepNumber} is not done yet: ${stepCheckLines(check).join('; ')}.`
		: `Step ${stepNumber} passes: ${stepCheckLines(check).join('; ')}.`;
}
