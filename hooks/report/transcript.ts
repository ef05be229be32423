import type { LedgerEvent } from '../ledger/ledger-event.js';

/**
 * The session as a grader reads it: the conversation (what the learner asked, what the model
 * said, each tool call as sent and its result as received) with the governance around each call
 * (the hooks' decision, the approval asked and answered, the files it changed) in ledger order.
 * Each change names its cause: the tool call that made it, the model's last words and the
 * learner's last message before it in that session (`cause`), so "who asked for this and what
 * did the model say first" is answered from the export alone.
 */
export type TranscriptItem =
	| {
			kind: 'message';
			seq: number;
			session: string;
			role: 'user' | 'assistant' | 'tool';
			at: string;
			text?: string;
			toolCall?: { id: string; name: string; input: unknown };
			toolResult?: { id: string; ok: boolean; output?: unknown; error?: unknown };
			model?: string;
			usage?: Record<string, number>;
			cut?: Record<string, { bytes: number; sha256: string }>;
	  }
	| {
			kind: 'decision';
			seq: number;
			session: string;
			tool: string;
			toolCallId: string;
			decision: string;
			hooks: string[];
			code?: string;
			message?: string;
	  }
	| {
			kind: 'approval';
			seq: number;
			session: string;
			tool: string;
			toolCallId: string;
			asked?: string[];
			approved?: boolean;
			by?: string;
			reason?: string;
	  }
	| {
			kind: 'change';
			seq: number;
			session: string;
			path: string;
			contributor: string;
			tool: string;
			toolCallId: string | null;
			intentId: string | null;
			cause: TranscriptCause;
	  }
	| { kind: 'note'; seq: number; session: string; text: string };

/** The conversation entries (by seq) that led to a change; null where there is none. */
export interface TranscriptCause {
	/** The learner's last message in the session before the change. */
	userSeq: number | null;
	/** The model's last text in the session before the change. */
	assistantSeq: number | null;
	/** The conversation entry of the tool call that made it (same `tool_call.id`). */
	toolCallSeq: number | null;
}

export interface Transcript {
	items: TranscriptItem[];
	/** How many conversation entries the ledger holds (0: an export from before they existed). */
	conversationEntries: number;
}

/** Builds the transcript from the audit events (trusted shape: call after verify). */
export function buildTranscript(events: readonly LedgerEvent[]): Transcript {
	const items: TranscriptItem[] = [];
	const lastUser = new Map<string, number>();
	const lastAssistant = new Map<string, number>();
	const toolCallSeqs = new Map<string, number>();
	let conversationEntries = 0;
	for (const event of events) {
		const session = event.session_id;
		switch (event.type) {
			case 'conversation-entry': {
				conversationEntries++;
				const item: TranscriptItem = {
					kind: 'message',
					seq: event.seq,
					session,
					role: event.role,
					at: event.at
				};
				if (event.text !== undefined) item.text = event.text;
				if (event.tool_call) item.toolCall = event.tool_call;
				if (event.tool_result) item.toolResult = event.tool_result;
				if (event.model) item.model = event.model;
				if (event.usage) item.usage = event.usage as Record<string, number>;
				if (event.cut) item.cut = event.cut as Record<string, { bytes: number; sha256: string }>;
				items.push(item);
				if (event.role === 'user') lastUser.set(session, event.seq);
				else if (event.role === 'assistant' && event.text !== undefined)
					lastAssistant.set(session, event.seq);
				if (event.tool_call) toolCallSeqs.set(event.tool_call.id, event.seq);
				break;
			}
			case 'tool-decision':
				items.push({
					kind: 'decision',
					seq: event.seq,
					session,
					tool: event.tool,
					toolCallId: event.tool_call_id,
					decision: event.decision,
					hooks: event.hooks,
					...(event.code ? { code: event.code } : {}),
					...(event.message ? { message: event.message } : {})
				});
				break;
			case 'approval-request':
				items.push({
					kind: 'approval',
					seq: event.seq,
					session,
					tool: event.tool,
					toolCallId: event.tool_call_id,
					asked: event.reasons
				});
				break;
			case 'approval-response':
				items.push({
					kind: 'approval',
					seq: event.seq,
					session,
					tool: event.tool,
					toolCallId: event.tool_call_id,
					approved: event.approved,
					by: event.by,
					...(event.reason ? { reason: event.reason } : {})
				});
				break;
			case 'mutation-record': {
				const links = event.trace.metadata['dev.threadline'];
				const toolCallId = links.tool_call_id ?? null;
				items.push({
					kind: 'change',
					seq: event.seq,
					session,
					path: event.trace.files[0]?.path ?? '',
					contributor: event.trace.files[0]?.conversations[0]?.contributor.type ?? 'ai',
					tool: links.tool,
					toolCallId,
					intentId: links.intent_id ?? null,
					cause: {
						userSeq: lastUser.get(session) ?? null,
						assistantSeq: lastAssistant.get(session) ?? null,
						toolCallSeq: toolCallId === null ? null : (toolCallSeqs.get(toolCallId) ?? null)
					}
				});
				break;
			}
			case 'folder-change':
				items.push({
					kind: 'note',
					seq: event.seq,
					session,
					text: `folder ${event.path} ${event.change} (${event.contributor}, ${event.tool})`
				});
				break;
			case 'change-revert':
				items.push({
					kind: 'note',
					seq: event.seq,
					session,
					text: `refused and kept as it was: ${event.path} (${event.code})`
				});
				break;
			case 'intent-select':
				items.push({ kind: 'note', seq: event.seq, session, text: `selected ${event.intent_id}` });
				break;
			case 'intent-status-change':
				items.push({
					kind: 'note',
					seq: event.seq,
					session,
					text: `${event.intent_id}: ${event.from} → ${event.to}`
				});
				break;
			case 'scope-expand':
				items.push({
					kind: 'note',
					seq: event.seq,
					session,
					text: `${event.intent_id} scope widened: ${event.paths.join(', ')} (${event.reason})`
				});
				break;
			case 'lesson-record':
				items.push({ kind: 'note', seq: event.seq, session, text: `lesson: ${event.lesson}` });
				break;
			case 'hook-error':
				items.push({
					kind: 'note',
					seq: event.seq,
					session,
					text: `hook ${event.hook} failed on ${event.tool}: ${event.message}`
				});
				break;
			case 'hook-policy-load':
				items.push({
					kind: 'note',
					seq: event.seq,
					session,
					text: `hook policy ${event.policy_hash ?? 'none'} (${event.ok ? `${event.rules} rules` : 'broken: failing closed'}, by ${event.by})`
				});
				break;
			default:
				// Bookkeeping (snapshots, call starts and finishes, receipts, governance writes) is
				// folded: the messages and decisions around it say the same.
				break;
		}
	}
	return { items, conversationEntries };
}
