import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyLedger } from '../../../hooks/ledger/verify.js';
import { canonicalJson } from '../../../hooks/ledger/canonical-json.js';
import type { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { IndexedDbLedger, type LedgerChange } from './indexeddb-ledger.js';
import { linkLedgerToTabs } from './ledger-tab-link.js';
import { freshDatabaseName, lesson, openLedgerStore } from './ledger-test-kit.js';
import {
	ledgerLockName,
	readOnlyTabMessage,
	TabCoordination,
	type RemoteLedgerChange,
	type TabRole
} from './tab-coordination.js';
import { FakeChannelHub, FakeLockManager, settle } from './tab-fakes.js';

const coordinations: TabCoordination[] = [];
const stores: IndexedDbWorkspaceFiles[] = [];

afterEach(async () => {
	for (const coordination of coordinations.splice(0)) coordination.close();
	await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function openTab(
	locks: FakeLockManager | null,
	hub: FakeChannelHub | null,
	scenarioId = 'jwt-auth'
): Promise<TabCoordination> {
	const coordination = await TabCoordination.start({
		scenarioId,
		locks,
		createChannel: hub ? hub.create : null
	});
	coordinations.push(coordination);
	return coordination;
}

describe('TabCoordination', () => {
	it('names the lock after the scenario and refuses an empty id', async () => {
		expect(ledgerLockName('jwt-auth')).toBe('threadline-ledger-jwt-auth');
		expect(() => ledgerLockName('')).toThrow(/non-empty/);
		await expect(TabCoordination.start({ scenarioId: '' })).rejects.toThrow(/non-empty/);
	});

	it('makes the first tab the writer and tells the second it is read-only', async () => {
		const locks = new FakeLockManager();
		const first = await openTab(locks, null);
		const second = await openTab(locks, null);
		expect(first.role).toEqual({ kind: 'writer', since: 'opened', coordinated: true });
		expect(second.role).toEqual({ kind: 'reader', message: readOnlyTabMessage });
		expect(readOnlyTabMessage).toBe(
			'This scenario is open in another tab; this tab is read-only until you close the other one.'
		);
		expect(locks.isHeld('threadline-ledger-jwt-auth')).toBe(true);
	});

	it('keeps scenarios apart', async () => {
		const locks = new FakeLockManager();
		await openTab(locks, null, 'jwt-auth');
		const other = await openTab(locks, null, 'db-refactor');
		expect(other.role.kind).toBe('writer');
	});

	it('makes the waiting tab the writer when the writer closes', async () => {
		const locks = new FakeLockManager();
		const first = await openTab(locks, null);
		const second = await openTab(locks, null);
		const roles: TabRole[] = [];
		second.onRoleChange(() => {
			throw new Error('broken listener');
		});
		second.onRoleChange((role) => roles.push(role));
		first.close();
		await settle();
		expect(roles).toEqual([{ kind: 'writer', since: 'other-tab-closed', coordinated: true }]);
		expect(second.role.kind).toBe('writer');
		// A third tab now waits behind the second.
		const third = await openTab(locks, null);
		expect(third.role.kind).toBe('reader');
	});

	it('stops waiting for the lock once closed', async () => {
		const locks = new FakeLockManager();
		const first = await openTab(locks, null);
		const second = await openTab(locks, null);
		const roles: TabRole[] = [];
		second.onRoleChange((role) => roles.push(role));
		second.close();
		first.close();
		await settle();
		expect(roles).toEqual([]);
		expect(locks.isHeld('threadline-ledger-jwt-auth')).toBe(false);
	});

	it('writes uncoordinated where the browser has no Web Locks', async () => {
		const tab = await openTab(null, null);
		expect(tab.role).toEqual({ kind: 'writer', since: 'opened', coordinated: false });
		tab.announceEvents(3);
	});

	it('tells the other tabs of the scenario about new events and resets, not itself', async () => {
		const locks = new FakeLockManager();
		const hub = new FakeChannelHub();
		const writer = await openTab(locks, hub);
		const reader = await openTab(locks, hub);
		const elsewhere = await openTab(locks, hub, 'other-scenario');
		const heard: RemoteLedgerChange[] = [];
		const heardByWriter: RemoteLedgerChange[] = [];
		const heardElsewhere: RemoteLedgerChange[] = [];
		reader.onRemoteChange(() => {
			throw new Error('broken listener');
		});
		const stop = reader.onRemoteChange((change) => heard.push(change));
		writer.onRemoteChange((change) => heardByWriter.push(change));
		elsewhere.onRemoteChange((change) => heardElsewhere.push(change));
		writer.announceEvents(7);
		writer.announceReset();
		await settle();
		expect(heard).toEqual([{ kind: 'appended', lastSeq: 7 }, { kind: 'reset' }]);
		expect(heardByWriter).toEqual([]);
		expect(heardElsewhere).toEqual([]);
		stop();
		writer.announceEvents(8);
		await settle();
		expect(heard).toHaveLength(2);
		expect(() => writer.announceEvents(-1)).toThrow(/seq/);
		expect(() => writer.onRemoteChange('x' as never)).toThrow(/function/);
	});

	it('ignores messages that are not its own, and says nothing once closed', async () => {
		const hub = new FakeChannelHub();
		const tab = await openTab(null, hub);
		const heard: RemoteLedgerChange[] = [];
		tab.onRemoteChange((change) => heard.push(change));
		const stranger = hub.create('threadline-ledger-jwt-auth');
		for (const message of [
			null,
			'text',
			{ type: 'other' },
			{ type: 'threadline-ledger-change', kind: 'appended', lastSeq: 'x' },
			{ type: 'threadline-ledger-change', kind: 'unknown' }
		]) {
			stranger.postMessage(message);
		}
		await settle();
		expect(heard).toEqual([]);
		tab.close();
		tab.close();
		stranger.postMessage({ type: 'threadline-ledger-change', kind: 'reset' });
		await settle();
		expect(heard).toEqual([]);
		expect(() => tab.announceReset()).not.toThrow();
	});
});

describe('linkLedgerToTabs', () => {
	async function openLinkedTab(name: string, locks: FakeLockManager, hub: FakeChannelHub) {
		const tabs = await openTab(locks, hub);
		const store = await openLedgerStore(name);
		stores.push(store);
		const ledger = await IndexedDbLedger.open({
			store,
			writable: tabs.role.kind === 'writer'
		});
		const errors: unknown[] = [];
		const unlink = linkLedgerToTabs(ledger, tabs, { onError: (error) => errors.push(error) });
		return { tabs, store, ledger, unlink, errors };
	}

	it('keeps one chain across two tabs: the second follows, then takes over', async () => {
		const locks = new FakeLockManager();
		const hub = new FakeChannelHub();
		const name = freshDatabaseName();
		const first = await openLinkedTab(name, locks, hub);
		const second = await openLinkedTab(name, locks, hub);
		expect(second.tabs.role.kind).toBe('reader');
		await expect(second.ledger.append([lesson('not here')])).rejects.toThrow(readOnlyTabMessage);

		const heard: LedgerChange[] = [];
		second.ledger.subscribe((change) => heard.push(change));
		await first.ledger.append([lesson('one'), lesson('two')]);
		await vi.waitFor(() => expect(heard).toHaveLength(1));
		expect(heard[0]).toMatchObject({ kind: 'appended', origin: 'other-tab' });
		expect(second.ledger.lastSeq).toBe(2);

		first.unlink();
		first.tabs.close();
		await vi.waitFor(() => expect(second.ledger.writable).toBe(true));
		const [third] = await second.ledger.append([lesson('three')]);
		expect(third?.seq).toBe(3);
		let auditJsonl = '';
		for (const event of await second.ledger.events()) auditJsonl += canonicalJson(event) + '\n';
		expect((await verifyLedger({ auditJsonl, traceJsonl: '' })).ok).toBe(true);
		expect(second.errors).toEqual([]);
	});

	it('tells other tabs when this tab starts the ledger over', async () => {
		const locks = new FakeLockManager();
		const hub = new FakeChannelHub();
		const name = freshDatabaseName();
		const first = await openLinkedTab(name, locks, hub);
		const second = await openLinkedTab(name, locks, hub);
		await first.ledger.append([lesson('one')]);
		await vi.waitFor(() => expect(second.ledger.lastSeq).toBe(1));
		const heard: LedgerChange[] = [];
		second.ledger.subscribe((change) => heard.push(change));
		await first.ledger.resetWith({ 'fresh.txt': 'fresh' });
		await vi.waitFor(() => expect(heard.at(-1)?.kind).toBe('reloaded'));
		expect(second.ledger.lastSeq).toBe(0);
	});

	it('reports a failed background read instead of throwing it', async () => {
		const locks = new FakeLockManager();
		const hub = new FakeChannelHub();
		const name = freshDatabaseName();
		const first = await openLinkedTab(name, locks, hub);
		const second = await openLinkedTab(name, locks, hub);
		await second.store.close();
		await first.ledger.append([lesson('one')]);
		await vi.waitFor(() => expect(second.errors).toHaveLength(1));
	});
});
