import { describe, expect, it } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import {
	buildMutationDraft,
	fixtureUuid,
	steppingClock
} from '../../../hooks/ledger/ledger-test-fixtures.js';
import { MemoryLedger } from '../../../hooks/ledger/memory-ledger.js';
import {
	checkContinuation,
	checkFromCheckpoint,
	checkStoredChain,
	checkTailFromCheckpoint,
	emptyChainHeads,
	headsAfter
} from './stored-chain-check.js';

async function sealedEvents(): Promise<LedgerEvent[]> {
	const ledger = new MemoryLedger({ clock: steppingClock() });
	await ledger.append([
		{ type: 'intent-select', session_id: 's', intent_id: 'INT-001', tool_call_id: null },
		await buildMutationDraft({ id: fixtureUuid(1), path: 'a.ts', before: null, after: 'a\n' }),
		await buildMutationDraft({ id: fixtureUuid(2), path: 'a.ts', before: 'a\n', after: 'b\n' })
	]);
	return [...(await ledger.events())];
}

describe('checkStoredChain', () => {
	it('accepts an intact chain and the empty one', async () => {
		expect(await checkStoredChain(await sealedEvents())).toEqual({ ok: true });
		expect(await checkStoredChain([])).toEqual({ ok: true });
	});

	it('names the first broken event', async () => {
		const events = await sealedEvents();
		events[1] = { ...events[1], session_id: 'changed' } as LedgerEvent;
		expect(await checkStoredChain(events)).toEqual({
			ok: false,
			problem: 'audit.jsonl line 2: hash does not match its content'
		});
		expect(await checkStoredChain((await sealedEvents()).slice(1))).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/seq gap/)
		});
	});
});

describe('checkContinuation', () => {
	it('accepts events that continue both chains', async () => {
		const events = await sealedEvents();
		expect(headsAfter(events.slice(0, 2))).toEqual({
			audit: { seq: 2, hash: events[1]?.hash },
			trace: { seq: 1, hash: expect.stringMatching(/^sha256:/) }
		});
		expect(headsAfter([])).toEqual(emptyChainHeads);
		expect(await checkContinuation(headsAfter(events.slice(0, 1)), events.slice(1))).toEqual({
			ok: true
		});
		expect(await checkContinuation(emptyChainHeads, events)).toEqual({ ok: true });
	});

	it('refuses gaps, wrong links and edited events or trace records', async () => {
		const events = await sealedEvents();
		const heads = headsAfter(events.slice(0, 1));
		expect(await checkContinuation(heads, events.slice(2))).toEqual({
			ok: false,
			problem: 'stored event seq 3: expected seq 2'
		});
		expect(await checkContinuation(emptyChainHeads, events.slice(1))).toMatchObject({ ok: false });
		const edited = { ...events[1], session_id: 'x' } as LedgerEvent;
		expect(await checkContinuation(heads, [edited])).toEqual({
			ok: false,
			problem: 'stored event seq 2: hash does not match its content'
		});
		const wrongLink = { ...events[1], prev_hash: events[1]?.hash } as LedgerEvent;
		expect(await checkContinuation(heads, [wrongLink])).toEqual({
			ok: false,
			problem: 'stored event seq 2: prev_hash does not match seq 1'
		});
		// Skipping the first trace record breaks the trace chain even with the audit links right.
		const afterSecond = {
			audit: headsAfter(events.slice(0, 2)).audit,
			trace: emptyChainHeads.trace
		};
		expect(await checkContinuation(afterSecond, events.slice(2))).toEqual({
			ok: false,
			problem: 'stored event seq 3: its trace record does not continue the trace chain'
		});
	});
});

describe('checkTailFromCheckpoint: the last events only', () => {
	it('takes the first links as they are, and checks everything from there on', async () => {
		const events = await sealedEvents();
		const tail = events.slice(1);
		const atSecond = headsAfter(events.slice(0, 2));
		expect(await checkTailFromCheckpoint(tail, atSecond)).toEqual({ ok: true });
		expect(await checkTailFromCheckpoint(events.slice(2), headsAfter(events))).toEqual({
			ok: true
		});
		// A whole ledger must start at the genesis hash; a tail need not.
		expect(await checkFromCheckpoint(tail, atSecond)).toMatchObject({ ok: false });
		// Inside the tail every link holds, and what follows the checkpoint is rehashed.
		const relinked = [tail[0], { ...tail[1], prev_hash: tail[1]?.hash }] as LedgerEvent[];
		expect(await checkTailFromCheckpoint(relinked, atSecond)).toEqual({
			ok: false,
			problem: 'stored event seq 3: does not link to seq 2'
		});
		const edited = [tail[0], { ...tail[1], session_id: 'x' }] as LedgerEvent[];
		expect(await checkTailFromCheckpoint(edited, atSecond)).toEqual({
			ok: false,
			problem: 'stored event seq 3: hash does not match its content'
		});
	});

	it('does not fit (null) when the checkpoint is outside the tail or names other heads', async () => {
		const events = await sealedEvents();
		const atSecond = headsAfter(events.slice(0, 2));
		expect(await checkTailFromCheckpoint(events.slice(2), atSecond)).toBeNull();
		expect(
			await checkTailFromCheckpoint(events.slice(1), headsAfter(events.slice(0, 1)))
		).toBeNull();
		// A trace head the tail itself shows at the checkpoint must be the checkpoint's.
		const otherTrace = { ...atSecond, trace: { seq: 1, hash: `sha256:${'0'.repeat(64)}` } };
		expect(await checkTailFromCheckpoint(events.slice(1), otherTrace)).toBeNull();
		expect(await checkTailFromCheckpoint([], atSecond)).toBeNull();
	});
});
