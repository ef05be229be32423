import { describe, expect, it } from 'vitest';
import { buildMixedLedger } from '../../../hooks/ledger/ledger-test-fixtures.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { verifyLedger } from '../../../hooks/ledger/verify.js';
import { canonicalJson } from '../../../hooks/ledger/canonical-json.js';
import { reconstructConversation } from './conversation.js';
import { failingAuditSeq } from './summarize-graded.js';
import {
	isBookkeeping,
	visiblePositions,
	positionAfterKey,
	timeTravelOf,
	viewEvent,
	workspaceAt,
	callInputs
} from './time-travel.js';

function jsonl(events: readonly unknown[]): string {
	return events.map((event) => canonicalJson(event)).join('\n') + '\n';
}

function traceOf(events: readonly LedgerEvent[]): string {
	return jsonl(events.flatMap((event) => (event.type === 'mutation-record' ? [event.trace] : [])));
}

describe('conversation from the ledger', () => {
	it('gives one card per tool call with its decision, approval and outcome', async () => {
		const { events } = await buildMixedLedger();
		const items = reconstructConversation(events);
		const tools = items.filter((item) => item.kind === 'tool');
		const starts = events.filter((event) => event.type === 'tool-call-start');
		expect(tools).toHaveLength(starts.length);
		const approved = tools.find((item) => item.kind === 'tool' && item.tool === 'apply_diff');
		expect(approved).toMatchObject({
			approval: { reasons: ['edits an existing file'], approved: true, by: 'human' },
			outcome: { ok: true },
			files: ['src/auth/login.ts']
		});
		const blocked = tools.find(
			(item) => item.kind === 'tool' && item.outcome !== null && !item.outcome.ok
		);
		expect(blocked).toBeDefined();
		expect(items.some((item) => item.kind === 'lesson')).toBe(true);
		expect(items.some((item) => item.kind === 'human-edit' && item.path === 'README.md')).toBe(
			true
		);
		// In ledger order.
		const seqs = items.map((item) => item.seq);
		expect(seqs).toEqual([...seqs].sort((left, right) => left - right));
	});
});

describe('time travel', () => {
	it('rebuilds the workspace at each event from the snapshot and the records', async () => {
		const { events, workspace } = await buildMixedLedger();
		expect([...workspaceAt(events, 0).keys()]).toEqual([
			'.orchestration/active_intents.yaml',
			'README.md',
			'src/auth/login.ts',
			'src/legacy.ts'
		]);
		const end = workspaceAt(events, events.length - 1);
		// The workspace's files plus the intents file the starting snapshot records.
		const expected = [
			'.orchestration/active_intents.yaml',
			...[...workspace.keys()].filter((path) => !path.startsWith('.orchestration/'))
		].sort();
		expect([...end.keys()]).toEqual(expected);
		const firstWrite = events.findIndex((event) => event.type === 'mutation-record');
		expect(workspaceAt(events, firstWrite - 1).has('src/auth/jwt.ts')).toBe(false);
		expect(workspaceAt(events, firstWrite).has('src/auth/jwt.ts')).toBe(true);
	});

	it('steps with arrows, Home and End inside the reachable range only', () => {
		expect(positionAfterKey('ArrowRight', 0, 5)).toBe(1);
		expect(positionAfterKey('ArrowRight', 4, 5)).toBe(4);
		expect(positionAfterKey('ArrowLeft', 0, 5)).toBe(0);
		expect(positionAfterKey('Home', 3, 5)).toBe(0);
		expect(positionAfterKey('End', 0, 5)).toBe(4);
		expect(positionAfterKey('a', 0, 5)).toBeNull();
	});

	it('stops at the failing record of a tampered audit log', async () => {
		const { events } = await buildMixedLedger();
		const tampered = events.map((event) =>
			event.seq === 7 ? ({ ...event, session_id: 'forged' } as LedgerEvent) : event
		);
		const verification = await verifyLedger({
			auditJsonl: jsonl(tampered),
			traceJsonl: traceOf(events)
		});
		const stop = failingAuditSeq(tampered, verification);
		expect(stop).toBe(7);
		expect(timeTravelOf(tampered, stop)).toEqual({ length: 7, stoppedAtFailure: true });
		const intact = await verifyLedger({ auditJsonl: jsonl(events), traceJsonl: traceOf(events) });
		expect(failingAuditSeq(events, intact)).toBeNull();
		expect(timeTravelOf(events, null)).toEqual({ length: events.length, stoppedAtFailure: false });
	});

	it('stops at the mutation event of a broken trace record', async () => {
		const { events } = await buildMixedLedger();
		const traces = events.flatMap((event) =>
			event.type === 'mutation-record' ? [event.trace] : []
		);
		const second = structuredClone(traces[1]) as (typeof traces)[number];
		second.timestamp = '2020-01-01T00:00:00Z';
		const verification = await verifyLedger({
			auditJsonl: jsonl(events),
			traceJsonl: jsonl([traces[0], second, ...traces.slice(2)])
		});
		expect(verification.ok).toBe(false);
		const mutation = events.filter((event) => event.type === 'mutation-record')[1] as LedgerEvent;
		expect(failingAuditSeq(events, verification)).toBe(mutation.seq);
	});

	it('says who did each change, under which intent, and what the hooks decided', async () => {
		const { events } = await buildMixedLedger();
		const inputs = callInputs(events);
		const human = events.find(
			(event) =>
				event.type === 'mutation-record' &&
				event.trace.files[0]?.conversations[0]?.contributor.type === 'human'
		) as LedgerEvent;
		expect(viewEvent(human, inputs).who).toMatch(/^a person/);
		const denied = events.find(
			(event) => event.type === 'tool-decision' && event.decision === 'deny'
		) as LedgerEvent;
		expect(viewEvent(denied, inputs).decided).toMatch(/^deny \(/);
	});
});

describe('time travel folds bookkeeping (issue 31)', () => {
	it('steps over call starts and finishes unless every event is asked for, never over the failing record', async () => {
		const { events } = await buildMixedLedger();
		const all = timeTravelOf(events, null);
		const folded = visiblePositions(events, all, false);
		const every = visiblePositions(events, all, true);
		expect(every).toHaveLength(events.length);
		expect(folded.length).toBeLessThan(every.length);
		for (const position of folded)
			expect(isBookkeeping(events[position] as LedgerEvent)).toBe(false);
		const startSeq = events.find((event) => event.type === 'tool-call-start')?.seq ?? -1;
		const stopped = timeTravelOf(events, startSeq);
		expect(visiblePositions(events, stopped, false).at(-1)).toBe(stopped.length - 1);
	});
});
