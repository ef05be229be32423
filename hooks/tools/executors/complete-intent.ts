import { toolError } from '../../errors/tool-error.js';
import { criteriaBounds, criteriaDeadline } from '../../intents/criteria-bounds.js';
import { setIntentStatus } from '../../intents/edit-intents-yaml.js';
import { writeIntentsYaml } from './write-intents-yaml.js';
import type { FileChange } from '../sandbox-ports.js';
import type { Executor } from './execution-context.js';
import { runGovernedCommand } from './governed-exec.js';

/**
 * Runs the intent's runnable acceptance criteria; only when all pass is the intent COMPLETED.
 * Within the bounds of every check (criteria-bounds.ts): each criterion its own time limit, all
 * of them the deadline (when the context has a clock); one that the deadline stops or leaves
 * unstarted fails the call with the reason.
 */
export const completeIntent: Executor = async (context) => {
	const intentId = String(context.call.input.intent_id);
	const intent = context.state.intent(intentId);
	if (!intent) throw new Error(`intent ${intentId} vanished between check and execution`);
	const results: {
		criterion: string;
		command: string;
		exit_code: number;
		refused_changes?: string[];
	}[] = [];
	const recorded: FileChange[] = [];
	const deadline = context.nowMs ? criteriaDeadline({ nowMs: context.nowMs }) : null;
	for (const criterion of intent.acceptance_criteria) {
		if (typeof criterion === 'string') continue;
		const timeoutMs = deadline ? deadline.timeoutForNext() : criteriaBounds.criterionTimeoutMs;
		if (deadline && timeoutMs <= 0) return notRun(criterion, deadline.reason, recorded);
		// The same governed transaction as execute_command, in this intent's scope: a criterion
		// script cannot change what the agent itself could not.
		const { result, kept, refused, violation } = await runGovernedCommand(context, criterion.run, {
			timeoutMs,
			intentId
		});
		recorded.push(...kept);
		results.push({
			criterion: criterion.description,
			command: criterion.run,
			exit_code: result.exitCode,
			...(refused.length ? { refused_changes: refused.map(({ entry }) => entry.path) } : {})
		});
		if (violation) {
			return {
				ok: false,
				error: toolError(
					violation.code,
					`Acceptance criterion "${criterion.description}" (\`${criterion.run}\`, exit code ${result.exitCode}) tried to change paths outside the intent's bounds, so the intent was not completed. ${violation.message}`,
					'Make the criterion only read and test; it may change files inside the owned_scope only.'
				),
				changes: recorded,
				changesRecorded: true
			};
		}
		if (result.exitCode !== 0 && deadline?.passed())
			return notRun(criterion, deadline.reason, recorded, result.output);
		if (result.exitCode !== 0) {
			return {
				ok: false,
				error: toolError(
					'command_failed',
					`Acceptance criterion "${criterion.description}" failed: \`${criterion.run}\` exited with ${result.exitCode}.\n${result.output.slice(-2_000)}`,
					'Fix the failing criterion, then call complete_intent again.'
				),
				changes: recorded,
				changesRecorded: true
			};
		}
	}
	const updated = setIntentStatus(context.state.intentsYaml, intentId, 'COMPLETED');
	await writeIntentsYaml(context, updated);
	context.emit({
		type: 'intent-status-change',
		session_id: context.session.id,
		intent_id: intentId,
		from: intent.status,
		to: 'COMPLETED'
	});
	context.state.release(context.session);
	// The scenario asked for the work to be committed: the working tree, intents file included,
	// as one commit named after the intent. A failed commit does not undo the completion (the
	// criteria passed); it is reported with the outcome.
	const commit = context.commitWork
		? await context
				.commitWork({
					message: `${intentId}: ${intent.name}\n\nCompleted with complete_intent in session ${context.session.id}.\n`,
					author: {
						name: `${context.session.modelId ?? 'agent'} (Threadline agent)`,
						email: 'agent@threadline.invalid'
					}
				})
				.catch((error: unknown) => ({
					revision: null,
					committed: false,
					problem: error instanceof Error ? error.message : String(error)
				}))
		: null;
	return {
		ok: true,
		output: {
			intent_id: intentId,
			status: 'COMPLETED',
			criteria_run: results,
			evidence: context.call.input.evidence ?? null,
			...(commit ? { commit } : {})
		},
		changes: recorded,
		changesRecorded: true
	};
};

/** The deadline stopped a criterion or left it unstarted: not completed, and the agent told why. */
function notRun(
	criterion: { description: string; run: string },
	reason: string,
	recorded: FileChange[],
	output?: string
) {
	return {
		ok: false as const,
		error: toolError(
			'command_failed',
			`Acceptance criterion "${criterion.description}" (\`${criterion.run}\`) was not run to the end: ${reason}, so the intent was not completed.${output ? `\n${output.slice(-2_000)}` : ''}`,
			'Make the criteria faster (each runs in the offline sandbox), then call complete_intent again.'
		),
		changes: recorded,
		changesRecorded: true
	};
}
