import { describe, expect, it } from 'vitest';
import type { CriterionCheck, IntentCheck } from '../../../hooks/intents/check-criteria.js';
import { stepCheckVerdict, stepPassed, type StepCheck } from './step-check-summary.js';

function intent(id: string, outcomes: CriterionCheck['outcome'][]): IntentCheck {
	const criteria = outcomes.map((outcome, index) => ({
		description: `criterion ${index + 1}`,
		...(outcome === 'manual' ? {} : { run: 'npm test', exit_code: outcome === 'failed' ? 1 : 0 }),
		outcome
	}));
	const runnable = criteria.filter((criterion) => criterion.outcome !== 'manual');
	return {
		intent_id: id,
		name: id,
		status: 'IN_PROGRESS',
		criteria,
		passed: runnable.length > 0 && runnable.every((criterion) => criterion.outcome === 'passed')
	};
}

const checked = (...results: StepCheck['results']): StepCheck => ({ running: false, results });

describe('a step check', () => {
	it('passes when every intent passed, and says so', () => {
		const check = checked(
			{ intentId: 'INT-001', check: intent('INT-001', ['passed', 'manual']), error: null },
			{ intentId: 'INT-002', check: intent('INT-002', ['passed']), error: null }
		);
		expect(stepPassed(check)).toBe(true);
		expect(stepCheckVerdict(check, 2)).toBe(
			'Step 2 passes: INT-001: All 1 runnable criteria pass; 1 to check by hand; INT-002: All 1 runnable criteria pass.'
		);
	});

	it('is not done while a criterion fails or an intent could not be checked', () => {
		const failing = checked({
			intentId: 'INT-001',
			check: intent('INT-001', ['passed', 'failed']),
			error: null
		});
		expect(stepPassed(failing)).toBe(false);
		expect(stepCheckVerdict(failing, 1)).toMatch(/^Step 1 is not done yet: INT-001: 1 of 2/);
		const unchecked = checked({ intentId: 'INT-009', check: null, error: 'INT-009 is not in …' });
		expect(stepPassed(unchecked)).toBe(false);
		expect(stepCheckVerdict(unchecked, 1)).toContain(
			'INT-009: could not be checked (INT-009 is not in …)'
		);
	});

	it('does not pass on sentences alone, nor with nothing checked, nor while running', () => {
		const manual = checked({
			intentId: 'INT-001',
			check: intent('INT-001', ['manual']),
			error: null
		});
		expect(stepPassed(manual)).toBe(false);
		expect(stepCheckVerdict(manual, 3)).toMatch(
			/^Step 3 has nothing that runs: .*Check it by hand/
		);
		expect(stepPassed(checked())).toBe(false);
		expect(stepPassed({ running: true, results: manual.results })).toBe(false);
		expect(stepCheckVerdict({ running: true, results: [] }, 3)).toBe('Checking step 3…');
	});
});
