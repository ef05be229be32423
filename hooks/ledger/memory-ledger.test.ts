import { describe, expect, it } from 'vitest';
import { hashAuditEvent } from './ledger-chain.js';
import type { LedgerEventDraft } from './ledger-event.js';
import { buildMixedLedger, steppingClock } from './ledger-test-fixtures.js';
import { MemoryLedger } from './memory-ledger.js';

function lesson(text: string): LedgerEventDraft {
	return {
		type: 'lesson-record',
		session_id: 's',
		intent_id: null,
		lesson: text,
		category: 'c',
		source: 'agent'
	};
}

describe('MemoryLedger', () => {
	it('returns and stores the sealed events in order', async () => {
		const ledger = new MemoryLedger({ clock: steppingClock() });
		const sealed = await ledger.append([lesson('a'), lesson('b')]);
		expect(sealed.map((event) => event.seq)).toEqual([1, 2]);
		expect(await ledger.events()).toEqual(sealed);
	});

	it('keeps each concurrent append consecutive', async () => {
		const ledger = new MemoryLedger({ clock: steppingClock() });
		const batches = await Promise.all(
			Array.from({ length: 10 }, (_, batch) =>
				ledger.append([lesson(`${batch}-1`), lesson(`${batch}-2`), lesson(`${batch}-3`)])
			)
		);
		for (const batch of batches) {
			const [first, second, third] = batch.map((event) => event.seq);
			expect([second, third]).toEqual([first! + 1, first! + 2]);
		}
		const stored = await ledger.events();
		expect(stored.map((event) => event.seq)).toEqual(Array.from({ length: 30 }, (_, n) => n + 1));
		for (const event of stored) expect(await hashAuditEvent(event)).toBe(event.hash);
	});

	it('stores nothing of a batch that fails', async () => {
		const ledger = new MemoryLedger({ clock: steppingClock() });
		await ledger.append([lesson('a')]);
		const broken = { ...lesson('b'), bad: Number.POSITIVE_INFINITY } as unknown as LedgerEventDraft;
		await expect(ledger.append([lesson('ok'), broken])).rejects.toThrow(/Infinity/);
		expect((await ledger.events()).length).toBe(1);
		expect((await ledger.append([lesson('c')]))[0]?.seq).toBe(2);
	});

	it('hands out a copy of its list', async () => {
		const ledger = new MemoryLedger({ clock: steppingClock() });
		await ledger.append([lesson('a')]);
		const list = (await ledger.events()) as unknown[];
		list.length = 0;
		expect((await ledger.events()).length).toBe(1);
	});

	it('continues the chains of previously stored events', async () => {
		const { events } = await buildMixedLedger();
		const resumed = new MemoryLedger({ clock: steppingClock(), events });
		const [next] = await resumed.append([lesson('after reload')]);
		expect(next?.seq).toBe(events.length + 1);
		expect(next?.prev_hash).toBe(events.at(-1)?.hash);
		expect((await resumed.events()).length).toBe(events.length + 1);
	});

	it('builds the mixed fixture ledger with every event kind', async () => {
		const { events } = await buildMixedLedger();
		expect(events.length).toBe(23);
		const kinds = new Set(events.map((event) => event.type));
		expect(kinds.size).toBe(13);
	});
});
