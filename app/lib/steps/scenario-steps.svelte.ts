import type { IntentCheck } from '../../../hooks/intents/check-criteria.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type { ToolPipeline } from '../../../hooks/pipeline/tool-pipeline.js';
import { solutionChanges, type ScenarioStep } from '../../../hooks/scenarios/scenario-steps.js';
import { appDialogs } from '../dialogs/app-dialogs.svelte.js';
import { stepPassed, type StepCheck } from './step-check-summary.js';
import { openStep, readStepProgress, stepProgressKey, type StepProgress } from './step-progress.js';

export type { StepCheck } from './step-check-summary.js';

/** The tool name a solution's records carry (contributor `human`): the person chose to apply it. */
export const solutionTool = 'step-solution';

/** What the steps need of the open IDE (the agent runtime, its ledger, the workspace). */
export interface StepsHost {
	/** The ledger's events, reactive. */
	readonly events: readonly LedgerEvent[];
	readonly ledger: {
		readonly writable: boolean;
		state(key: string): unknown;
		setState(key: string, value: unknown): void;
	};
	readonly pipeline: Pick<ToolPipeline, 'recordHumanChanges'> &
		Partial<Pick<ToolPipeline, 'recordStepCheck'>>;
	verifyIntent(intentId: string): Promise<IntentCheck>;
	/** A workspace file's text; null when it is not UTF-8 text, undefined when it does not exist. */
	readText(path: string): Promise<string | null | undefined>;
	/** Open editor tabs with unsaved edits (each asks whether to keep them when its file changes). */
	unsavedTabs(): number;
	/** Restores the files to right after `seq`, asking first (WorkspaceChanges.restore). */
	restore(seq: number, wording: { title: string; question: string }): Promise<boolean>;
	notify(message: string): void;
}

/**
 * A scenario taught in steps: which step is shown, checking it (its intents' criteria, the same
 * run as "Verify intent"), "Reset step" (the files back to where the step began, a recorded
 * restore) and "Show solution" (the instructor's files applied as the person's change).
 */
export class ScenarioSteps {
	progress = $state.raw<StepProgress>({ current: 0, starts: [], passed: [] });
	checks = $state.raw<(StepCheck | null)[]>([]);
	busy = $state(false);
	readonly current: ScenarioStep;

	constructor(
		readonly steps: readonly ScenarioStep[],
		private readonly host: StepsHost
	) {
		this.progress = readStepProgress(host.ledger.state(stepProgressKey), steps.length);
		this.checks = steps.map(() => null);
		this.current = $derived(steps[this.progress.current] as ScenarioStep);
		// The step shown begins here the first time it is opened (step 1: at the starting snapshot).
		this.go(this.progress.current);
	}

	get index(): number {
		return this.progress.current;
	}

	go(index: number): void {
		if (index < 0 || index >= this.steps.length) return;
		this.save(openStep(this.progress, index, this.headSeq()));
	}

	/** Runs the criteria of the step's intents; the step passes when every runnable one passes. */
	async check(): Promise<StepCheck> {
		const index = this.progress.current;
		const step = this.steps[index] as ScenarioStep;
		const results: StepCheck['results'] = [];
		this.setCheck(index, { running: true, results });
		for (const intentId of step.intents) {
			try {
				results.push({ intentId, check: await this.host.verifyIntent(intentId), error: null });
			} catch (error) {
				results.push({
					intentId,
					check: null,
					error: error instanceof Error ? error.message : String(error)
				});
			}
			this.setCheck(index, { running: true, results: [...results] });
		}
		const done: StepCheck = { running: false, results };
		this.setCheck(index, done);
		const passedList = [...this.progress.passed];
		passedList[index] = stepPassed(done);
		this.save({ ...this.progress, passed: passedList });
		// issue 28: the result is evidence in the ledger (a grader counts steps passed from it).
		if (this.host.ledger.writable && this.host.pipeline.recordStepCheck) {
			try {
				await this.host.pipeline.recordStepCheck({
					step: index + 1,
					title: step.title,
					intents: [...step.intents],
					passed: passedList[index] === true
				});
			} catch (error) {
				this.host.notify(
					`The check of step ${index + 1} could not be recorded in the ledger: ${error instanceof Error ? error.message : String(error)}`
				);
			}
		}
		return done;
	}

	/** "Reset step": the files as they were when the learner opened this step, after asking. */
	async reset(): Promise<boolean> {
		if (this.busy) return false;
		const index = this.progress.current;
		const start = this.progress.starts[index] ?? this.snapshotSeq();
		if (start === null) {
			this.host.notify('This step has no recorded start to go back to yet.');
			return false;
		}
		this.busy = true;
		try {
			return await this.host.restore(start, {
				title: `Reset step ${index + 1}`,
				question: `Put the files back as they were when you began step ${index + 1}, “${this.current.title}”?`
			});
		} finally {
			this.busy = false;
		}
	}

	/** "Show solution": the instructor's solution written into the workspace, after asking. */
	async applySolution(): Promise<boolean> {
		const index = this.progress.current;
		const solution = this.steps[index]?.solution;
		if (!solution || this.busy) return false;
		this.busy = true;
		try {
			const paths = [...Object.keys(solution.files), ...solution.remove];
			const read = await Promise.all(
				paths.map(async (path) => [path, await this.host.readText(path)] as const)
			);
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local lookup, never rendered
			const existing = new Map(
				read.filter((entry): entry is [string, string | null] => entry[1] !== undefined)
			);
			const changes = solutionChanges(solution, existing);
			if (changes.length === 0) {
				this.host.notify(`The solution of step ${index + 1} is already in place.`);
				return false;
			}
			const written = changes
				.filter((change) => change.content !== null)
				.map((change) => change.path);
			const removed = changes
				.filter((change) => change.content === null)
				.map((change) => change.path);
			const confirmed = await appDialogs.confirm({
				title: `Show the solution of step ${index + 1}`,
				message: [
					`Apply the instructor's solution to “${this.current.title}”?`,
					written.length ? `Written: ${written.join(', ')}.` : '',
					removed.length ? `Removed: ${removed.join(', ')}.` : '',
					'It is recorded in the ledger as your change (tool step-solution), so a grader sees it; Reset step undoes it.',
					this.host.unsavedTabs() > 0
						? `${this.host.unsavedTabs()} open file(s) with unsaved edits will ask whether to keep them.`
						: ''
				]
					.filter(Boolean)
					.join(' '),
				confirmLabel: 'Apply solution',
				danger: true
			});
			if (!confirmed) return false;
			const encoder = new TextEncoder();
			await this.host.pipeline.recordHumanChanges({
				files: changes.map((change) => ({
					path: change.path,
					content: change.content === null ? null : encoder.encode(change.content)
				})),
				tool: solutionTool
			});
			this.host.notify(
				`Applied the solution of step ${index + 1}: ${changes.length} file${changes.length === 1 ? '' : 's'} changed, recorded as your change.`
			);
			return true;
		} catch (error) {
			this.host.notify(
				`The solution was not applied: ${error instanceof Error ? error.message : String(error)}`
			);
			return false;
		} finally {
			this.busy = false;
		}
	}

	private headSeq(): number {
		return this.host.events.at(-1)?.seq ?? 0;
	}

	private snapshotSeq(): number | null {
		return this.host.events.find((event) => event.type === 'workspace-snapshot')?.seq ?? null;
	}

	private setCheck(index: number, check: StepCheck): void {
		const checks = [...this.checks];
		checks[index] = check;
		this.checks = checks;
	}

	private save(progress: StepProgress): void {
		this.progress = progress;
		// A read-only tab (another tab writes) still moves between steps; it just does not keep it.
		if (this.host.ledger.writable) this.host.ledger.setState(stepProgressKey, progress);
	}
}
