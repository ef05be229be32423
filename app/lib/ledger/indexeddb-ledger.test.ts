import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canonicalJson } from '../../../hooks/ledger/canonical-json.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import {
	buildMutationDraft,
	fixtureUuid,
	steppingClock
} from '../../../hooks/ledger/ledger-test-fixtures.js';
import { verifyLedger } from '../../../hooks/ledger/verify.js';
import type { SandboxFileSystem } from '../../../hooks/tools/sandbox-ports.js';
import type {
	IndexedDbWorkspaceFiles,
	PersistProblem
} from '../../../sandbox/local/indexeddb-workspace-files.js';
import { WorkspaceFileSystem } from '../../../sandbox/local/workspace-file-system.js';
import { IndexedDbLedger, LedgerWriteRefusedError, type LedgerChange } from './indexeddb-ledger.js';
import { ledgerStores, type LedgerRecordStore } from './ledger-record-store.js';
import { checkStoredChain } from './stored-chain-check.js';
import {
	bytes,
	editStoredEvent,
	freshDatabaseName,
	governedPipeline,
	lesson,
	openLedgerStore,
	storedLargeLedger,
	text,
	withReadAll
} from './ledger-test-kit.js';
import { readOnlyTabMessage } from './tab-coordination.js';

const opened: IndexedDbWorkspaceFiles[] = [];

async function openStore(
	name = freshDatabaseName(),
	options: Parameters<typeof openLedgerStore>[1] = {}
): Promise<IndexedDbWorkspaceFiles> {
	const store = await openLedgerStore(name, options);
	opened.push(store);
	return store;
}

async function openBoth(name = freshDatabaseName(), files: Record<string, string> = {}) {
	const store = await openStore(name, { initialFiles: async () => files });
	const ledger = await IndexedDbLedger.open({ store, clock: steppingClock() });
	return { store, ledger, fs: new WorkspaceFileSystem(store), name };
}

afterEach(async () => {
	vi.restoreAllMocks();
	await Promise.all(opened.splice(0).map((store) => store.close()));
});

const writeTo = (path: string, before: string | null, after: string | null) => ({
	path,
	type: (after === null ? 'deleted' : before === null ? 'created' : 'modified') as
		'created' | 'modified' | 'deleted',
	before: before === null ? null : bytes(before),
	after: after === null ? null : bytes(after)
});

/** Reads a store of the database behind the ledger, as a fresh page load would. */
async function peek(name: string, store: string, key: IDBValidKey): Promise<unknown> {
	const database = await openDB(name);
	try {
		return await database.get(store, key);
	} finally {
		database.close();
	}
}

function asJsonl(events: readonly LedgerEvent[]) {
	let auditJsonl = '';
	let traceJsonl = '';
	for (const event of events) {
		auditJsonl += canonicalJson(event) + '\n';
		if (event.type === 'mutation-record') traceJsonl += canonicalJson(event.trace) + '\n';
	}
	return { auditJsonl, traceJsonl };
}

describe('IndexedDbLedger', () => {
	it('seals, stores and resumes the chain after a reload', async () => {
		const { store, ledger, name } = await openBoth();
		expect(ledger.integrity).toEqual({ ok: true });
		expect(ledger.lastSeq).toBe(0);
		const first = await ledger.append([lesson('one'), lesson('two')]);
		expect(first.map((event) => event.seq)).toEqual([1, 2]);
		await store.close();

		const reopenedStore = await openStore(name);
		const reopened = await IndexedDbLedger.open({ store: reopenedStore });
		expect(await reopened.events()).toEqual(first);
		const next = await reopened.append([lesson('three')]);
		expect(next[0]).toMatchObject({ seq: 3, prev_hash: first[1]?.hash });
		const report = await verifyLedger(asJsonl(await reopened.events()));
		expect(report.ok).toBe(true);
	});

	it('commits a file write and its events in one readwrite transaction', async () => {
		const { ledger, fs, name } = await openBoth();
		const transaction = vi.spyOn(globalThis.IDBDatabase.prototype, 'transaction');
		const events = await ledger.commit(
			fs,
			[writeTo('src/auth/jwt.ts', null, 'export {};\n')],
			[lesson('wrote jwt')]
		);
		expect(transaction.mock.calls.filter((call) => call[1] === 'readwrite')).toHaveLength(1);
		transaction.mockRestore();
		expect(await fs.readTextFile('src/auth/jwt.ts')).toBe('export {};\n');
		expect(await peek(name, 'entries', 'src/auth/jwt.ts')).toMatchObject({ kind: 'file' });
		expect(await peek(name, ledgerStores.events, 1)).toEqual([events[0]]);
	});

	it('stores neither the file nor the event when the transaction fails, then both', async () => {
		const { store, ledger, fs, name } = await openBoth();
		const problems: (PersistProblem | null)[] = [];
		store.onPersistError((problem) => problems.push(problem));
		const prototype = globalThis.IDBObjectStore.prototype as unknown as {
			put: (...args: unknown[]) => IDBRequest;
		};
		const originalPut = prototype.put;
		const failing = vi.spyOn(prototype, 'put').mockImplementation(function (
			this: IDBObjectStore,
			...args: unknown[]
		) {
			const request = originalPut.apply(this, args);
			// The event's put fails the whole transaction, after the file's put was accepted.
			if (this.name === ledgerStores.events) this.transaction.abort();
			return request;
		});
		const events = await ledger.commit(fs, [writeTo('a.txt', null, 'a')], [lesson('wrote a')]);
		failing.mockRestore();
		expect(problems[0]).not.toBeNull();
		expect(await peek(name, 'entries', 'a.txt')).toBeUndefined();
		expect(await peek(name, ledgerStores.events, 1)).toBeUndefined();
		// This tab still has both, and keeps them together for the next attempt.
		expect(await ledger.events()).toEqual(events);
		expect(await fs.readTextFile('a.txt')).toBe('a');
		await store.flush();
		expect(problems.at(-1)).toBeNull();
		expect(await peek(name, 'entries', 'a.txt')).toMatchObject({ kind: 'file' });
		expect(await peek(name, ledgerStores.events, 1)).toEqual([events[0]]);
	});

	it('undoes earlier writes and records nothing when a write fails', async () => {
		const { ledger, fs } = await openBoth(freshDatabaseName(), { 'keep.txt': 'original' });
		const refusing: SandboxFileSystem = Object.create(fs, {
			writeFile: {
				value: async (path: string, data: Uint8Array) => {
					if (path === 'folder-taken.txt') throw new Error('EISDIR: a folder is there');
					return fs.writeFile(path, data);
				}
			}
		});
		await expect(
			ledger.commit(
				refusing,
				[writeTo('keep.txt', 'original', 'changed'), writeTo('folder-taken.txt', null, 'x')],
				[lesson('two writes')]
			)
		).rejects.toThrow(/Could not write folder-taken.txt: EISDIR/);
		expect(await fs.readTextFile('keep.txt')).toBe('original');
		expect(ledger.lastSeq).toBe(0);
		// The chain did not move: the next event is still seq 1.
		expect((await ledger.append([lesson('next')]))[0]?.seq).toBe(1);
	});

	it('refuses to commit writes without an fs, and bad arguments', async () => {
		const { ledger } = await openBoth();
		await expect(ledger.commit(null, [writeTo('a', null, 'a')], [])).rejects.toThrow(/fs/);
		await expect(ledger.commit(null, 'x' as never, [])).rejects.toThrow(/arrays/);
		expect(await ledger.commit(null, [], [])).toEqual([]);
		await expect(IndexedDbLedger.open({} as never)).rejects.toThrow(/store/);
	});

	it('keeps consecutive seqs for concurrent appends', async () => {
		const { ledger } = await openBoth();
		const batches = await Promise.all(
			['a', 'b', 'c', 'd'].map((name) => ledger.append([lesson(name), lesson(`${name}2`)]))
		);
		expect(batches.flat().map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
		expect((await verifyLedger(asJsonl(await ledger.events()))).ok).toBe(true);
	});

	it('reports a tampered stored chain and refuses to continue it', async () => {
		const { store, ledger, name } = await openBoth();
		await ledger.append([lesson('one'), lesson('two'), lesson('three')]);
		await store.close();
		await editStoredEvent(name, 2, (second) => ({ ...second, lesson: 'rewritten' }));

		const reopened = await IndexedDbLedger.open({ store: await openStore(name) });
		// Before the verified checkpoint (seq 3): found by the full check that follows the open.
		expect((await reopened.whenFullyChecked()).ok).toBe(false);
		expect(reopened.integrity.ok).toBe(false);
		expect(!reopened.integrity.ok && reopened.integrity.problem).toMatch(
			/line 2: hash does not match/
		);
		expect(reopened.writable).toBe(false);
		expect((await reopened.events()).map((event) => event.seq)).toEqual([1, 2, 3]);
		const refused = reopened.append([lesson('four')]);
		await expect(refused).rejects.toBeInstanceOf(LedgerWriteRefusedError);
		await expect(refused).rejects.toMatchObject({ reason: 'broken-chain' });
		await expect(refused).rejects.toThrow(/broken .*reset the scenario/);
	});

	it('reports an event stored under another seq', async () => {
		const { store, ledger, name } = await openBoth();
		const [event] = await ledger.append([lesson('one')]);
		await store.close();
		const database = await openDB(name);
		await database.put(ledgerStores.events, event, 7);
		database.close();
		const reopened = await IndexedDbLedger.open({ store: await openStore(name) });
		expect(reopened.integrity).toEqual({
			ok: false,
			problem: 'stored event under key 7 is not a sealed event with that seq'
		});
	});

	it('refuses every write in a read-only tab with the tab message', async () => {
		const store = await openStore();
		const ledger = await IndexedDbLedger.open({ store, writable: false });
		expect(ledger.writable).toBe(false);
		await expect(ledger.append([lesson('x')])).rejects.toThrow(readOnlyTabMessage);
		await expect(ledger.append([lesson('x')])).rejects.toMatchObject({ reason: 'read-only' });
		expect(() => ledger.setState('a', 1)).toThrow(readOnlyTabMessage);
		ledger.becomeReader('Custom reason.');
		await expect(ledger.append([lesson('x')])).rejects.toThrow('Custom reason.');
	});

	it('keeps the before and after of each change as content-addressed blobs', async () => {
		const { store, ledger } = await openBoth(freshDatabaseName(), { 'src/a.ts': 'one\n' });
		const { pipeline, call } = governedPipeline(store, ledger);
		await pipeline.recordWorkspaceSnapshot(['src/a.ts']);
		await call('select_active_intent', { intent_id: 'INT-001' });
		await call('write_to_file', {
			path: 'src/auth/a.ts',
			content: 'first\n',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		await call('write_to_file', {
			path: 'src/auth/a.ts',
			content: 'second\n',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		const mutations = (await ledger.events()).filter((event) => event.type === 'mutation-record');
		expect(mutations).toHaveLength(2);
		const created = await ledger.mutationContents(mutations[0]?.seq ?? 0);
		expect(created).toMatchObject({ path: 'src/auth/a.ts', beforeKnown: true });
		expect(created?.before).toEqual({ hash: null, content: null });
		expect(text(created?.after.content)).toBe('first\n');
		const modified = await ledger.mutationContents(mutations[1]?.seq ?? 0);
		expect(text(modified?.before.content)).toBe('first\n');
		expect(text(modified?.after.content)).toBe('second\n');

		// The snapshot's files are kept too, so a first change of a seeded file has its before.
		const snapshot = (await ledger.events()).find((event) => event.type === 'workspace-snapshot');
		const seededHash = snapshot?.type === 'workspace-snapshot' ? snapshot.files['src/a.ts'] : '';
		expect(text(await ledger.blob(seededHash ?? ''))).toBe('one\n');

		// Many at once (a checkpoint restore): one read, stored and still queued alike.
		const many = await ledger.blobs([
			seededHash ?? '',
			mutations[1]?.type === 'mutation-record'
				? (mutations[1].trace.metadata['dev.threadline'].file_hash ?? '')
				: '',
			`sha256:${'e'.repeat(64)}`,
			'not a hash'
		]);
		expect([...many.values()].map((content) => text(content)).sort()).toEqual([
			'one\n',
			'second\n'
		]);

		expect(await ledger.mutationContents(1)).toBeNull();
		expect(await ledger.blob(`sha256:${'f'.repeat(64)}`)).toBeNull();
		expect(await ledger.blob('not a hash')).toBeNull();
		await expect(ledger.blob(42 as never)).rejects.toThrow(/sha256/);
	});

	it('keeps the content a shell command left, read from the store', async () => {
		const { store, ledger } = await openBoth();
		const { call } = governedPipeline(store, ledger, {
			'make token': { 'src/auth/token.ts': 'export const token = 1;\n' }
		});
		await call('select_active_intent', { intent_id: 'INT-001' });
		const outcome = await call('execute_command', { command: 'make token' });
		expect(outcome.ok).toBe(true);
		const mutation = (await ledger.events()).find((event) => event.type === 'mutation-record');
		const contents = await ledger.mutationContents(mutation?.seq ?? 0);
		expect(contents?.path).toBe('src/auth/token.ts');
		expect(text(contents?.after.content)).toBe('export const token = 1;\n');
		// Nothing said what was there before: no snapshot, no earlier record.
		expect(contents?.beforeKnown).toBe(false);
	});

	it('agrees with the files after a governed session and a reload, as verify checks', async () => {
		const name = freshDatabaseName();
		const { store, ledger } = await openBoth(name, { 'README.md': '# Demo\n' });
		const { pipeline, call } = governedPipeline(store, ledger);
		await pipeline.recordWorkspaceSnapshot(['README.md']);
		expect(
			(
				await call('write_to_file', {
					path: 'src/auth/x.ts',
					content: 'x',
					intent_id: 'INT-001',
					mutation_class: 'INTENT_EVOLUTION'
				})
			).ok
		).toBe(false);
		await call('select_active_intent', { intent_id: 'INT-001' });
		const write = await call('write_to_file', {
			path: 'src/auth/jwt.ts',
			content: 'export const sign = () => 1;\n',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(write.ok).toBe(true);
		await pipeline.recordHumanEdit({ path: 'README.md', content: '# Demo, edited\n' });
		await store.close();

		const reopenedStore = await openStore(name);
		const reopened = await IndexedDbLedger.open({ store: reopenedStore });
		expect(reopened.integrity).toEqual({ ok: true });
		expect(text(await reopenedStore.read('src/auth/jwt.ts'))).toBe(
			'export const sign = () => 1;\n'
		);
		const report = await verifyLedger({
			...asJsonl(await reopened.events()),
			files: reopenedStore.snapshot()
		});
		expect(report.firstFailure).toBeNull();
		expect(report.ok).toBe(true);
		expect(report.trace.records).toBe(2);
	});

	it('keeps per-scenario state across a reload', async () => {
		const { store, ledger, name } = await openBoth();
		const sessions = { builder: { activeIntentId: 'INT-001' } };
		ledger.setState('sessions', sessions);
		sessions.builder.activeIntentId = 'changed after';
		ledger.setState('approvals', ['INT-001']);
		ledger.setState('gone', true);
		ledger.deleteState('gone');
		expect(ledger.state('sessions')).toEqual({ builder: { activeIntentId: 'INT-001' } });
		expect(ledger.stateKeys()).toEqual(['approvals', 'sessions']);
		expect(() => ledger.setState('', 1)).toThrow(/non-empty/);
		expect(() => ledger.setState('x', undefined)).toThrow(/deleteState/);
		expect(() => ledger.setState('fn', () => 1)).toThrow(/cannot be stored/);
		await store.close();

		const reopened = await IndexedDbLedger.open({ store: await openStore(name) });
		expect(reopened.state('sessions')).toEqual({ builder: { activeIntentId: 'INT-001' } });
		expect(reopened.state('approvals')).toEqual(['INT-001']);
		expect(reopened.state('gone')).toBeUndefined();
		const copy = reopened.state<string[]>('approvals');
		copy?.push('mutated');
		expect(reopened.state('approvals')).toEqual(['INT-001']);
	});

	it('tells subscribers about stored events, and lists events since a seq', async () => {
		const { ledger } = await openBoth();
		const heard: LedgerChange[] = [];
		ledger.subscribe(() => {
			throw new Error('broken listener');
		});
		const unsubscribe = ledger.subscribe((change) => heard.push(change));
		await ledger.append([lesson('one'), lesson('two')]);
		await ledger.append([lesson('three')]);
		expect(
			heard.map((change) => [change.kind, change.origin, change.events.map((e) => e.seq)])
		).toEqual([
			['appended', 'this-tab', [1, 2]],
			['appended', 'this-tab', [3]]
		]);
		expect(ledger.eventsSince(1).map((event) => event.seq)).toEqual([2, 3]);
		expect(ledger.eventsSince(0)).toHaveLength(3);
		expect(ledger.eventsSince(3)).toEqual([]);
		expect(() => ledger.eventsSince(-1)).toThrow(/seq/);
		unsubscribe();
		await ledger.append([lesson('four')]);
		expect(heard).toHaveLength(2);
		expect(() => ledger.subscribe(null as never)).toThrow(/function/);
	});

	it('stores each commit as one run, and merges the runs when the writer opens the ledger again', async () => {
		const name = freshDatabaseName();
		const first = await openBoth(name);
		for (let commit = 0; commit < 5; commit++) {
			await first.ledger.append([lesson(`a${commit}`), lesson(`b${commit}`)]);
		}
		await first.store.close();
		const runKeys = async () => {
			const database = await openDB(name);
			const keys = await database.getAllKeys(ledgerStores.events);
			database.close();
			return keys;
		};
		expect(await runKeys()).toEqual([1, 3, 5, 7, 9]);
		// A reader tab writes nothing, merges included.
		const readerStore = await openStore(name);
		const reader = await IndexedDbLedger.open({ store: readerStore, writable: false });
		await readerStore.flush();
		expect(await runKeys()).toEqual([1, 3, 5, 7, 9]);

		const second = await openBoth(name);
		await second.store.flush();
		expect(await runKeys()).toEqual([1]);
		expect(await peek(name, ledgerStores.events, 1)).toEqual(await first.ledger.events());
		// The reader follows across the merge: its last event now sits inside the merged run.
		await second.ledger.append([lesson('after the merge')]);
		await second.store.flush();
		expect((await reader.refresh()).map((event) => event.seq)).toEqual([11]);
		expect(reader.integrity).toEqual({ ok: true });
		await second.store.close();
		const third = await openBoth(name);
		expect(third.ledger.integrity).toEqual({ ok: true });
		expect(await third.ledger.events()).toEqual(await reader.events());
		expect(await third.ledger.whenFullyChecked()).toEqual({ ok: true });
	});

	it("keeps storing the learner's commits when merging the runs fails (a full quota)", async () => {
		const name = freshDatabaseName();
		const first = await openBoth(name);
		for (let commit = 0; commit < 30; commit++) await first.ledger.append([lesson(`${commit}`)]);
		await first.store.close();
		const prototype = globalThis.IDBObjectStore.prototype as unknown as {
			put: (...args: unknown[]) => IDBRequest;
		};
		const originalPut = prototype.put;
		// Any run longer than one commit's is refused: the merge fails, the commits must not.
		vi.spyOn(prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
			const request = originalPut.apply(this, args);
			if (Array.isArray(args[0]) && args[0].length > 5) this.transaction.abort();
			return request;
		});
		const second = await openBoth(name);
		const problems: unknown[] = [];
		second.store.onPersistError((problem) => problems.push(problem));
		await second.ledger.append([lesson('after'), lesson('and after')]);
		await second.store.flush();
		vi.restoreAllMocks();
		expect(problems.filter((problem) => problem !== null)).toEqual([]);
		await second.store.close();
		const third = await openBoth(name);
		expect(third.ledger.lastSeq).toBe(32);
		expect(third.ledger.integrity).toEqual({ ok: true });
	});

	it('lets a reader tab follow what the writer stores, then take over without forking', async () => {
		const name = freshDatabaseName();
		const writer = await openBoth(name);
		const readerStore = await openStore(name);
		const reader = await IndexedDbLedger.open({ store: readerStore, writable: false });
		const heard: LedgerChange[] = [];
		reader.subscribe((change) => heard.push(change));

		await writer.ledger.append([lesson('one'), lesson('two')]);
		expect((await reader.refresh()).map((event) => event.seq)).toEqual([1, 2]);
		expect(heard[0]).toMatchObject({ kind: 'appended', origin: 'other-tab' });
		expect(await reader.refresh()).toEqual([]);

		writer.ledger.setState('approvals', ['INT-001']);
		await writer.ledger.append([lesson('three')]);
		await writer.store.close();
		await reader.becomeWriter();
		expect(reader.writable).toBe(true);
		expect(reader.state('approvals')).toEqual(['INT-001']);
		const [four] = await reader.append([lesson('four')]);
		expect(four?.seq).toBe(4);
		expect((await verifyLedger(asJsonl(await reader.events()))).ok).toBe(true);
	});

	it('reloads everything when the stored ledger was started over by the other tab', async () => {
		const name = freshDatabaseName();
		const writer = await openBoth(name, { 'a.txt': 'a' });
		await writer.ledger.append([lesson('one'), lesson('two')]);
		const reader = await IndexedDbLedger.open({ store: await openStore(name), writable: false });
		const heard: LedgerChange[] = [];
		reader.subscribe((change) => heard.push(change));
		const resets: LedgerChange[] = [];
		writer.ledger.subscribe((change) => resets.push(change));

		await writer.ledger.resetWith({ 'fresh.txt': 'fresh' });
		expect(resets).toEqual([{ kind: 'reloaded', events: [], origin: 'this-tab' }]);
		await writer.ledger.append([lesson('new one')]);
		await reader.refresh();
		expect(heard.at(-1)).toMatchObject({ kind: 'reloaded', origin: 'other-tab' });
		expect(
			(await reader.events()).map((event) => event.type === 'lesson-record' && event.lesson)
		).toEqual(['new one']);
	});

	it('marks a chain broken when events found later do not continue it', async () => {
		const name = freshDatabaseName();
		const writer = await openBoth(name);
		await writer.ledger.append([lesson('one')]);
		const reader = await IndexedDbLedger.open({ store: await openStore(name), writable: false });
		await writer.ledger.append([lesson('two')]);
		await writer.store.flush();
		await editStoredEvent(name, 2, (second) => ({ ...second, lesson: 'forged' }));
		await reader.refresh();
		expect(reader.integrity).toEqual({
			ok: false,
			problem: 'stored event seq 2: hash does not match its content'
		});
	});

	it('starts over with new files and an empty ledger in one go', async () => {
		const { store, ledger, name } = await openBoth(freshDatabaseName(), { 'old.txt': 'old' });
		await ledger.append([lesson('one')]);
		ledger.setState('sessions', {});
		await ledger.resetWith({ 'new.txt': 'new' });
		expect(ledger.lastSeq).toBe(0);
		expect((await ledger.append([lesson('again')]))[0]).toMatchObject({ seq: 1 });
		await store.close();
		const reopenedStore = await openStore(name);
		const reopened = await IndexedDbLedger.open({ store: reopenedStore });
		expect([...reopenedStore.snapshot().keys()]).toEqual(['new.txt']);
		expect((await reopened.events()).map((event) => event.seq)).toEqual([1]);
		expect(reopened.stateKeys()).toEqual([]);
	});

	it('restores an imported history verbatim, and a broken one is kept but not extended', async () => {
		const source = await openBoth(freshDatabaseName());
		await source.ledger.append([lesson('one'), lesson('two')]);
		const events = [...(await source.ledger.events())];
		const { store, ledger, name } = await openBoth(freshDatabaseName(), { 'old.txt': 'old' });
		const integrity = await ledger.restoreHistory({ 'a.txt': bytes('a') }, events, {
			'imported-export': { ok: true }
		});
		expect(integrity).toEqual({ ok: true });
		expect(await ledger.events()).toEqual(events);
		expect((await ledger.append([lesson('three')]))[0]).toMatchObject({ seq: 3 });
		await store.close();
		const reopenedStore = await openStore(name);
		const reopened = await IndexedDbLedger.open({ store: reopenedStore });
		expect([...reopenedStore.snapshot().keys()]).toEqual(['a.txt']);
		expect((await reopened.events()).map((event) => event.seq)).toEqual([1, 2, 3]);
		expect(reopened.state('imported-export')).toEqual({ ok: true });

		const forged = events.map((event, index) =>
			index === 0 && event.type === 'lesson-record' ? { ...event, lesson: 'forged' } : event
		);
		const broken = await openBoth(freshDatabaseName());
		const check = await broken.ledger.restoreHistory({}, forged);
		expect(check.ok).toBe(false);
		expect(broken.ledger.writable).toBe(false);
		expect(JSON.stringify(await broken.ledger.events())).toContain('forged');
	});
});

describe('IndexedDbLedger: the verified checkpoint', () => {
	async function storedLedger(count: number) {
		const name = freshDatabaseName();
		const store = await openStore(name);
		const ledger = await IndexedDbLedger.open({ store });
		await ledger.append(Array.from({ length: count }, (_, index) => lesson(`lesson ${index}`)));
		await store.close();
		return name;
	}

	async function edit(
		name: string,
		storeName: string,
		key: IDBValidKey,
		change: (value: never) => unknown
	) {
		const database = await openDB(name);
		const value = await database.get(storeName, key);
		await database.put(storeName, change(value as never), key);
		database.close();
	}

	it('is stored with the events and opens from it; the full check agrees', async () => {
		const name = await storedLedger(5);
		const database = await openDB(name);
		const checkpoint = await database.get(ledgerStores.state, '\u0000verified-checkpoint');
		database.close();
		expect(checkpoint).toMatchObject({ audit: { seq: 5 }, trace: { seq: 0 } });
		const fullChecks: number[] = [];
		const reopened = await IndexedDbLedger.open({
			store: await openStore(name),
			checkFully: async (events) => {
				fullChecks.push(events.length);
				return { ok: true };
			}
		});
		expect(reopened.integrity).toEqual({ ok: true });
		expect(await reopened.whenFullyChecked()).toEqual({ ok: true });
		expect(fullChecks).toEqual([5]);
		expect(reopened.stateKeys()).toEqual([]);
		expect(() => reopened.setState('\u0000verified-checkpoint', 1)).toThrow(/reserved/);
	});

	it('catches at once an edit of the checkpoint event, of a link, or of the checkpoint itself', async () => {
		const cases: [string, (name: string) => Promise<void>][] = [
			[
				'the last event rewritten',
				(name) => editStoredEvent(name, 4, (event) => ({ ...event, lesson: 'x' }))
			],
			[
				'an earlier event with another hash',
				(name) =>
					editStoredEvent(name, 2, (event) => ({ ...event, hash: `sha256:${'0'.repeat(64)}` }))
			],
			[
				'the checkpoint moved back to seq 2',
				(name) =>
					edit(name, ledgerStores.state, '\u0000verified-checkpoint', (heads: ChainHeadsLike) => ({
						...heads,
						audit: { seq: 2, hash: heads.audit.hash }
					}))
			]
		];
		for (const [label, tamper] of cases) {
			const name = await storedLedger(4);
			await tamper(name);
			const reopened = await IndexedDbLedger.open({
				store: await openStore(name),
				checkFully: async () => ({ ok: true })
			});
			expect(reopened.integrity.ok, label).toBe(label === 'the checkpoint moved back to seq 2');
			if (label === 'the checkpoint moved back to seq 2') {
				// A checkpoint that does not fit the stored events: the whole chain was checked.
				expect(await reopened.whenFullyChecked()).toEqual({ ok: true });
			}
		}
	});

	it('an event edited before the checkpoint (hash fields kept) is found by the full check, which then refuses writes', async () => {
		const name = await storedLedger(4);
		await editStoredEvent(name, 2, (event) => ({ ...event, lesson: 'x' }));
		const reopened = await IndexedDbLedger.open({ store: await openStore(name) });
		const verdict = await reopened.whenFullyChecked();
		expect(verdict.ok).toBe(false);
		expect(reopened.writable).toBe(false);
		await expect(reopened.append([lesson('more')])).rejects.toBeInstanceOf(LedgerWriteRefusedError);
	});
});

describe('IndexedDbLedger: a large ledger opens from its last events', () => {
	// Ten changes (trace records 1–10) first, then lessons: the tail read at open holds no trace
	// record, so the trace chain's head is known only from the checkpoint until the history is in.

	const fullCheckPasses = { checkFully: async () => ({ ok: true }) as const };

	it('is usable at once, reads the rest after, and continues both chains', async () => {
		const { name, events } = await storedLargeLedger();
		const heard: LedgerChange[] = [];
		const reopened = await IndexedDbLedger.open({
			store: await openStore(name),
			...fullCheckPasses
		});
		reopened.subscribe((change) => heard.push(change));
		expect(reopened.integrity).toEqual({ ok: true });
		expect(reopened.lastSeq).toBe(events.length);
		// Only the tail is in memory yet: asking for more says so instead of answering with a part.
		expect(() => reopened.eventsSince(0)).toThrow(/still being read/);
		expect(reopened.eventsSince(events.length - 3)).toEqual(events.slice(-3));
		// A write queued now waits for the history and continues the trace chain from record 10.
		const appending = reopened.append([
			await buildMutationDraft({
				id: fixtureUuid(11),
				path: 'a.ts',
				before: 'v10\n',
				after: 'v11\n'
			})
		]);
		const [change] = await appending;
		expect(change?.type === 'mutation-record' && change.trace.metadata['dev.threadline'].seq).toBe(
			11
		);
		expect(reopened.eventsSince(0)).toHaveLength(events.length + 1);
		expect(await reopened.events()).toEqual([...events, change]);
		expect(heard.map((item) => item.kind)).toEqual(['appended']);
		expect(await reopened.whenFullyChecked()).toEqual({ ok: true });
		expect(await checkStoredChain(await reopened.events())).toEqual({ ok: true });
		// events() and the diff of a change in the history wait for the history.
		const third = await IndexedDbLedger.open({ store: await openStore(name), ...fullCheckPasses });
		expect(await third.events()).toHaveLength(events.length + 1);
		const again = await IndexedDbLedger.open({ store: await openStore(name), ...fullCheckPasses });
		expect(await again.mutationContents(2)).toMatchObject({
			seq: 2,
			path: 'a.ts',
			beforeKnown: true,
			before: { hash: expect.stringMatching(/^sha256:/) }
		});
	});

	it('breaks, refuses writes and tells subscribers when a link before the tail does not hold', async () => {
		const { name } = await storedLargeLedger();
		await editStoredEvent(name, 5, (event) => ({ ...event, hash: `sha256:${'0'.repeat(64)}` }));
		const reopened = await IndexedDbLedger.open({
			store: await openStore(name),
			...fullCheckPasses
		});
		const heard: LedgerChange['kind'][] = [];
		reopened.subscribe((change) => heard.push(change.kind));
		expect(reopened.integrity).toEqual({ ok: true });
		const appending = reopened.append([lesson('more')]);
		await reopened.whenHistoryLoaded();
		expect(reopened.integrity).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/seq 6/)
		});
		expect(heard).toEqual(['reloaded']);
		await expect(appending).rejects.toBeInstanceOf(LedgerWriteRefusedError);
		expect(reopened.writable).toBe(false);
	});

	it('opens the whole ledger at once when the tail does not hold, as before', async () => {
		const { name, events } = await storedLargeLedger();
		await editStoredEvent(name, events.length, (event) => ({ ...event, lesson: 'rewritten' }));
		const reopened = await IndexedDbLedger.open({
			store: await openStore(name),
			...fullCheckPasses
		});
		expect(reopened.integrity.ok).toBe(false);
		// Everything was read: nothing is left to load.
		expect(reopened.eventsSince(0)).toHaveLength(events.length);
	});

	it('takes what is stored when another tab replaced the ledger while the history was read', async () => {
		const { name } = await storedLargeLedger({
			state: { 'chat:agent': ['the old ledger’s chat'] }
		});
		const store = await openStore(name);
		let replaced = false;
		// Another tab resets the scenario and records three lessons just before the history is read.
		const replacing = withReadAll(store, async (storeName, range, read) => {
			if (storeName === ledgerStores.events && range === undefined && !replaced) {
				replaced = true;
				const other = await IndexedDbLedger.open({
					store: await openStore(name),
					...fullCheckPasses
				});
				await other.resetWith({});
				await other.append([lesson('a'), lesson('b'), lesson('c')]);
			}
			return read(storeName, range);
		});
		const reader = await IndexedDbLedger.open({
			store: replacing,
			writable: false,
			...fullCheckPasses
		});
		const heard: LedgerChange[] = [];
		reader.subscribe((change) => heard.push(change));
		await reader.whenHistoryLoaded();
		expect(replaced).toBe(true);
		expect(reader.integrity).toEqual({ ok: true });
		expect(reader.eventsSince(0).map((event) => event.seq)).toEqual([1, 2, 3]);
		expect(heard).toMatchObject([{ kind: 'reloaded', origin: 'other-tab' }]);
		// The state is the new ledger's too, as after a refresh.
		expect(reader.stateKeys()).toEqual([]);
	});

	it('says a damaged record before the tail is damage, not another tab, and the full check agrees', async () => {
		const { name } = await storedLargeLedger();
		// The run of events 511–1010 goes missing: before the tail the open reads (1511 on).
		const database = await openDB(name);
		await database.delete(ledgerStores.events, 511);
		database.close();
		const ledger = await IndexedDbLedger.open({ store: await openStore(name) });
		const heard: LedgerChange[] = [];
		ledger.subscribe((change) => heard.push(change));
		expect(ledger.integrity).toEqual({ ok: true });
		await ledger.whenHistoryLoaded();
		expect(ledger.integrity).toEqual({
			ok: false,
			problem: 'stored event under key 1011 does not follow the stored event 510'
		});
		// As a whole open shows it: the events before the first bad record.
		expect(ledger.lastSeq).toBe(510);
		expect(heard).toMatchObject([{ kind: 'reloaded', origin: 'this-tab' }]);
		expect((await ledger.whenFullyChecked()).ok).toBe(false);
	});

	it('tries a failing history read again, and when it keeps failing refuses writes until a refresh reads it', async () => {
		const { name, events } = await storedLargeLedger();
		const store = await openStore(name);
		let failuresLeft = 1;
		const flaky: LedgerRecordStore = new Proxy(store, {
			get(target, property) {
				if (property === 'readAll')
					return async (storeName: string, range?: IDBKeyRange) => {
						if (storeName === ledgerStores.events && range === undefined && failuresLeft > 0) {
							failuresLeft--;
							throw new Error('The database connection is closing.');
						}
						return target.readAll(storeName, range);
					};
				const value: unknown = Reflect.get(target, property);
				return typeof value === 'function' ? value.bind(target) : value;
			}
		});
		// One failure: tried again, and read.
		const once = await IndexedDbLedger.open({ store: flaky, ...fullCheckPasses });
		await once.whenHistoryLoaded();
		expect(once.historyProblem).toBeNull();
		expect(await once.events()).toHaveLength(events.length);
		// Every try fails: nothing is appended, and the learner is told to reload, never to reset.
		failuresLeft = 3;
		const stuck = await IndexedDbLedger.open({ store: flaky, ...fullCheckPasses });
		const appending = stuck.append([lesson('more')]);
		await stuck.whenHistoryLoaded();
		expect(stuck.historyProblem).toBe('could not be read (The database connection is closing.)');
		expect(stuck.integrity).toEqual({ ok: true });
		expect(stuck.writable).toBe(false);
		const refused = await appending.catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(LedgerWriteRefusedError);
		expect((refused as Error).message).toMatch(/reload the page/);
		expect((refused as Error).message).not.toMatch(/reset/);
		expect(() => stuck.eventsSince(0)).toThrow(
			"The saved ledger's history could not be read (The database connection is closing.): reload the page to try again."
		);
		await expect(stuck.events()).rejects.toThrow(/reload the page/);
		await expect(stuck.mutationContents(2)).rejects.toThrow(/reload the page/);
		expect(await stuck.whenFullyChecked()).toMatchObject({ ok: false });
		// The store reads again: a refresh takes the history, and writing resumes.
		await stuck.refresh();
		expect(stuck.historyProblem).toBeNull();
		expect(stuck.writable).toBe(true);
		await stuck.append([lesson('after')]);
		expect(await stuck.events()).toHaveLength(events.length + 1);
	});

	it('refuses writes, without calling the chain broken, when the full check cannot finish', async () => {
		const name = freshDatabaseName();
		const store = await openStore(name);
		const ledger = await IndexedDbLedger.open({ store, clock: steppingClock() });
		await ledger.append(Array.from({ length: 600 }, (_, index) => lesson(`lesson ${index}`)));
		await store.close();
		// An event before the checkpoint edited to hold what JSON cannot say, its hashes kept:
		// the open checks links only that far back, and the full check throws on it.
		await editStoredEvent(name, 50, (event) => ({ ...event, lesson: 50n }));
		const reopened = await IndexedDbLedger.open({ store: await openStore(name) });
		expect(reopened.integrity).toEqual({ ok: true });
		expect(await reopened.whenFullyChecked()).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/^the stored ledger could not be checked \(/)
		});
		expect(reopened.writable).toBe(false);
		await expect(reopened.append([lesson('after the edit')])).rejects.toBeInstanceOf(
			LedgerWriteRefusedError
		);
	});
});

type ChainHeadsLike = {
	audit: { seq: number; hash: string };
	trace: { seq: number; hash: string };
};
