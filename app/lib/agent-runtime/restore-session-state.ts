import { toolError } from '../../../hooks/errors/tool-error.js';
import type { LedgerEvent, LedgerEventDraft } from '../../../hooks/ledger/ledger-event.js';
import type { GovernanceState } from '../../../hooks/pipeline/governance-state.js';
import type { AgentUIMessage } from '../agent/agent-tools.js';

/** What the ledger says about one tool call id (the last attempt wins: a re-asked call restarts). */
export interface LedgerCallState {
	toolCallId: string;
	sessionId: string;
	tool: string;
	finished: boolean;
	ok: boolean;
	code: string | null;
	/** An approval was asked and not answered when the page went away. */
	awaitingApproval: boolean;
}

/** Folds the ledger into the state of every tool call it has seen. */
export function ledgerCallStates(events: readonly LedgerEvent[]): Map<string, LedgerCallState> {
	const calls = new Map<string, LedgerCallState>();
	for (const event of events) {
		switch (event.type) {
			case 'tool-call-start':
				calls.set(event.tool_call_id, {
					toolCallId: event.tool_call_id,
					sessionId: event.session_id,
					tool: event.tool,
					finished: false,
					ok: false,
					code: null,
					awaitingApproval: false
				});
				break;
			case 'approval-request': {
				const call = calls.get(event.tool_call_id);
				if (call) call.awaitingApproval = true;
				break;
			}
			case 'approval-response': {
				const call = calls.get(event.tool_call_id);
				if (call) call.awaitingApproval = false;
				break;
			}
			case 'tool-call-finish': {
				const call = calls.get(event.tool_call_id);
				if (call) {
					call.finished = true;
					call.awaitingApproval = false;
					call.ok = event.ok;
					call.code = event.code ?? null;
				}
				break;
			}
		}
	}
	return calls;
}

/**
 * Gives every session back the intent it held: the locks live in memory, so without this a reload
 * leaves the agent with "No session holds it" and every later call fails with `intent_required`.
 * Only what the ledger recorded counts: a select takes the lock, a completion by the holder frees it.
 */
export function restoreIntentLocks(state: GovernanceState, events: readonly LedgerEvent[]): void {
	for (const event of events) {
		if (event.type === 'intent-select') {
			if (state.intent(event.intent_id))
				state.acquire(state.session(event.session_id), event.intent_id);
		} else if (event.type === 'intent-status-change' && event.to === 'COMPLETED') {
			const session = state.sessions.get(event.session_id);
			if (session?.activeIntentId === event.intent_id) state.release(session);
		}
	}
}

export interface ResumedCall {
	toolCallId: string;
	tool: string;
	input: unknown;
}

export interface SessionRecovery {
	/** The conversation with every call that cannot go on resolved as an error the model reads. */
	messages: AgentUIMessage[];
	/** Calls that were waiting for the person: run again so the approval is asked again. */
	reask: ResumedCall[];
}

const interruptedSuggestion =
	'Read the files you were changing again to see where things stand, then retry if still needed.';

/** The ToolError text a call gets when a reload or crash cut it off. */
export function interruptedErrorText(call: LedgerCallState | undefined): string {
	if (call?.finished) {
		return JSON.stringify(
			toolError(
				'hook_failed',
				`The page was reloaded before this call's result reached you; the ledger records that it ${call.ok ? 'succeeded' : `failed (${call.code ?? 'unknown'})`}.`,
				interruptedSuggestion
			)
		);
	}
	return JSON.stringify(
		toolError(
			'hook_failed',
			call
				? 'This call was interrupted by a page reload before it finished; nothing of it was committed.'
				: 'This call was interrupted by a page reload before it started; it did not run.',
			interruptedSuggestion
		)
	);
}

/**
 * After a reload, a tool call the chat still shows as running has nobody working on it any more.
 * A call that was waiting for an approval is asked again (never silently lost); every other one
 * is resolved as interrupted, so no card says "running…" forever and the model is told.
 */
export function planSessionRecovery(
	messages: readonly AgentUIMessage[],
	calls: ReadonlyMap<string, LedgerCallState>
): SessionRecovery {
	const reask: ResumedCall[] = [];
	const recovered = messages.map((message) => {
		if (message.role !== 'assistant') return message;
		let changed = false;
		const parts = message.parts.map((part) => {
			if (!part.type.startsWith('tool-')) return part;
			const toolPart = part as unknown as {
				type: string;
				toolCallId: string;
				state: string;
				input?: unknown;
			};
			if (toolPart.state !== 'input-available' && toolPart.state !== 'input-streaming') return part;
			const call = calls.get(toolPart.toolCallId);
			if (toolPart.state === 'input-available' && call && !call.finished && call.awaitingApproval) {
				reask.push({
					toolCallId: toolPart.toolCallId,
					tool: toolPart.type.slice('tool-'.length),
					input: toolPart.input
				});
				return part;
			}
			changed = true;
			return {
				...toolPart,
				state: 'output-error',
				errorText: interruptedErrorText(call),
				output: undefined
			} as unknown as typeof part;
		});
		return changed ? { ...message, parts } : message;
	});
	return { messages: recovered, reask };
}

/**
 * Ledger records closing the calls that started and never finished (and are not asked again), so
 * the trace says they were interrupted instead of leaving them open.
 */
export function interruptedFinishDrafts(
	calls: ReadonlyMap<string, LedgerCallState>,
	reasked: readonly string[],
	intentOf: (sessionId: string) => string | null
): LedgerEventDraft[] {
	const drafts: LedgerEventDraft[] = [];
	for (const call of calls.values()) {
		if (call.finished || reasked.includes(call.toolCallId)) continue;
		drafts.push({
			type: 'tool-call-finish',
			session_id: call.sessionId,
			tool: call.tool,
			tool_call_id: call.toolCallId,
			ok: false,
			code: 'hook_failed',
			intent_id: intentOf(call.sessionId)
		});
	}
	return drafts;
}
