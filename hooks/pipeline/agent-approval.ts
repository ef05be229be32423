import { executors } from '../tools/executors/executors.js';
import type { AgentSession } from './agent-session.js';
import { executionContext, plannedWriteTools } from './agent-execution-context.js';
import type { ApprovalRequest } from './decision.js';
import type { PreHookContext, ValidatedCall } from './hook-types.js';
import type { PipelineParts } from './pipeline-parts.js';
import type { ApprovalAnswer, ApprovalPrompt } from './ports.js';

/**
 * Asks the human about a call the pre-hooks sent to approval, with what it would change (a
 * file's before/after, a command's classification and writes). No answer is a no.
 */
export async function askHuman(
	parts: PipelineParts,
	call: ValidatedCall,
	session: AgentSession,
	asks: ApprovalRequest[],
	context: PreHookContext,
	signal?: AbortSignal
): Promise<ApprovalAnswer> {
	if (signal?.aborted) return { approved: false, reason: 'The session was stopped.' };
	const prompt: ApprovalPrompt = {
		hook: asks.map((request) => request.hook).join(', '),
		reasons: asks.flatMap((request) => request.reasons),
		intentId: session.activeIntentId ?? asks.find((request) => request.intentId)?.intentId,
		sessionId: session.id,
		tool: call.tool,
		toolCallId: call.toolCallId,
		input: call.input
	};
	if (plannedWriteTools.has(call.tool)) {
		prompt.preview = await previewOf(parts, call, session, context);
	}
	if (context.command) {
		prompt.command = {
			command: String(call.input.command),
			cwd: context.command.cwd || '.',
			classification: context.command.level,
			reasons: context.command.reasons,
			writes: [...context.targets],
			writesUnknown: context.command.writesUnknown
		};
		const intentId = session.activeIntentId;
		const scope = intentId ? parts.state.scope.patternsOf(intentId) : null;
		if (scope) prompt.command.scope = [...scope];
	}
	try {
		return await parts.options.approvals.request(prompt);
	} catch (error) {
		// No answer is a no: the approval port failing must not let the call through.
		return {
			approved: false,
			reason: `approval could not be obtained (${error instanceof Error ? error.message : String(error)})`
		};
	}
}

/** Runs the executor in dry-run fashion to show the human the exact before/after. */
async function previewOf(
	parts: PipelineParts,
	call: ValidatedCall,
	session: AgentSession,
	context: PreHookContext
) {
	const planned = await executors[call.tool](
		executionContext(parts, call, session, context.targets, () => undefined)
	);
	const decoder = new TextDecoder();
	return planned.changes.map((change) => ({
		path: change.path,
		before: change.before ? decoder.decode(change.before) : null,
		after: change.after ? decoder.decode(change.after) : null
	}));
}
