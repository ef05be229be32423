import {
	conversationEntryDraft,
	type ConversationEntryInput
} from '../ledger/conversation-entry.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import type { PipelineParts } from './pipeline-parts.js';

/**
 * Records conversation entries (issue 31) in the same chain as every other event, under the
 * pipeline's lock so an entry lands between calls, never inside one call's events. The time is
 * the pipeline's clock unless the caller knows when it was said.
 */
export async function recordConversation(
	parts: PipelineParts,
	entries: readonly (Omit<ConversationEntryInput, 'at'> & { at?: string })[]
): Promise<LedgerEvent[]> {
	if (entries.length === 0) return [];
	const drafts = await Promise.all(
		entries.map((entry) =>
			conversationEntryDraft({ ...entry, at: entry.at ?? parts.options.clock.nowIso() })
		)
	);
	const release = await parts.mutex.lock();
	try {
		return await parts.writer.append(drafts);
	} finally {
		release();
	}
}
