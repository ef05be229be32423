import { LedgerChain } from '../../hooks/ledger/ledger-chain.js';
import type { LedgerEvent, LedgerEventDraft } from '../../hooks/ledger/ledger-event.js';
import type { Clock } from '../../hooks/pipeline/ports.js';

/** A clock that moves one second per reading. */
export function fixtureClock(startMs = Date.UTC(2026, 10, 23, 12, 0, 0)): Clock {
	let readings = 0;
	return {
		nowIso: () => new Date(startMs + 1000 * readings++).toISOString(),
		nowMs: () => startMs + 1000 * readings
	};
}

/** The n-th draft of a plain mixed ledger: calls, decisions (every fourth a deny), lessons. */
export function fixtureDraft(index: number, sessionId = 'session-a'): LedgerEventDraft {
	const tool_call_id = `call-${Math.floor(index / 3)}`;
	switch (index % 3) {
		case 0:
			return {
				type: 'tool-call-start',
				session_id: sessionId,
				tool: 'read_file',
				tool_call_id,
				input: { path: `src/file-${index}.ts` }
			};
		case 1:
			return {
				type: 'tool-decision',
				session_id: sessionId,
				tool: 'read_file',
				tool_call_id,
				decision: index % 4 === 1 ? 'deny' : 'allow',
				hooks: ['scope']
			};
		default:
			return {
				type: 'lesson-record',
				session_id: sessionId,
				intent_id: null,
				lesson: `lesson ${index}`,
				category: 'note',
				source: 'agent'
			};
	}
}

/** Histories started so far: each new one starts a minute after the last (see fixtureEvents). */
let historiesStarted = 0;

/**
 * Seals `count` fixture events after `previous` (a continuation when given). A new history
 * (no `previous`, no `clock`) starts at a time of its own, so two are never the same history:
 * the class server binds a ledger to its first event and refuses a history it already holds.
 */
export async function fixtureEvents(
	count: number,
	previous: readonly LedgerEvent[] = [],
	options: { sessionId?: string; offset?: number; clock?: Clock } = {}
): Promise<LedgerEvent[]> {
	const clock =
		options.clock ??
		(previous.length === 0
			? fixtureClock(Date.UTC(2026, 10, 23, 12, 0, 0) + 60_000 * historiesStarted++)
			: fixtureClock());
	const chain = LedgerChain.fromEvents(clock, previous);
	const start = options.offset ?? previous.length;
	const drafts = Array.from({ length: count }, (_, index) =>
		fixtureDraft(start + index, options.sessionId)
	);
	return chain.sealAll(drafts);
}
