import type { Intent } from './intent.js';

/**
 * Re-running an intent's acceptance criteria: one shared definition for `threadline check`
 * (CLI), the intents panel's "Verify intent" and the grader's desk. The caller supplies how a
 * command runs (the offline sandbox, through the governed exec in the browser); this decides
 * what counts: a criterion with `run` passes when its command exits 0; a plain sentence cannot
 * be checked by a machine and is reported as `manual`, never as passed.
 */

export interface CriterionCheck {
	description: string;
	/** Absent for a criterion written as a plain sentence. */
	run?: string;
	outcome: 'passed' | 'failed' | 'manual';
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

export type CriterionRunner = (command: string) => Promise<{ exitCode: number; output: string }>;

const maxOutputCharacters = 4_000;

export async function checkIntentCriteria(
	intent: Intent,
	runCommand: CriterionRunner
): Promise<IntentCheck> {
	const criteria: CriterionCheck[] = [];
	for (const criterion of intent.acceptance_criteria) {
		if (typeof criterion === 'string') {
			criteria.push({ description: criterion, outcome: 'manual' });
			continue;
		}
		let exitCode: number;
		let output: string;
		try {
			({ exitCode, output } = await runCommand(criterion.run));
		} catch (error) {
			exitCode = 1;
			output = `the command could not run: ${error instanceof Error ? error.message : String(error)}`;
		}
		criteria.push({
			description: criterion.description,
			run: criterion.run,
			outcome: exitCode === 0 ? 'passed' : 'failed',
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

/** "2/3 passed, 1 manual": the one-cell summary for reports and CSV. */
export function summarizeChecks(checks: readonly IntentCheck[]): string {
	const all = checks.flatMap((check) => check.criteria);
	const runnable = all.filter((criterion) => criterion.outcome !== 'manual');
	const passed = runnable.filter((criterion) => criterion.outcome === 'passed').length;
	const manual = all.length - runnable.length;
	if (all.length === 0) return 'none';
	return `${passed}/${runnable.length} passed${manual > 0 ? `, ${manual} manual` : ''}`;
}
