import type { CriteriaDeadline } from './criteria-bounds.js';
import type { Intent } from './intent.js';

/**
 * Re-running an intent's acceptance criteria: one shared definition for `threadline check`
 * (CLI), the intents panel's "Verify intent" and the grader's desk. The caller supplies how a
 * command runs (the offline sandbox, through the governed exec in the browser); this decides
 * what counts: a criterion with `run` passes when its command exits 0; a plain sentence cannot
 * be checked by a machine and is reported as `manual`, never as passed. With a deadline, a
 * criterion the deadline cut short or left unstarted is `not-run` (never a pass), and the results
 * already obtained are kept.
 */

export interface CriterionCheck {
	description: string;
	/** Absent for a criterion written as a plain sentence. */
	run?: string;
	/** `not-run`: the check's deadline passed before it started or while it ran (not a pass). */
	outcome: 'passed' | 'failed' | 'manual' | 'not-run';
	exit_code?: number;
	/** The command's output (its tail when long). */
	output?: string;
}

export interface IntentCheck {
	intent_id: string;
	name: string;
	status: string;
	criteria: CriterionCheck[];
	/** True when every runnable criterion passed (and there was at least one). */
	passed: boolean;
}

/** Runs one criterion's command, stopped after `timeoutMs` (the criterion's share of the time). */
export type CriterionRunner = (
	command: string,
	options: { timeoutMs: number }
) => Promise<{ exitCode: number; output: string }>;

const maxOutputCharacters = 4_000;

export async function checkIntentCriteria(
	intent: Intent,
	runCommand: CriterionRunner,
	deadline: CriteriaDeadline
): Promise<IntentCheck> {
	const criteria: CriterionCheck[] = [];
	for (const criterion of intent.acceptance_criteria) {
		if (typeof criterion === 'string') {
			criteria.push({ description: criterion, outcome: 'manual' });
			continue;
		}
		const timeoutMs = deadline.timeoutForNext();
		if (timeoutMs <= 0) {
			criteria.push({
				description: criterion.description,
				run: criterion.run,
				outcome: 'not-run',
				output: `not run: ${deadline.reason} before it could start`
			});
			continue;
		}
		let exitCode: number;
		let output: string;
		try {
			({ exitCode, output } = await runCommand(criterion.run, { timeoutMs }));
		} catch (error) {
			exitCode = 1;
			output = `the command could not run: ${error instanceof Error ? error.message : String(error)}`;
		}
		// Stopped by the whole check's deadline rather than by its own time limit: its result is
		// unknown, so it is not run (never a pass), and the output says why.
		const cutShort = exitCode !== 0 && deadline.passed();
		if (cutShort)
			output = `${output}${output === '' || output.endsWith('\n') ? '' : '\n'}stopped: ${deadline.reason} while it ran`;
		criteria.push({
			description: criterion.description,
			run: criterion.run,
			outcome: cutShort ? 'not-run' : exitCode === 0 ? 'passed' : 'failed',
			exit_code: exitCode,
			output:
				output.length > maxOutputCharacters ? `…${output.slice(-maxOutputCharacters)}` : output
		});
	}
	const runnable = criteria.filter((criterion) => criterion.outcome !== 'manual');
	return {
		intent_id: intent.id,
		name: intent.name,
		status: intent.status,
		criteria,
		passed: runnable.length > 0 && runnable.every((criterion) => criterion.outcome === 'passed')
	};
}

/** "2/3 passed, 1 not run, 1 manual": the one-cell summary for reports and CSV. */
export function summarizeChecks(checks: readonly IntentCheck[]): string {
	const all = checks.flatMap((check) => check.criteria);
	const runnable = all.filter((criterion) => criterion.outcome !== 'manual');
	const passed = runnable.filter((criterion) => criterion.outcome === 'passed').length;
	const notRun = runnable.filter((criterion) => criterion.outcome === 'not-run').length;
	const manual = all.length - runnable.length;
	if (all.length === 0) return 'none';
	return `${passed}/${runnable.length} passed${notRun > 0 ? `, ${notRun} not run` : ''}${manual > 0 ? `, ${manual} manual` : ''}`;
}

/** True when any criterion that can run did not pass (failed, or not run because of the deadline). */
export function anyCriterionUnmet(checks: readonly IntentCheck[]): boolean {
	return checks.some((check) =>
		check.criteria.some(
			(criterion) => criterion.outcome === 'failed' || criterion.outcome === 'not-run'
		)
	);
}
