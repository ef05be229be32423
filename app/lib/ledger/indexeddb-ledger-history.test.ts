import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { IndexedDbLedger, LedgerWriteRefusedError, type LedgerChange } from './indexeddb-ledger.js';
import { ledgerStores, type LedgerRecordStore } from './ledger-record-store.js';
import { linkLedgerToTabs } from './ledger-tab-link.js';
import {
	damagedLedgerStore,
	editStoredEvent,
	failingHistoryReads,
	lesson,
	storedLargeLedger,
	storesClosedAfterEach,
	withReadAll
} from './ledger-test-kit.js';
import { checkStoredChain, headsAfter } from './stored-chain-check.js';
import { TabCoordination } from './tab-coordination.js';
import { FakeChannelHub, FakeLockManager } from './tab-fakes.js';

const openStore = storesClosedAfterEach();
const tabsOpened: TabCoordination[] = [];
afterEach(() => {
	for (const tabs of tabsOpened.splice(0)) tabs.close();
});

/** A tab of the scenario `name`: its coordination and its ledger over `store`, linked as the IDE links them. */
async function openLinkedTab(
	name: string,
	peers: { locks: FakeLockManager; hub: FakeChannelHub },
	store: LedgerRecordStore
) {
	const tabs = await TabCoordination.start({
		scenarioId: name,
		locks: peers.locks,
		createChannel: peers.hub.create
	});
	tabsOpened.push(tabs);
	const ledger = await IndexedDbLedger.open({ store, writable: tabs.role.kind === 'writer' });
	const unlink = linkLedgerToTabs(ledger, tabs);
	return { tabs, ledger, unlink };
}

/**
 * What a learner can do in DevTools without computing a single hash: drop the last stored event
 * and copy the previous event's hash (and the last trace record's links) into the checkpoint.
 */
async function dropLastEventAndMoveCheckpoint(name: string, events: readonly LedgerEvent[]) {
	const last = events.length;
	const database = await openDB(name);
	try {
		const transaction = database.transaction(
			[ledgerStores.events, ledgerStores.state],
			'readwrite'
		);
		const runs = transaction.objectStore(ledgerStores.events);
		const cursor = await runs.openCursor(IDBKeyRange.upperBound(last), 'prev');
		if (!cursor) throw new Error('no run');
		const run = cursor.value as LedgerEvent[];
		if (run.length === 1) await cursor.delete();
		else await cursor.update(run.slice(0, -1));
		await transaction
			.objectStore(ledgerStores.state)
			.put(headsAfter(events.slice(0, -1)), '\u0000verified-checkpoint');
		await transaction.done;
	} finally {
		database.close();
	}
}

describe('IndexedDbLedger: the whole chain is checked again after every whole read', () => {
	it('checks the whole chain when a refresh reads the history the open could not, and refuses what it finds', async () => {
		const { name } = await storedLargeLedger();
		// Event 50 (in the history, before the tail) edited with its hashes kept: only the full
		// check (the whole chain re-hashed) sees it.
		await editStoredEvent(name, 50, (event) => ({ ...event, lesson: 'rewritten' }));
		// Control: an ordinary open finds it, in the full check.
		const control = await IndexedDbLedger.open({ store: await openStore(name), writable: false });
		expect(await control.whenFullyChecked()).toMatchObject({ ok: false });

		// The same database, opened while the history read fails three times (a closing connection).
		const counter = { failuresLeft: 3 };
		const ledger = await IndexedDbLedger.open({
			store: failingHistoryReads(await openStore(name), counter)
		});
		await ledger.whenHistoryLoaded();
		expect(ledger.historyProblem).toMatch(/^could not be read/);
		// SECURITY.md: "fails closed: nothing is appended until a reload reads and checks it".
		await ledger.refresh();
		expect(ledger.historyProblem).toBeNull();
		// The refresh read the whole ledger: its whole chain is checked again, and event 50 found.
		expect(await ledger.whenFullyChecked()).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/line 50/)
		});
		const outcome = await ledger.append([lesson('on top of the edited history')]).then(
			(sealed) => `appended seq ${sealed[0]?.seq}`,
			(error: unknown) => error
		);
		expect(outcome).toBeInstanceOf(LedgerWriteRefusedError);
	});

	it('keeps a broken verdict when a hand edit makes a second tab announce the ledger as replaced', async () => {
		const { name, events } = await storedLargeLedger();
		await editStoredEvent(name, 50, (event) => ({ ...event, lesson: 'rewritten' }));
		const locks = new FakeLockManager();
		const hub = new FakeChannelHub();
		const openTab = async () => openLinkedTab(name, { locks, hub }, await openStore(name));
		const writer = await openTab();
		expect(writer.tabs.role.kind).toBe('writer');
		// The full check finds event 50: the ledger is broken and read-only, as designed.
		expect(await writer.ledger.whenFullyChecked()).toMatchObject({ ok: false });
		expect(writer.ledger.writable).toBe(false);
		const problem = writer.ledger.integrity;
		expect(problem.ok).toBe(false);

		// The learner drops the last event, copies the previous heads into the checkpoint...
		await dropLastEventAndMoveCheckpoint(name, events);
		// ...and opens the scenario in a second tab. It reads, finds the same damage in its own full
		// check, and its 'reloaded' (origin this-tab) is announced as a reset: the writer refreshes.
		const heard: LedgerChange[] = [];
		writer.ledger.subscribe((change) => heard.push(change));
		const reader = await openTab();
		expect(reader.tabs.role.kind).toBe('reader');
		expect(await reader.ledger.whenFullyChecked()).toMatchObject({ ok: false });
		await vi.waitFor(() => expect(writer.ledger.lastSeq).toBe(events.length - 1));
		// The writer read the ledger again as a whole: its whole chain is checked again.
		expect(await writer.ledger.whenFullyChecked()).toMatchObject({ ok: false });
		expect(writer.ledger.integrity).toEqual(problem);
		const outcome = await writer.ledger.append([lesson('on top of the edited history')]).then(
			(sealed) => `appended seq ${sealed[0]?.seq}`,
			(error: unknown) => error
		);
		// A fresh open of this very database is still broken (its full check re-hashes event 50).
		const fresh = await IndexedDbLedger.open({ store: await openStore(name), writable: false });
		expect(await fresh.whenFullyChecked()).toMatchObject({ ok: false });
		expect(outcome).toBeInstanceOf(LedgerWriteRefusedError);
	});
});

/** A value no chain can hash in event 50, and a checkpoint whose trace head is not the stored one. */
async function unhashableHistory(name: string) {
	await editStoredEvent(name, 50, (event) => ({ ...event, lesson: 50n }));
	const database = await openDB(name);
	try {
		const key = '\u0000verified-checkpoint';
		const heads = (await database.get(ledgerStores.state, key)) as {
			audit: { seq: number; hash: string };
			trace: { seq: number; hash: string };
		};
		await database.put(
			ledgerStores.state,
			{ ...heads, trace: { seq: heads.trace.seq, hash: `sha256:${'1'.repeat(64)}` } },
			key
		);
	} finally {
		database.close();
	}
}

describe('IndexedDbLedger: a history that cannot be read or checked', () => {
	it('calls a history it read but cannot check damaged, not unreadable', async () => {
		const { name } = await storedLargeLedger();
		await unhashableHistory(name);
		const ledger = await IndexedDbLedger.open({ store: await openStore(name) });
		await ledger.whenHistoryLoaded();
		// "Reload the page" would never help: it is damage, and the learner is told to reset.
		expect(ledger.historyProblem).toBeNull();
		expect(ledger.integrity).toEqual({
			ok: false,
			problem: expect.stringMatching(
				/^the stored events cannot be checked \(canonicalJson: a bigint/
			)
		});
	});

	it('does not make the other tabs read again when its own history read fails', async () => {
		const { name } = await storedLargeLedger();
		const locks = new FakeLockManager();
		const hub = new FakeChannelHub();
		// Every whole read fails, in both tabs (a store that keeps failing); counted down here.
		const reads = { failuresLeft: 1_000 };
		const historyReads = {
			get count() {
				return 1_000 - reads.failuresLeft;
			}
		};
		const openTab = async () =>
			openLinkedTab(name, { locks, hub }, failingHistoryReads(await openStore(name), reads));
		const first = await openTab();
		const second = await openTab();
		await first.ledger.whenHistoryLoaded();
		await second.ledger.whenHistoryLoaded();
		expect(first.ledger.historyProblem).toMatch(/^could not be read/);
		const afterOpen = historyReads.count;
		expect(afterOpen).toBe(6);
		await new Promise((resolve) => setTimeout(resolve, 6_000));
		const later = historyReads.count;
		first.unlink();
		second.unlink();
		await new Promise((resolve) => setTimeout(resolve, 1_500));
		// Each open tried three times; nothing else read the whole history again.
		expect(later).toBe(afterOpen);
	}, 20_000);
});

describe('IndexedDbLedger: the full check racing another tab', () => {
	it("fails closed, quietly, when another tab's reset lands before the Worker reads, and a refresh clears it", async () => {
		const { name, events } = await storedLargeLedger();
		const { readStoredEvents } = await import('./read-stored-events.js');
		const { checkStoredChain } = await import('./stored-chain-check.js');
		let resetDone: () => void = () => undefined;
		const otherTabReset = new Promise<void>((resolve) => (resetDone = resolve));
		// checkStoredChainOffThread as in a browser: the Worker reads the database up to upToSeq
		// (it starts a little later: here, once the other tab's reset is stored).
		const reader = await IndexedDbLedger.open({
			store: await openStore(name),
			writable: false,
			checkFully: async (snapshot) => {
				await otherTabReset;
				const stored = await readStoredEvents({
					name,
					store: ledgerStores.events,
					upToSeq: snapshot.at(-1)?.seq ?? 0
				});
				return checkStoredChain(stored);
			}
		});
		const heard: LedgerChange[] = [];
		reader.subscribe((change) => heard.push(change));
		await reader.whenHistoryLoaded();
		// The writer tab resets the scenario (its announcement reaches this tab a moment later).
		const writer = await IndexedDbLedger.open({ store: await openStore(name) });
		await writer.whenHistoryLoaded();
		await writer.resetWith({});
		resetDone();
		// The Worker found fewer events than it was asked to check: not proven, so fail closed,
		// without telling the other tabs (they would read again for nothing).
		const verdict = await reader.whenFullyChecked();
		expect(verdict.ok).toBe(false);
		expect(reader.historyProblem).toMatch(/^could not be checked/);
		expect(heard).toEqual([]);
		// The reset's announcement arrives: the refresh reads the new ledger, which is fine.
		await reader.refresh();
		expect(reader.historyProblem).toBeNull();
		expect(reader.integrity).toEqual({ ok: true });
		expect(reader.lastSeq).toBe(0);
		expect(events.length).toBeGreaterThan(0);
	});
});

describe('IndexedDbLedger: whenHistoryLoaded never rejects', () => {
	it('treats a state read that fails after another tab replaced the ledger as an unreadable history', async () => {
		const { name } = await storedLargeLedger();
		const store = await openStore(name);
		let replaced = false;
		let stateReadsToFail = 0;
		// As in indexeddb-ledger.test.ts: another tab resets and records just before the history
		// read; then the state read that follows fails once (the same closing connection).
		const replacing = withReadAll(store, async (storeName, range, read) => {
			if (storeName === ledgerStores.events && range === undefined && !replaced) {
				replaced = true;
				const other = await IndexedDbLedger.open({
					store: await openStore(name),
					checkFully: async () => ({ ok: true })
				});
				await other.whenHistoryLoaded();
				await other.resetWith({});
				await other.append([lesson('a'), lesson('b'), lesson('c')]);
				const records = await read(storeName, range);
				// loadLedger read the state alongside the events: the next state read is reloadState's.
				stateReadsToFail = 1;
				return records;
			}
			if (storeName === ledgerStores.state && stateReadsToFail > 0) {
				stateReadsToFail--;
				throw new Error('The database connection is closing.');
			}
			return read(storeName, range);
		});
		const ledger = await IndexedDbLedger.open({
			store: replacing,
			checkFully: async () => ({ ok: true })
		});
		const loaded = await ledger.whenHistoryLoaded().then(
			() => 'resolved',
			(error: unknown) => `rejected: ${(error as Error).message}`
		);
		expect(await ledger.whenFullyChecked()).toMatchObject({ ok: false });
		const write = await ledger.append([lesson('more')]).then(
			() => 'appended',
			(error: unknown) => (error as Error).message
		);
		expect(loaded).toBe('resolved');
		expect(ledger.historyProblem).toBe('could not be read (The database connection is closing.)');
		expect(write).toMatch(/reload the page to try again/);
		expect(write).not.toMatch(/reset the scenario/);
	});
});

describe('IndexedDbLedger: whenFullyChecked after the ledger is read again or replaced', () => {
	it('gives the verdict of the ledger a refresh read in full, not the old one', async () => {
		const { name } = await storedLargeLedger();
		// A full check that cannot finish (a Worker that does not start): fails closed.
		const reader = await IndexedDbLedger.open({
			store: await openStore(name),
			writable: false,
			checkFully: async () => {
				throw new Error('Worker did not start');
			}
		});
		await reader.whenHistoryLoaded();
		expect((await reader.whenFullyChecked()).ok).toBe(false);
		expect(reader.historyProblem).toMatch(/^could not be checked/);
		// The writer tab resets the scenario; the announcement makes this tab refresh.
		const writer = await IndexedDbLedger.open({ store: await openStore(name) });
		await writer.whenHistoryLoaded();
		await writer.resetWith({});
		await reader.refresh();
		expect(reader.historyProblem).toBeNull();
		expect(reader.integrity).toEqual({ ok: true });
		expect(reader.lastSeq).toBe(0);
		// The verdict of the whole stored chain (now empty and fine).
		expect(await reader.whenFullyChecked()).toEqual({ ok: true });
	});

	async function unreadHistoryThenOtherTabReset(appendAfterReset: boolean) {
		const { name } = await storedLargeLedger();
		const reader = await IndexedDbLedger.open({
			store: failingHistoryReads(await openStore(name), { failuresLeft: 3 }),
			writable: false,
			checkFully: async () => ({ ok: true })
		});
		await reader.whenHistoryLoaded();
		expect(reader.historyProblem).toMatch(/^could not be read/);
		const writer = await IndexedDbLedger.open({
			store: await openStore(name),
			checkFully: async () => ({ ok: true })
		});
		await writer.whenHistoryLoaded();
		await writer.resetWith({});
		if (appendAfterReset) await writer.append([lesson('a')]);
		const heard: LedgerChange['kind'][] = [];
		reader.subscribe((change) => heard.push(change.kind));
		await reader.refresh();
		expect(reader.historyProblem).toBeNull();
		expect(reader.integrity).toEqual({ ok: true });
		return { reader, heard };
	}

	it('gives a fresh verdict when a refresh recovers a history another tab reset to empty', async () => {
		const { reader } = await unreadHistoryThenOtherTabReset(false);
		expect(reader.lastSeq).toBe(0);
		expect(await reader.whenFullyChecked()).toEqual({ ok: true });
	});

	it('announces one reload when a refresh recovers a history another tab replaced', async () => {
		const { reader, heard } = await unreadHistoryThenOtherTabReset(true);
		expect(reader.lastSeq).toBe(1);
		expect(await reader.whenFullyChecked()).toEqual({ ok: true });
		expect(heard).toEqual(['reloaded']);
	});

	it('gives a fresh verdict after resetWith a damaged ledger', async () => {
		const ledger = await IndexedDbLedger.open({ store: await damagedLedgerStore(openStore) });
		expect(ledger.integrity.ok).toBe(false);
		await ledger.resetWith({ 'fresh.txt': new TextEncoder().encode('fresh') });
		expect(ledger.integrity).toEqual({ ok: true });
		expect(ledger.writable).toBe(true);
		expect(await ledger.whenFullyChecked()).toEqual({ ok: true });
	});
});

describe('IndexedDbLedger: a known broken verdict and a checkpoint-only read again', () => {
	it('stays unwritable while the whole chain is checked again', async () => {
		const { name } = await storedLargeLedger();
		await editStoredEvent(name, 50, (event) => ({ ...event, lesson: 'rewritten' }));
		// The verify Worker: the same check, a moment later.
		const checkFully = async (events: readonly LedgerEvent[]) => {
			await new Promise((resolve) => setTimeout(resolve, 50));
			return checkStoredChain(events);
		};
		const writer = await IndexedDbLedger.open({ store: await openStore(name), checkFully });
		expect(await writer.whenFullyChecked()).toMatchObject({ ok: false });
		expect(writer.writable).toBe(false);
		const events = await writer.events();
		await dropLastEventAndMoveCheckpoint(name, events);
		// A second tab's 'reloaded' makes the writer refresh.
		await writer.refresh();
		const outcome = await writer.append([lesson('on top of the edited history')]).then(
			(sealed) => `appended seq ${sealed[0]?.seq}`,
			(error: unknown) => (error as Error).name
		);
		expect(await writer.whenFullyChecked()).toMatchObject({ ok: false });
		expect(outcome).toBe('LedgerWriteRefusedError');
	});
});
