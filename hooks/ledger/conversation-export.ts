import { canonicalJson } from './canonical-json.js';
import type { LedgerEvent } from './ledger-event.js';

/** The file of `.orchestration/` that holds the conversation (issue 31). */
export const conversationFileName = 'conversation.jsonl';

type ConversationEvent = Extract<LedgerEvent, { type: 'conversation-entry' }>;

/**
 * One line of `conversation.jsonl`: the entry's fields with its place in the audit chain (`seq`,
 * `prev_hash`, `hash` of its audit event), so each line is a projection of a sealed event and
 * verify recomputes the whole file from `audit.jsonl`, byte for byte.
 */
export function conversationLine(event: ConversationEvent): string {
	const line: Record<string, unknown> = {
		seq: event.seq,
		session_id: event.session_id,
		role: event.role,
		at: event.at,
		prev_hash: event.prev_hash,
		hash: event.hash
	};
	if (event.text !== undefined) line.text = event.text;
	if (event.tool_call !== undefined) line.tool_call = event.tool_call;
	if (event.tool_result !== undefined) line.tool_result = event.tool_result;
	if (event.model !== undefined) line.model = event.model;
	if (event.usage !== undefined) line.usage = event.usage;
	if (event.cut !== undefined) line.cut = event.cut;
	return canonicalJson(line);
}

/** The lines of `conversation.jsonl`, in ledger order (each without its newline). */
export function* conversationLines(events: readonly LedgerEvent[]): Iterable<string> {
	for (const event of events)
		if (event.type === 'conversation-entry') yield conversationLine(event);
}

/** How many conversation entries the ledger holds. */
export function conversationEntryCount(events: readonly LedgerEvent[]): number {
	let count = 0;
	for (const event of events) if (event.type === 'conversation-entry') count++;
	return count;
}

/** Whether a parsed audit value is a conversation entry (verify reads untrusted values). */
export function isConversationEvent(value: unknown): value is ConversationEvent {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { type?: unknown }).type === 'conversation-entry'
	);
}
