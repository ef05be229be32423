import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';

/**
 * The conversation as the learner saw it, rebuilt from the ledger: one card per tool call (its
 * input, the hooks' decision, the approval asked and answered with its reason, the outcome),
 * plus intent selections, lessons and people's edits. The ledger does not keep the chat's text
 * messages, so they cannot be shown; the page says so.
 */
export type ConversationItem =
	| {
			kind: 'tool';
			seq: number;
			session: string;
			tool: string;
			toolCallId: string;
			input: unknown;
			intentId: string | null;
			decision: { decision: string; code?: string; message?: string; hooks: string[] } | null;
			approval: {
				reasons: string[];
				approved: boolean | null;
				by?: string;
				reason?: string;
			} | null;
			outcome: { ok: boolean; code?: string } | null;
			files: string[];
	  }
	| { kind: 'intent'; seq: number; session: string; text: string }
	| { kind: 'lesson'; seq: number; session: string; text: string }
	| { kind: 'human-edit'; seq: number; session: string; path: string };

type ToolItem = Extract<ConversationItem, { kind: 'tool' }>;

export function reconstructConversation(events: readonly LedgerEvent[]): ConversationItem[] {
	const items: ConversationItem[] = [];
	const calls = new Map<string, ToolItem>();
	for (const event of events) {
		switch (event.type) {
			case 'tool-call-start': {
				const item: ToolItem = {
					kind: 'tool',
					seq: event.seq,
					session: event.session_id,
					tool: event.tool,
					toolCallId: event.tool_call_id,
					input: event.input,
					intentId: null,
					decision: null,
					approval: null,
					outcome: null,
					files: []
				};
				calls.set(event.tool_call_id, item);
				items.push(item);
				break;
			}
			case 'tool-decision': {
				const item = calls.get(event.tool_call_id);
				if (!item) break;
				item.decision = {
					decision: event.decision,
					...(event.code ? { code: event.code } : {}),
					...(event.message ? { message: event.message } : {}),
					hooks: event.hooks
				};
				item.intentId = event.intent_id ?? item.intentId;
				break;
			}
			case 'approval-request': {
				const item = calls.get(event.tool_call_id);
				if (item) item.approval = { reasons: event.reasons, approved: null };
				break;
			}
			case 'approval-response': {
				const item = calls.get(event.tool_call_id);
				if (!item) break;
				item.approval = {
					reasons: item.approval?.reasons ?? [],
					approved: event.approved,
					by: event.by,
					...(event.reason ? { reason: event.reason } : {})
				};
				break;
			}
			case 'tool-call-finish': {
				const item = calls.get(event.tool_call_id);
				if (!item) break;
				item.outcome = { ok: event.ok, ...(event.code ? { code: event.code } : {}) };
				item.intentId = event.intent_id ?? item.intentId;
				break;
			}
			case 'mutation-record': {
				const metadata = event.trace.metadata['dev.threadline'];
				const item = metadata.tool_call_id ? calls.get(metadata.tool_call_id) : undefined;
				const paths = event.trace.files.map((file) => file.path);
				if (item) item.files.push(...paths);
				else if (event.trace.files[0]?.conversations[0]?.contributor.type === 'human')
					for (const path of paths)
						items.push({ kind: 'human-edit', seq: event.seq, session: event.session_id, path });
				break;
			}
			case 'intent-select':
				items.push({
					kind: 'intent',
					seq: event.seq,
					session: event.session_id,
					text: `selected ${event.intent_id}`
				});
				break;
			case 'intent-status-change':
				items.push({
					kind: 'intent',
					seq: event.seq,
					session: event.session_id,
					text: `${event.intent_id}: ${event.from} → ${event.to}`
				});
				break;
			case 'lesson-record':
				items.push({
					kind: 'lesson',
					seq: event.seq,
					session: event.session_id,
					text: event.lesson
				});
				break;
			default:
				break;
		}
	}
	return items;
}
