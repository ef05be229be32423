import { describe, expect, it } from 'vitest';
import type { IntentCheck } from '../../../hooks/intents/check-criteria.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type { ScenarioStep } from '../../../hooks/scenarios/scenario-steps.js';
import { workspaceChangesKit } from '../changes/workspace-changes-test-kit.svelte.js';
import { appDialogs } from '../dialogs/app-dialogs.svelte.js';
import { ScenarioSteps, solutionTool } from './scenario-steps.svelte.js';
import { stepProgressKey } from './step-progress.js';

const steps: ScenarioStep[] = [
	{
		title: 'Write the module',
		brief: 'Write src/a.ts.',
		intents: ['INT-001'],
		solution: { files: { 'src/a.ts': 'export const a = 1;\n' }, remove: ['src/old.ts'] }
	},
	{ title: 'Read on', brief: 'Nothing to hand in.', intents: [] }
];

/** Criteria outcomes by intent, as "Verify intent" would report them. */
function checkOf(intentId: string, failed: boolean): IntentCheck {
	return {
		intent_id: intentId,
		name: 'Sample intent',
		status: 'IN_PROGRESS',
		passed: !failed,
		criteria: [
			{
				description: 'the tests pass',
				run: 'npm test',
				outcome: failed ? 'failed' : 'passed',
				exit_code: failed ? 1 : 0,
				output: failed ? '1 failing' : ''
			}
		]
	};
}

async function setUp(stored?: unknown) {
	const kit = await workspaceChangesKit({
		files: { 'src/old.ts': 'old\n', 'README.md': '# Demo\n' },
		keptTexts: ['old\n', '# Demo\n', 'mine\n']
	});
	const { workspace, changes, notices } = kit;
	const state = new Map<string, unknown>(stored === undefined ? [] : [[stepProgressKey, stored]]);
	let failing = true;
	const scenarioSteps = new ScenarioSteps(steps, {
		get events() {
			return kit.events();
		},
		ledger: {
			writable: true,
			state: (key) => state.get(key),
			setState: (key, value) => state.set(key, structuredClone(value))
		},
		pipeline: kit.pipeline,
		verifyIntent: async (intentId) => checkOf(intentId, failing),
		readText: async (path) =>
			(await kit.fs.stat(path)) ? await kit.fs.readTextFile(path) : undefined,
		unsavedTabs: () => workspace.dirtyCount,
		restore: (seq, wording) => changes.restore(seq, wording),
		notify: (message) => notices.push(message)
	});
	return {
		...kit,
		scenarioSteps,
		state,
		pass: () => {
			failing = false;
		}
	};
}

async function answer(confirm: boolean): Promise<void> {
	await expect.poll(() => appDialogs.current?.kind).toBe('confirm');
	appDialogs.settle(confirm);
}

describe('ScenarioSteps', () => {
	it('opens on step 1 at the starting snapshot and keeps where the learner is', async () => {
		const { scenarioSteps, state, refresh, pipeline } = await setUp();
		expect(scenarioSteps.index).toBe(0);
		expect(scenarioSteps.progress.starts[0]).toBe(1);
		await pipeline.recordHumanEdit({ path: 'README.md', content: 'mine\n' });
		await refresh();
		scenarioSteps.go(1);
		expect(state.get(stepProgressKey)).toEqual({
			current: 1,
			starts: [1, 2],
			passed: [false, false]
		});
		// Going back does not move where step 2 began.
		scenarioSteps.go(0);
		scenarioSteps.go(1);
		expect(scenarioSteps.progress.starts[1]).toBe(2);
		scenarioSteps.go(7);
		expect(scenarioSteps.index).toBe(1);
	});

	it('reads stored progress back, dropping what does not fit the steps', async () => {
		const { scenarioSteps } = await setUp({ current: 1, starts: [1, 'x', 9], passed: [true] });
		expect(scenarioSteps.progress).toEqual({ current: 1, starts: [1, 1], passed: [true, false] });
		const { scenarioSteps: fresh } = await setUp({ current: 5 });
		expect(fresh.index).toBe(0);
	});

	it('passes a step only when every runnable criterion of its intents passes', async () => {
		const { scenarioSteps, pass } = await setUp();
		const failed = await scenarioSteps.check();
		expect(failed.results.map((result) => result.intentId)).toEqual(['INT-001']);
		expect(scenarioSteps.progress.passed[0]).toBe(false);
		pass();
		await scenarioSteps.check();
		expect(scenarioSteps.progress.passed[0]).toBe(true);
	});

	it('records each check of a step in the ledger: steps are evidence (issue 28)', async () => {
		const { scenarioSteps, pass, events, refresh } = await setUp();
		await scenarioSteps.check();
		pass();
		await scenarioSteps.check();
		await refresh();
		const checks = events().filter((event) => event.type === 'step-check');
		expect(
			checks.map((event) => (event.type === 'step-check' ? [event.step, event.passed] : null))
		).toEqual([
			[1, false],
			[1, true]
		]);
		expect(checks[0]).toMatchObject({ intents: ['INT-001'], session_id: 'workspace' });
	});

	it('applies the solution after asking, as the person’s recorded change, and resets the step', async () => {
		const { scenarioSteps, fs, refresh, notices, workspace, events } = await setUp();
		const declined = scenarioSteps.applySolution();
		await answer(false);
		expect(await declined).toBe(false);
		expect(await fs.readTextFile('src/old.ts')).toBe('old\n');

		const applied = scenarioSteps.applySolution();
		await answer(true);
		expect(await applied).toBe(true);
		expect(await fs.readTextFile('src/a.ts')).toBe('export const a = 1;\n');
		expect(await fs.stat('src/old.ts')).toBeNull();
		await refresh();
		const records = events().filter(
			(event): event is Extract<LedgerEvent, { type: 'mutation-record' }> =>
				event.type === 'mutation-record'
		);
		expect(records.map((event) => event.trace.files[0]?.path).sort()).toEqual([
			'src/a.ts',
			'src/old.ts'
		]);
		for (const record of records) {
			expect(record.trace.files[0]?.conversations[0]?.contributor.type).toBe('human');
			expect(record.trace.metadata['dev.threadline'].tool).toBe(solutionTool);
		}
		// Applying it again changes nothing and says so.
		expect(await scenarioSteps.applySolution()).toBe(false);
		expect(notices.at(-1)).toMatch(/already in place/);

		// Reset step: the files as the step began, after asking, recorded too.
		await workspace.refresh();
		const reset = scenarioSteps.reset();
		await answer(true);
		expect(await reset).toBe(true);
		expect(await fs.readTextFile('src/old.ts')).toBe('old\n');
		expect(await fs.stat('src/a.ts')).toBeNull();
		expect(notices.at(-1)).toMatch(/Restored the workspace/);
	});

	it('offers no solution where the step has none', async () => {
		const { scenarioSteps } = await setUp();
		scenarioSteps.go(1);
		expect(scenarioSteps.current.solution).toBeUndefined();
		expect(await scenarioSteps.applySolution()).toBe(false);
		expect(appDialogs.current).toBeNull();
	});
});
