import { toolError, type ToolError } from '../errors/tool-error.js';
import type { LedgerEventDraft } from '../ledger/ledger-event.js';
import { riskOf } from '../tools/tool-catalog.js';
import { decisionDraft, finishDraft } from './agent-call-drafts.js';
import { askHuman } from './agent-approval.js';
import { executeAllowedCall } from './agent-execution.js';
import type { AgentSession } from './agent-session.js';
import { executorFailure } from './executor-failure.js';
import type { PreHookContext } from './hook-types.js';
import type { PipelineParts } from './pipeline-parts.js';
import { runPreHooks } from './run-pre-hooks.js';
import { summarizeInput } from './summarize-input.js';
import type { ToolCall } from './tool-call.js';
import type { ToolOutcome } from './tool-outcome.js';
import { validateToolCall } from './validate-tool-call.js';

/**
 * The agent's call end to end. Never rejects: an unexpected failure (the ledger cannot be
 * written, a full storage quota) comes back as a `hook_failed` ToolError so the agent loop and
 * the UI keep going.
 */
export async function runAgentCall(
	parts: PipelineParts,
	call: ToolCall,
	runOptions: { signal?: AbortSignal }
): Promise<ToolOutcome> {
	try {
		return await runGoverned(parts, call, runOptions);
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		// A refused path (a link on it, a parent that is a file) surfaces as late as the commit.
		const pathProblem = executorFailure(call.tool, error);
		if (pathProblem.code !== 'hook_failed') return { ok: false, error: pathProblem, changes: [] };
		return {
			ok: false,
			error: toolError(
				'hook_failed',
				`The call could not be governed or recorded (${message}).`,
				'Stop and tell the human: the workspace may be out of storage or in a bad state.'
			),
			changes: []
		};
	}
}

async function runGoverned(
	parts: PipelineParts,
	call: ToolCall,
	runOptions: { signal?: AbortSignal }
): Promise<ToolOutcome> {
	const session = parts.state.session(call.sessionId);
	const startDraft: LedgerEventDraft = {
		type: 'tool-call-start',
		session_id: session.id,
		tool: call.tool,
		tool_call_id: call.toolCallId,
		input: summarizeInput(call.input)
	};

	const validated = validateToolCall(call);
	if ('error' in validated) {
		await parts.writer.append([
			startDraft,
			decisionDraft(call, session, 'deny', ['invalid-input'], validated.error),
			finishDraft(call, session, { ok: false, error: validated.error, changes: [] })
		]);
		return { ok: false, error: validated.error, changes: [] };
	}
	const { validatedCall, targets, command } = validated;

	let release = await parts.mutex.lock();
	try {
		const context: PreHookContext = {
			call: validatedCall,
			session,
			state: parts.state,
			risk: riskOf(call.tool),
			targets,
			command,
			files: parts.files
		};
		const verdict = await runPreHooks(
			parts.registry.preHooksFor(call.tool, targets),
			context,
			parts.options.scheduler
		);
		const drafts: LedgerEventDraft[] = [startDraft];
		for (const failure of verdict.failures) {
			drafts.push({
				type: 'hook-error',
				session_id: session.id,
				hook: failure.hook,
				tool: call.tool,
				tool_call_id: call.toolCallId,
				message: failure.message
			});
		}
		if (verdict.decision === 'deny' && verdict.denial) {
			return await denied(
				parts,
				call,
				session,
				verdict.hooks,
				verdict.denial.decision.error,
				drafts
			);
		}
		drafts.push(
			decisionDraft(call, session, verdict.decision === 'ask' ? 'ask' : 'allow', verdict.hooks)
		);

		if (verdict.decision === 'ask') {
			drafts.push({
				type: 'approval-request',
				session_id: session.id,
				tool: call.tool,
				tool_call_id: call.toolCallId,
				hooks: verdict.asks.map((request) => request.hook),
				reasons: verdict.asks.flatMap((request) => request.reasons),
				intent_id: session.activeIntentId
			});
			// Persist what happened so far, then wait for the human without holding the lock.
			await parts.writer.append(drafts);
			drafts.length = 0;
			release();
			const answer = await askHuman(
				parts,
				validatedCall,
				session,
				verdict.asks,
				context,
				runOptions.signal
			);
			release = await parts.mutex.lock();
			if (answer.approved && answer.remember === 'intent' && session.activeIntentId) {
				session.approvedIntents.add(session.activeIntentId);
			}
			drafts.push({
				type: 'approval-response',
				session_id: session.id,
				tool: call.tool,
				tool_call_id: call.toolCallId,
				approved: answer.approved,
				...(answer.reason ? { reason: answer.reason } : {}),
				by: 'human',
				intent_id: session.activeIntentId
			});
			if (!answer.approved) {
				const error = toolError(
					'user_rejected',
					`The human rejected this ${call.tool} call${answer.reason ? `: ${answer.reason}` : '.'}`,
					answer.reason
						? 'Adjust your plan to the human’s reason before trying again.'
						: 'Ask the human what they expect before trying again.'
				);
				const outcome: ToolOutcome = { ok: false, error, changes: [] };
				drafts.push(finishDraft(call, session, outcome));
				await parts.writer.append(drafts);
				return outcome;
			}
			// The world may have moved while the human looked (another session, a human edit): check again.
			const recheck = await runPreHooks(
				parts.registry.preHooksFor(call.tool, targets),
				context,
				parts.options.scheduler
			);
			if (recheck.decision === 'deny' && recheck.denial) {
				return await denied(
					parts,
					call,
					session,
					recheck.hooks,
					recheck.denial.decision.error,
					drafts
				);
			}
		}
		return await executeAllowedCall(
			parts,
			validatedCall,
			session,
			targets,
			drafts,
			runOptions.signal
		);
	} finally {
		release();
	}
}

/** Records a deny (decision and finish events) and returns it as the call's outcome. */
async function denied(
	parts: PipelineParts,
	call: ToolCall,
	session: AgentSession,
	hooks: string[],
	error: ToolError,
	drafts: LedgerEventDraft[]
): Promise<ToolOutcome> {
	const outcome: ToolOutcome = { ok: false, error, changes: [] };
	drafts.push(decisionDraft(call, session, 'deny', hooks, error));
	drafts.push(finishDraft(call, session, outcome));
	await parts.writer.append(drafts);
	return outcome;
}
