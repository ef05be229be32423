import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkIntentCriteria, summarizeChecks, anyCriterionUnmet } from './check-criteria.js';
import { checkExportCriteria } from './check-export-criteria.js';
import { criteriaBounds, criteriaDeadline } from './criteria-bounds.js';
import type { Intent } from './intent.js';

/** A clock the fake commands move: each command "takes" the seconds its name says. */
function fakeTime() {
	let now = 1_000;
	const timeouts: number[] = [];
	const run = async (command: string, { timeoutMs }: { timeoutMs: number }) => {
		timeouts.push(timeoutMs);
		const [verb, seconds = '0'] = command.split(' ');
		const wanted = Number(seconds) * 1000;
		// A command that wants longer than its timeout is stopped at the timeout (exit 124).
		if (wanted > timeoutMs) {
			now += timeoutMs;
			return { exitCode: 124, output: `stopped after ${timeoutMs} ms` };
		}
		now += wanted;
		return { exitCode: verb === 'fail' ? 1 : 0, output: `${verb} done` };
	};
	return { nowMs: () => now, run, timeouts };
}

function intentWith(commands: string[]): Intent {
	return {
		id: 'INT-001',
		name: 'Bounded',
		status: 'IN_PROGRESS',
		owned_scope: [],
		constraints: [],
		acceptance_criteria: [
			'a sentence only a person can check',
			...commands.map((run, index) => ({ description: `criterion ${index + 1}`, run }))
		],
		parallel: false,
		extra: {}
	};
}

describe('criteria within a deadline', () => {
	it.each([
		{
			name: 'all fit: every criterion runs, each with its own limit',
			deadlineSeconds: 300,
			commands: ['pass 10', 'fail 10', 'pass 10'],
			outcomes: ['manual', 'passed', 'failed', 'passed'],
			timeouts: [120_000, 120_000, 120_000]
		},
		{
			name: 'a sleep of 100000 s fails at its own limit, and the next one still runs',
			deadlineSeconds: 300,
			commands: ['sleep 100000', 'pass 1'],
			outcomes: ['manual', 'failed', 'passed'],
			timeouts: [120_000, 120_000]
		},
		{
			name: 'a sleep the deadline stops: it and the rest are not run',
			deadlineSeconds: 100,
			commands: ['pass 10', 'sleep 100000', 'pass 1', 'pass 1'],
			outcomes: ['manual', 'passed', 'not-run', 'not-run', 'not-run'],
			timeouts: [100_000, 90_000]
		},
		{
			name: 'the deadline cuts the criterion that runs when it passes',
			deadlineSeconds: 300,
			commands: ['pass 100', 'pass 100', 'sleep 200'],
			outcomes: ['manual', 'passed', 'passed', 'not-run'],
			timeouts: [120_000, 120_000, 100_000]
		},
		{
			name: 'a criterion that passes just before the deadline keeps its pass',
			deadlineSeconds: 300,
			commands: ['pass 119', 'pass 119', 'pass 62', 'pass 1'],
			outcomes: ['manual', 'passed', 'passed', 'passed', 'not-run'],
			timeouts: [120_000, 120_000, 62_000]
		}
	])('$name', async ({ deadlineSeconds, commands, outcomes, timeouts }) => {
		const time = fakeTime();
		const deadline = criteriaDeadline({ nowMs: time.nowMs, deadlineMs: deadlineSeconds * 1000 });
		const check = await checkIntentCriteria(intentWith(commands), time.run, deadline);
		expect(check.criteria.map((criterion) => criterion.outcome)).toEqual(outcomes);
		expect(time.timeouts).toEqual(timeouts);
		const notRun = check.criteria.filter((criterion) => criterion.outcome === 'not-run');
		for (const criterion of notRun)
			expect(criterion.output).toMatch(/the check's deadline \(\d+ s\) passed/);
		// A criterion not run is never a pass.
		expect(check.passed).toBe(outcomes.slice(1).every((outcome) => outcome === 'passed'));
		expect(anyCriterionUnmet([check])).toBe(
			outcomes.some((outcome) => outcome === 'failed' || outcome === 'not-run')
		);
	});

	it('never runs past the deadline by more than one command, whatever the criteria (property)', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(
					fc.tuple(fc.constantFrom('pass', 'fail', 'sleep'), fc.integer({ min: 0, max: 500 })),
					{ maxLength: 30 }
				),
				fc.integer({ min: 1, max: 400 }),
				async (steps, deadlineSeconds) => {
					const time = fakeTime();
					const started = time.nowMs();
					const deadline = criteriaDeadline({
						nowMs: time.nowMs,
						deadlineMs: deadlineSeconds * 1000,
						criterionTimeoutMs: 120_000
					});
					const check = await checkIntentCriteria(
						intentWith(steps.map(([verb, seconds]) => `${verb} ${seconds}`)),
						time.run,
						deadline
					);
					// The whole check ends by the deadline (each command is stopped at its timeout,
					// which is never past the deadline).
					expect(time.nowMs() - started).toBeLessThanOrEqual(deadlineSeconds * 1000);
					expect(check.criteria).toHaveLength(steps.length + 1);
					for (const timeout of time.timeouts) expect(timeout).toBeLessThanOrEqual(120_000);
					// Once one criterion is not run, none after it runs.
					const firstNotRun = check.criteria.findIndex((c) => c.outcome === 'not-run');
					if (firstNotRun >= 0)
						for (const later of check.criteria.slice(firstNotRun))
							expect(later.outcome).toBe('not-run');
				}
			),
			{ numRuns: 200 }
		);
	});

	it('summarizes not-run criteria apart from failures', async () => {
		const time = fakeTime();
		const deadline = criteriaDeadline({ nowMs: time.nowMs, deadlineMs: 5_000 });
		const check = await checkIntentCriteria(
			intentWith(['pass 1', 'sleep 100', 'pass 1']),
			time.run,
			deadline
		);
		expect(summarizeChecks([check])).toBe('1/3 passed, 2 not run, 1 manual');
	});

	it('refuses a deadline or timeout that is not a positive number', () => {
		for (const deadlineMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
			expect(() => criteriaDeadline({ nowMs: () => 0, deadlineMs })).toThrow(/deadline/);
		expect(() => criteriaDeadline({ nowMs: () => 0, criterionTimeoutMs: 0 })).toThrow(/timeout/);
	});

	it('keeps the deadline over every intent of an export, and its results', async () => {
		const time = fakeTime();
		const yaml = `active_intents:
  - id: INT-001
    name: First
    status: IN_PROGRESS
    acceptance_criteria:
      - { description: quick, run: "pass 1" }
      - { description: endless, run: "sleep 100000" }
  - id: INT-002
    name: Second
    status: IN_PROGRESS
    acceptance_criteria:
      - { description: never reached, run: "pass 1" }
`;
		let disposed = false;
		const checks = await checkExportCriteria({
			files: new Map(),
			orchestration: new Map([['active_intents.yaml', new TextEncoder().encode(yaml)]]),
			timeoutMs: 60_000,
			deadlineMs: 50_000,
			nowMs: time.nowMs,
			startSandbox: async () => ({
				exec: (command, options) => time.run(command, options),
				dispose: async () => {
					disposed = true;
				}
			})
		});
		expect(checks.map((check) => check.criteria.map((criterion) => criterion.outcome))).toEqual([
			['passed', 'not-run'],
			['not-run']
		]);
		expect(time.timeouts).toEqual([50_000, 49_000]);
		expect(disposed).toBe(true);
	});

	it('has the documented defaults', () => {
		expect(criteriaBounds).toEqual({
			criterionTimeoutMs: 120_000,
			deadlineMs: 600_000,
			maxCriteriaPerFile: 100
		});
	});
});
