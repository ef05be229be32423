import type { ToolError } from '../errors/tool-error.js';
import type { LedgerEventDraft } from '../ledger/ledger-event.js';
import type { AgentSession } from './agent-session.js';
import type { ToolCall } from './tool-call.js';
import type { ToolOutcome } from './tool-outcome.js';

/** The `tool-decision` event of an agent's call: what the pre-hooks decided, and why. */
export function decisionDraft(
	call: ToolCall,
	session: AgentSession,
	decision: 'allow' | 'deny' | 'ask',
	hooks: string[],
	error?: ToolError
): LedgerEventDraft {
	return {
		type: 'tool-decision',
		session_id: session.id,
		tool: call.tool,
		tool_call_id: call.toolCallId,
		decision,
		hooks,
		...(error ? { code: error.code, message: error.message } : {}),
		intent_id: session.activeIntentId
	};
}

/** The `tool-call-finish` event: how the call ended for the model. */
export function finishDraft(
	call: ToolCall,
	session: AgentSession,
	outcome: ToolOutcome
): LedgerEventDraft {
	return {
		type: 'tool-call-finish',
		session_id: session.id,
		tool: call.tool,
		tool_call_id: call.toolCallId,
		ok: outcome.ok,
		...(outcome.ok ? {} : { code: outcome.error.code }),
		intent_id: session.activeIntentId
	};
}
