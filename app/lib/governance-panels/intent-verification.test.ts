import { describe, expect, it } from 'vitest';
import type { IntentCheck } from '../../../hooks/intents/check-criteria.js';
import { criterionMark, verificationSummary } from './intent-verification.js';

const check = (outcomes: ('passed' | 'failed' | 'manual')[]): IntentCheck => ({
	intent_id: 'INT-001',
	name: 'x',
	status: 'IN_PROGRESS',
	passed: false,
	criteria: outcomes.map((outcome, index) => ({ description: `c${index}`, outcome }))
});

describe('verificationSummary', () => {
	it('counts runnable criteria apart from the ones a person checks', () => {
		expect(verificationSummary(check(['passed', 'passed']))).toBe('All 2 runnable criteria pass');
		expect(verificationSummary(check(['passed', 'failed', 'manual']))).toBe(
			'1 of 2 runnable criteria fails; 1 to check by hand'
		);
		expect(verificationSummary(check(['failed', 'failed']))).toBe('2 of 2 runnable criteria fail');
		expect(criterionMark({ description: 'x', outcome: 'manual' })).toBe('BY HAND');
	});
});
