import { toolError } from '../errors/tool-error.js';
import type { LedgerEventDraft } from '../ledger/ledger-event.js';
import type { PostHook, PostHookContext } from '../pipeline/hook-types.js';
import { hookPolicyPath } from '../policies/hook-policy-schema.js';
import { checksAfter } from '../policies/policy-decision.js';
import type { EntryChange } from '../tools/sandbox-ports.js';
import { appendLessons } from '../ledger/agent-notes.js';
import { agentNotesPath } from '../pipeline/governance-state.js';

export const defaultCheckTimeoutMs = 60_000;
/** The longest a rule may ask for, plus room for reverting what the check touched. */
const hookTimeoutMs = 600_000 + 10_000;
const outputTail = 2_000;

/**
 * The scenario's `run` rules: after a successful call that changed files matching a rule, its
 * command runs in the sandbox. A failure (non-zero exit, time limit) goes back to the agent as a
 * `command_failed` ToolError with the output's tail, and becomes a lesson. A check may not change
 * the workspace: it runs as a shell transaction that commits nothing, so anything it tried to
 * write never reaches the workspace (each path is recorded as a refused change).
 */
export const hookPolicyRunHook: PostHook = {
	name: 'hook-policy-run',
	// Before the lessons hook so AGENT.md gets lessons in the order things happened.
	priority: 15,
	timeoutMs: hookTimeoutMs,
	async run(context: PostHookContext): Promise<void> {
		const { outcome, call, session } = context;
		if (!outcome.ok || outcome.changes.length === 0) return;
		const checks = checksAfter(context.state.hookPolicy, {
			tool: call.tool,
			paths: outcome.changes.map((change) => change.path),
			...(call.tool === 'execute_command' ? { command: String(call.input.command) } : {}),
			activeIntentId: session.activeIntentId
		});
		for (const rule of checks) {
			const command = rule.run as string;
			const allowed = context.consentToCheck ? await context.consentToCheck(command) : true;
			if (!allowed) {
				const paths = outcome.changes.map((change) => change.path).join(', ');
				context.fail(
					toolError(
						'command_denied',
						`Your change to ${paths} was saved, but the person did not allow this scenario's check \`${command}\` (${hookPolicyPath}) to run: the scenario came from a link, so its checks ask first. The change is unchecked.`,
						'Tell the person what the check would verify, or run the tests yourself with execute_command if your intent allows it.'
					)
				);
				return;
			}
			let proposed: readonly EntryChange[] = [];
			let reviewed = false;
			const result = await context.runner.exec(command, {
				timeoutMs: rule.timeout_ms ?? defaultCheckTimeoutMs,
				signal: context.signal,
				review: async (proposal) => {
					reviewed = true;
					proposed = proposal.entries;
					await proposal.commit([]);
				}
			});
			if (!reviewed) {
				// A backend that ignores `review` applied the check's writes unchecked: fail loudly.
				throw new Error(
					'The sandbox ran the check without a transaction; its changes are unchecked'
				);
			}
			recordRefusedCheckChanges(context, proposed);
			if (result.exitCode === 0 && !result.interrupted) continue;
			const tail =
				result.output.length > outputTail ? `…${result.output.slice(-outputTail)}` : result.output;
			const paths = outcome.changes.map((change) => change.path).join(', ');
			context.fail(
				toolError(
					'command_failed',
					`Your change to ${paths} was saved, but the scenario's check \`${command}\` (${hookPolicyPath}) failed with exit code ${result.exitCode}${result.interrupted ? ' (stopped: time limit or interrupt)' : ''}. Output:\n${tail}`,
					'Read the output, fix your change so the check passes, and record a lesson if it teaches something.'
				)
			);
			const firstLine = result.output.split('\n').find((line) => line.trim()) ?? 'no output';
			const lesson: LedgerEventDraft = {
				type: 'lesson-record',
				session_id: session.id,
				intent_id: session.activeIntentId,
				lesson: `The check \`${command}\` failed after a change to ${paths} (exit code ${result.exitCode}): ${firstLine.slice(0, 200)}`,
				category: 'check-failure',
				source: 'command-failure'
			};
			context.emit(lesson);
			// The same renderer verify recomputes AGENT.md with, so the export stays checkable.
			const existing = (await context.fs.stat(agentNotesPath))
				? await context.fs.readTextFile(agentNotesPath)
				: null;
			await context.fs.writeFile(
				agentNotesPath,
				appendLessons(existing, [
					{ intent_id: session.activeIntentId, lesson: lesson.lesson, category: lesson.category }
				])
			);
			// One failing check is enough for the agent to act on.
			return;
		}
	}
};

function recordRefusedCheckChanges(
	context: PostHookContext,
	entries: readonly EntryChange[]
): void {
	for (const entry of entries) {
		context.emit({
			type: 'change-revert',
			session_id: context.session.id,
			tool: context.call.tool,
			tool_call_id: context.call.toolCallId,
			path: entry.path,
			code: 'command_failed'
		});
	}
}
