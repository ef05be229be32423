import { describe, expect, it } from 'vitest';
import type { Clock } from '../../pipeline/ports.js';
import { createTestPipeline } from '../../pipeline/pipeline-test-kit.js';

const intentsYaml = `active_intents:
  - id: INT-001
    name: Bounded completion
    status: IN_PROGRESS
    owned_scope: ["src/**"]
    acceptance_criteria:
      - { description: "slow", run: "slow" }
      - { description: "quick", run: "quick" }
`;

/** A clock that only the commands move: `slow` takes 700 s. */
function commandTime(exitCodeOfSlow: number) {
	let now = 0;
	const clock: Clock = { nowIso: () => '2026-11-21T12:00:00.000Z', nowMs: () => now };
	const test = createTestPipeline({
		intentsYaml,
		clock,
		commands: { slow: { exitCode: exitCodeOfSlow, output: 'slow output' } }
	});
	const timeouts: (number | undefined)[] = [];
	const exec = test.runner.exec.bind(test.runner);
	test.runner.exec = async (command, options = {}) => {
		timeouts.push(options.timeoutMs);
		if (command === 'slow') now += 700_000;
		return exec(command, options);
	};
	return { ...test, timeouts };
}

describe('complete_intent within the bounds of every check', () => {
	it('does not complete when the deadline leaves a criterion unstarted', async () => {
		const { call, runner, state, timeouts } = commandTime(0);
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('complete_intent', { intent_id: 'INT-001' });
		expect(outcome.ok).toBe(false);
		if (!outcome.ok) {
			expect(outcome.error.code).toBe('command_failed');
			expect(outcome.error.message).toMatch(
				/"quick" \(`quick`\) was not run to the end: the check's deadline \(600 s\) passed/
			);
		}
		expect(runner.commands).toEqual(['slow']);
		expect(timeouts).toEqual([120_000]);
		expect(state.intent('INT-001')?.status).toBe('IN_PROGRESS');
	});

	it('says the deadline stopped a criterion that was running', async () => {
		const { call, state } = commandTime(124);
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('complete_intent', { intent_id: 'INT-001' });
		expect(!outcome.ok && outcome.error.message).toMatch(
			/"slow" \(`slow`\) was not run to the end: the check's deadline \(600 s\) passed[^]*slow output/
		);
		expect(state.intent('INT-001')?.status).toBe('IN_PROGRESS');
	});

	it('completes when every criterion passes in time', async () => {
		const { call, state, timeouts } = createTimed();
		await call('select_active_intent', { intent_id: 'INT-001' });
		expect((await call('complete_intent', { intent_id: 'INT-001' })).ok).toBe(true);
		expect(timeouts).toEqual([120_000, 120_000]);
		expect(state.intent('INT-001')?.status).toBe('COMPLETED');
	});
});

function createTimed() {
	const now = 0;
	const test = createTestPipeline({
		intentsYaml,
		clock: { nowIso: () => '2026-11-21T12:00:00.000Z', nowMs: () => now }
	});
	const timeouts: (number | undefined)[] = [];
	const exec = test.runner.exec.bind(test.runner);
	test.runner.exec = async (command, options = {}) => {
		timeouts.push(options.timeoutMs);
		return exec(command, options);
	};
	return { ...test, timeouts };
}
