import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import {
	buildMutationDraft,
	fixtureUuid,
	steppingClock
} from '../../../hooks/ledger/ledger-test-fixtures.js';
import type { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { IndexedDbLedger, LedgerWriteRefusedError, type LedgerChange } from './indexeddb-ledger.js';
import { ledgerStores, type LedgerRecordStore } from './ledger-record-store.js';
import { linkLedgerToTabs } from './ledger-tab-link.js';
import { editStoredEvent, freshDatabaseName, lesson, openLedgerStore } from './ledger-test-kit.js';
import { headsAfter } from './stored-chain-check.js';
import { TabCoordination } from './tab-coordination.js';
import { FakeChannelHub, FakeLockManager } from './tab-fakes.js';

const opened: IndexedDbWorkspaceFiles[] = [];
const tabsOpened: TabCoordination[] = [];
async function openStore(name: string) {
	const store = await openLedgerStore(name);
	opened.push(store);
	return store;
}
afterEach(async () => {
	for (const tabs of tabsOpened.splice(0)) tabs.close();
	await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** As in indexeddb-ledger.test.ts: ten changes, then lessons; the checkpoint ends up at the last event. */
async function storedLargeLedger(lessons = 2_500) {
	const name = freshDatabaseName();
	const store = await openStore(name);
	const ledger = await IndexedDbLedger.open({ store, clock: steppingClock() });
	const changes = [];
	for (let index = 1; index <= 10; index++)
		changes.push(
			await buildMutationDraft({
				id: fixtureUuid(index),
				path: 'a.ts',
				before: index === 1 ? null : `v${index - 1}\n`,
				after: `v${index}\n`
			})
		);
	await ledger.append(changes);
	for (let start = 0; start < lessons; start += 500)
		await ledger.append(
			Array.from({ length: Math.min(500, lessons - start) }, (_, index) =>
				lesson(`lesson ${start + index}`)
			)
		);
	const events = [...(await ledger.events())];
	await store.close();
	return { name, events };
}

/** The first `failures` reads of the whole events store (the history read) fail. */
function flakyHistory(
	store: LedgerRecordStore,
	counter: { failuresLeft: number }
): LedgerRecordStore {
	return new Proxy(store, {
		get(target, property) {
			if (property === 'readAll')
				return async (storeName: string, range?: IDBKeyRange) => {
					if (
						storeName === ledgerStores.events &&
						range === undefined &&
						counter.failuresLeft > 0
					) {
						counter.failuresLeft--;
						throw new Error('The database connection is closing.');
					}
					return target.readAll(storeName, range);
				};
			const value: unknown = Reflect.get(target, property);
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
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
			store: flakyHistory(await openStore(name), counter)
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
		const openTab = async () => {
			const tabs = await TabCoordination.start({
				scenarioId: name,
				locks,
				createChannel: hub.create
			});
			tabsOpened.push(tabs);
			const ledger = await IndexedDbLedger.open({
				store: await openStore(name),
				writable: tabs.role.kind === 'writer'
			});
			linkLedgerToTabs(ledger, tabs);
			return { tabs, ledger };
		};
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
		const historyReads = { count: 0 };
		const openTab = async () => {
			const tabs = await TabCoordination.start({
				scenarioId: name,
				locks,
				createChannel: hub.create
			});
			tabsOpened.push(tabs);
			const store = await openStore(name);
			const counting: LedgerRecordStore = new Proxy(store, {
				get(target, property) {
					if (property === 'readAll')
						return async (storeName: string, range?: IDBKeyRange) => {
							// Every whole read fails, in both tabs (a store that keeps failing).
							if (storeName === ledgerStores.events && range === undefined) {
								historyReads.count++;
								throw new Error('The database connection is closing.');
							}
							return target.readAll(storeName, range);
						};
					const value: unknown = Reflect.get(target, property);
					return typeof value === 'function' ? value.bind(target) : value;
				}
			});
			const ledger = await IndexedDbLedger.open({
				store: counting,
				writable: tabs.role.kind === 'writer'
			});
			const unlink = linkLedgerToTabs(ledger, tabs);
			return { tabs, ledger, unlink };
		};
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
		const replacing: LedgerRecordStore = new Proxy(store, {
			get(target, property) {
				if (property === 'readAll')
					return async (storeName: string, range?: IDBKeyRange) => {
						if (storeName === ledgerStores.events && range === undefined && !replaced) {
							replaced = true;
							const other = await IndexedDbLedger.open({
								store: await openStore(name),
								checkFully: async () => ({ ok: true })
							});
							await other.whenHistoryLoaded();
							await other.resetWith({});
							await other.append([lesson('a'), lesson('b'), lesson('c')]);
							const records = await target.readAll(storeName, range);
							stateReadsToFail = 1; // loadLedger read the state alongside the events: the next one is reloadState's
							return records;
						}
						if (storeName === ledgerStores.state && stateReadsToFail > 0) {
							stateReadsToFail--;
							if (stateReadsToFail === 0) throw new Error('The database connection is closing.');
						}
						return target.readAll(storeName, range);
					};
				const value: unknown = Reflect.get(target, property);
				return typeof value === 'function' ? value.bind(target) : value;
			}
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
