import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	describePersistError,
	IndexedDbWorkspaceFiles,
	workspaceDatabaseName,
	type PersistProblem
} from './indexeddb-workspace-files.js';
import { describeWorkspaceFilesContract } from './workspace-files-contract.js';

let databaseCounter = 0;
const opened: IndexedDbWorkspaceFiles[] = [];
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

function freshName(): string {
	databaseCounter += 1;
	return `threadline-test-${databaseCounter}-${Math.random().toString(36).slice(2)}`;
}

async function open(
	name: string,
	options: Parameters<typeof IndexedDbWorkspaceFiles.open>[1] = {}
): Promise<IndexedDbWorkspaceFiles> {
	const files = await IndexedDbWorkspaceFiles.open(name, { flushDelayMs: 1, ...options });
	opened.push(files);
	return files;
}

afterEach(async () => {
	vi.restoreAllMocks();
	await Promise.all(opened.splice(0).map((files) => files.close()));
});

describeWorkspaceFilesContract('IndexedDB', () => open(freshName()));

describeWorkspaceFilesContract('IndexedDB after a reload', async () => {
	// The contract again, on a store whose (empty) content came back from the database.
	const name = freshName();
	await (await open(name)).close();
	return open(name);
});

/**
 * Makes every `put` fail the way a full disk does in Chromium: the request is accepted, then the
 * commit aborts with a QuotaExceededError. fake-indexeddb has no quota, so its internal abort is
 * used to play that part.
 */
function simulateFullQuota() {
	const prototype = globalThis.IDBObjectStore.prototype as unknown as {
		put: (...args: unknown[]) => IDBRequest;
	};
	const originalPut = prototype.put;
	return vi.spyOn(prototype, 'put').mockImplementation(function (
		this: IDBObjectStore,
		...args: unknown[]
	) {
		const request = originalPut.apply(this, args);
		const transaction = this.transaction as unknown as { _abort(name: string): void };
		queueMicrotask(() => transaction._abort('QuotaExceededError'));
		return request;
	});
}

describe('IndexedDbWorkspaceFiles', () => {
	it('names one database per workspace and refuses an empty id', () => {
		expect(workspaceDatabaseName('jwt-auth')).toBe('threadline-workspace-jwt-auth');
		expect(() => workspaceDatabaseName('')).toThrow(/non-empty/);
		return expect(IndexedDbWorkspaceFiles.open('')).rejects.toThrow(/database name/);
	});

	it('seeds an empty database from initialFiles, and only the first time', async () => {
		const name = freshName();
		const initialFiles = vi.fn(async () => ({
			'src/app.ts': bytes('export {};\n'),
			'README.md': bytes('# Hi\n')
		}));
		const first = await open(name, { initialFiles });
		expect(first.restoredFrom).toBe('initial-files');
		expect(text(await first.read('src/app.ts'))).toBe('export {};\n');
		await first.delete('README.md');
		await first.close();

		const second = await open(name, { initialFiles });
		expect(second.restoredFrom).toBe('database');
		expect(initialFiles).toHaveBeenCalledTimes(1);
		// Deleting a seeded file must not bring it back on reload.
		expect(await second.stat('README.md')).toBeNull();
		expect(text(await second.read('src/app.ts'))).toBe('export {};\n');
	});

	it('keeps an emptied workspace empty instead of seeding it again', async () => {
		const name = freshName();
		const seeded = await open(name, { initialFiles: async () => ({ 'a.txt': 'a' }) });
		await seeded.delete('a.txt');
		await seeded.close();
		const reopened = await open(name, { initialFiles: async () => ({ 'a.txt': 'a' }) });
		expect(await reopened.list('')).toEqual([]);
	});

	it('restores files, bytes and empty folders after a reload', async () => {
		const name = freshName();
		const files = await open(name);
		await files.makeDirectory('src');
		await files.makeDirectory('src/empty');
		await files.write('src/a.ts', bytes('a'));
		await files.write('image.bin', Uint8Array.from([0, 255, 10, 13]));
		await files.write('src/a.ts', bytes('a, changed'));
		await files.makeDirectory('gone');
		await files.delete('gone');
		await files.close();

		const reopened = await open(name);
		expect(await reopened.list('')).toEqual([
			{ name: 'image.bin', kind: 'file' },
			{ name: 'src', kind: 'directory' }
		]);
		expect(await reopened.list('src')).toEqual([
			{ name: 'a.ts', kind: 'file' },
			{ name: 'empty', kind: 'directory' }
		]);
		expect(text(await reopened.read('src/a.ts'))).toBe('a, changed');
		expect(Array.from(await reopened.read('image.bin'))).toEqual([0, 255, 10, 13]);
	});

	it('writes behind: a write returns before IndexedDB has it, flush waits for it', async () => {
		const name = freshName();
		const files = await open(name, { flushDelayMs: 60_000 });
		await files.write('late.txt', bytes('late'));
		const peek = await openDB(name);
		expect(await peek.get('entries', 'late.txt')).toBeUndefined();
		await files.flush();
		expect(await peek.get('entries', 'late.txt')).toMatchObject({ path: 'late.txt', kind: 'file' });
		peek.close();
	});

	it('stores a burst of writes in one transaction', async () => {
		const name = freshName();
		const files = await open(name, { flushDelayMs: 5 });
		const transactionSpy = vi.spyOn(
			Object.getPrototypeOf((files as unknown as { database: object }).database) as {
				transaction: (...args: unknown[]) => unknown;
			},
			'transaction'
		);
		for (let index = 0; index < 50; index += 1) {
			await files.write(`file-${index}.txt`, bytes(String(index)));
		}
		await files.flush();
		const readwrite = transactionSpy.mock.calls.filter((call) => call[1] === 'readwrite');
		expect(readwrite).toHaveLength(1);
	});

	it('restores 1,000 files with a single readonly transaction', async () => {
		const name = freshName();
		const initial: Record<string, Uint8Array> = {};
		for (let index = 0; index < 1_000; index += 1) {
			initial[`src/module-${Math.floor(index / 100)}/file-${index}.ts`] = bytes(
				`export const value${index} = ${index};\n`
			);
		}
		await (await open(name, { initialFiles: async () => initial })).close();

		const transaction = vi.spyOn(globalThis.IDBDatabase.prototype, 'transaction');
		const getAll = vi.spyOn(globalThis.IDBObjectStore.prototype, 'getAll');
		const reopened = await open(name);
		expect(transaction.mock.calls.map((call) => call[1] ?? 'readonly')).toEqual(['readonly']);
		expect(getAll).toHaveBeenCalledTimes(1);
		expect(reopened.restoredFrom).toBe('database');
		expect(reopened.snapshot().size).toBe(1_000);
		expect(text(await reopened.read('src/module-9/file-999.ts'))).toBe(
			'export const value999 = 999;\n'
		);
	});

	it('replaces everything for a reset or a zip import, and stores that', async () => {
		const name = freshName();
		const files = await open(name, { initialFiles: async () => ({ 'old.txt': 'old' }) });
		await files.write('note.txt', bytes('mine'));
		await files.replaceAll({ 'fresh/start.ts': bytes('start') });
		expect(await files.stat('old.txt')).toBeNull();
		expect(await files.stat('note.txt')).toBeNull();
		expect([...files.snapshot().keys()]).toEqual(['fresh/start.ts']);
		await files.close();
		const reopened = await open(name);
		expect([...reopened.snapshot().keys()]).toEqual(['fresh/start.ts']);
	});

	it('refuses a replacement with an invalid path without touching the workspace', async () => {
		const files = await open(freshName(), { initialFiles: async () => ({ 'keep.txt': 'k' }) });
		await expect(files.replaceAll({ '../escape.txt': bytes('x') })).rejects.toThrow(/escapes/);
		expect(text(await files.read('keep.txt'))).toBe('k');
	});

	it('snapshots copies of every file', async () => {
		const files = await open(freshName(), {
			initialFiles: async () => ({ 'b.txt': 'b', 'a/x.txt': 'x' })
		});
		const snapshot = files.snapshot();
		expect([...snapshot.keys()]).toEqual(['a/x.txt', 'b.txt']);
		snapshot.get('b.txt')?.fill(0x7a);
		expect(text(await files.read('b.txt'))).toBe('b');
	});

	it('keeps writing in memory through a full quota, reports it once per failure, then clears it', async () => {
		const name = freshName();
		const files = await open(name, { initialFiles: async () => ({ 'saved.txt': 'saved' }) });
		const problems: (PersistProblem | null)[] = [];
		files.onPersistError((problem) => problems.push(problem));

		const quota = simulateFullQuota();
		await files.write('unsaved.txt', bytes('only in memory'));
		await files.flush();
		expect(text(await files.read('unsaved.txt'))).toBe('only in memory');
		expect(problems).toHaveLength(1);
		expect((problems[0]?.error as DOMException).name).toBe('QuotaExceededError');
		expect(problems[0]?.message).toMatch(/storage for this site is full/);
		expect(problems[0]?.message).toMatch(/export the workspace as a zip/);
		expect(files.persistProblem).toBe(problems[0]);

		quota.mockRestore();
		await files.write('later.txt', bytes('later'));
		await files.flush();
		expect(problems.at(-1)).toBeNull();
		expect(files.persistProblem).toBeNull();

		// The write that failed was retried with the next flush: nothing was lost.
		await files.close();
		const reopened = await open(name);
		expect(text(await reopened.read('saved.txt'))).toBe('saved');
		expect(text(await reopened.read('unsaved.txt'))).toBe('only in memory');
		expect(text(await reopened.read('later.txt'))).toBe('later');
	});

	it('never throws a persistence failure into a write, even when the request is refused at once', async () => {
		const files = await open(freshName());
		const problems: (PersistProblem | null)[] = [];
		files.onPersistError((problem) => problems.push(problem));
		vi.spyOn(globalThis.IDBObjectStore.prototype, 'put').mockImplementation(() => {
			throw new DOMException('disk is full', 'QuotaExceededError');
		});
		await expect(files.write('a.txt', bytes('a'))).resolves.toBeUndefined();
		await expect(files.flush()).resolves.toBeUndefined();
		expect(problems[0]?.message).toMatch(/full/);
		expect(text(await files.read('a.txt'))).toBe('a');
	});

	it('keeps notifying the other listeners when one throws, and unsubscribes', async () => {
		const files = await open(freshName());
		const seen: (PersistProblem | null)[] = [];
		files.onPersistError(() => {
			throw new Error('broken listener');
		});
		const unsubscribe = files.onPersistError((problem) => seen.push(problem));
		const quota = simulateFullQuota();
		await files.write('a.txt', bytes('a'));
		await files.flush();
		expect(seen).toHaveLength(1);
		unsubscribe();
		quota.mockRestore();
		await files.flush();
		expect(seen).toHaveLength(1);
		expect(() => files.onPersistError('nope' as never)).toThrow(/listener/);
	});

	it('describes other storage failures with what to do', () => {
		const message = describePersistError(
			new DOMException('The database connection is closing.', 'InvalidStateError')
		);
		expect(message).toContain('InvalidStateError: The database connection is closing.');
		expect(message).toMatch(/kept in this tab only/);
		expect(message).toMatch(/export the workspace as a zip/i);
	});

	it('leaves out damaged records instead of failing to open', async () => {
		const name = freshName();
		await (await open(name, { initialFiles: async () => ({ 'good.txt': 'g' }) })).close();
		const database = await openDB(name);
		await database.put('entries', { path: 'bad.txt', kind: 'file', data: 'not bytes' });
		database.close();
		const reopened = await open(name);
		expect(reopened.skippedOnRestore).toBe(1);
		expect((await reopened.list('')).map((entry) => entry.name)).toEqual(['good.txt']);
	});

	it('says so, and keeps the data, when another tab takes the database away', async () => {
		const name = freshName();
		const files = await open(name);
		const problems: (PersistProblem | null)[] = [];
		files.onPersistError((problem) => problems.push(problem));
		await IndexedDbWorkspaceFiles.deleteDatabase(name);
		expect(problems[0]?.message).toMatch(/another tab/);
		await files.write('still.txt', bytes('here'));
		expect(text(await files.read('still.txt'))).toBe('here');
	});
});

describe('IndexedDbWorkspaceFiles extra stores and records', () => {
	const extraStores = ['records', 'blobs'];

	it('creates the extra stores, and adds them to an older database without losing its files', async () => {
		const name = freshName();
		// A database as the first version of this store left it: files, no extra stores.
		const old = await openDB(name, 1, {
			upgrade(database) {
				database.createObjectStore('entries', { keyPath: 'path' });
				database.createObjectStore('meta');
			}
		});
		await old.put('entries', { path: 'kept.txt', kind: 'file', data: bytes('kept') });
		await old.put('meta', { seededAt: 1 }, 'seeded');
		old.close();

		const files = await open(name, { extraStores });
		expect(files.restoredFrom).toBe('database');
		expect(text(await files.read('kept.txt'))).toBe('kept');
		expect(await files.readAll('records')).toEqual([]);
		await files.close();

		const peek = await openDB(name);
		expect(peek.version).toBe(2);
		expect([...peek.objectStoreNames].sort()).toEqual(['blobs', 'entries', 'meta', 'records']);
		peek.close();
		// A store that needs no extra stores still opens the upgraded database.
		const plain = await open(name);
		expect(text(await plain.read('kept.txt'))).toBe('kept');
	});

	it('storeApart stores records at once, outside the queue, and not over records still queued', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 60_000 });
		expect(await files.storeApart([{ store: 'records', key: 1, value: 'apart' }])).toBe(true);
		expect(await files.readAll('records')).toEqual([{ key: 1, value: 'apart' }]);
		// A record of the same store waits in the queue: stored later, it would land over these.
		files.queueRecords([{ store: 'records', key: 2, value: 'queued' }]);
		expect(await files.storeApart([{ store: 'records', key: 2, value: 'stale' }])).toBe(false);
		expect(await files.storeApart([{ store: 'blobs', key: 'b', value: 'other store' }])).toBe(true);
		await files.flush();
		expect(await files.readAll('records')).toEqual([
			{ key: 1, value: 'apart' },
			{ key: 2, value: 'queued' }
		]);
		// A value IndexedDB cannot store is a failure to report, not a throw into the caller.
		expect(await files.storeApart([{ store: 'records', key: 3, value: () => 1 }])).toBe(false);
		await files.close();
		expect(await files.storeApart([{ store: 'records', key: 4, value: 'closed' }])).toBe(false);
	});

	it('creates every store at once in a new database', async () => {
		const name = freshName();
		await (await open(name, { extraStores })).close();
		const peek = await openDB(name);
		expect(peek.version).toBe(1);
		expect([...peek.objectStoreNames].sort()).toEqual(['blobs', 'entries', 'meta', 'records']);
		peek.close();
	});

	it('replaceAll stores the files, clears stores and stores records in one transaction', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 60_000 });
		files.queueRecords([{ store: 'records', key: 'old', value: 'gone' }]);
		await files.flush();
		const readwrite: string[][] = [];
		const original = IDBDatabase.prototype.transaction;
		const spy = vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (
			this: IDBDatabase,
			stores,
			mode,
			options
		) {
			if (mode === 'readwrite') readwrite.push([...(Array.isArray(stores) ? stores : [stores])]);
			return original.call(this, stores, mode, options);
		});
		try {
			await files.replaceAll(
				{ 'imported.txt': 'i' },
				{ clearStores: ['records'], records: [{ store: 'records', key: 1, value: 'event' }] }
			);
		} finally {
			spy.mockRestore();
		}
		expect(readwrite).toHaveLength(1);
		expect(readwrite[0]).toEqual(expect.arrayContaining(['entries', 'records']));
		await files.close();
		const reopened = await open(name, { extraStores });
		expect([...reopened.snapshot().keys()]).toEqual(['imported.txt']);
		expect((await reopened.readAll('records')).map((record) => record.value)).toEqual(['event']);
	});

	it('replaceAll checks its records before replacing anything', async () => {
		const files = await open(freshName(), {
			extraStores,
			initialFiles: async () => ({ 'kept.txt': 'k' })
		});
		await expect(
			files.replaceAll({ 'new.txt': 'n' }, { records: [{ store: 'nope', key: 1, value: 1 }] })
		).rejects.toThrow(/not an extra store/);
		expect([...files.snapshot().keys()]).toEqual(['kept.txt']);
	});

	it('refuses bad extraStores with a clear message', async () => {
		await expect(open(freshName(), { extraStores: ['entries'] })).rejects.toThrow(/reserved/);
		await expect(open(freshName(), { extraStores: ['a', 'a'] })).rejects.toThrow(/twice/);
		await expect(open(freshName(), { extraStores: [''] })).rejects.toThrow(/non-empty/);
		await expect(open(freshName(), { extraStores: 'a' as never })).rejects.toThrow(/array/);
	});

	it('stores queued records and pending file writes in one readwrite transaction', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 60_000 });
		const transaction = vi.spyOn(globalThis.IDBDatabase.prototype, 'transaction');
		await files.write('a.txt', bytes('a'));
		files.queueRecords([
			{ store: 'records', key: 1, value: { note: 'one' } },
			{ store: 'blobs', key: 'sha256:x', value: bytes('blob') }
		]);
		await files.flush();
		const readwrite = transaction.mock.calls.filter((call) => call[1] === 'readwrite');
		expect(readwrite).toHaveLength(1);
		expect([...(readwrite[0]?.[0] as string[])].sort()).toEqual([
			'blobs',
			'entries',
			'meta',
			'records'
		]);
		transaction.mockRestore();

		const peek = await openDB(name);
		expect(await peek.get('records', 1)).toEqual({ note: 'one' });
		expect(text(await peek.get('blobs', 'sha256:x'))).toBe('blob');
		expect(await peek.get('entries', 'a.txt')).toMatchObject({ kind: 'file' });
		peek.close();
	});

	it('schedules a flush for queued records like for writes', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 1 });
		files.queueRecords([{ store: 'records', key: 'k', value: 'v' }]);
		await vi.waitFor(async () => {
			const peek = await openDB(name);
			const value = await peek.get('records', 'k');
			peek.close();
			expect(value).toBe('v');
		});
	});

	it('reads a store in key order, within a range, with queued records and deletions applied', async () => {
		const files = await open(freshName(), { extraStores, flushDelayMs: 60_000 });
		files.queueRecords([3, 1, 2, 10].map((key) => ({ store: 'records', key, value: `v${key}` })));
		await files.flush();
		files.queueRecords([
			{ store: 'records', key: 2, delete: true },
			{ store: 'records', key: 4, value: 'v4' },
			{ store: 'records', key: 1, value: 'v1, changed' },
			{ store: 'blobs', key: 'elsewhere', value: 'x' }
		]);
		expect(await files.readAll('records')).toEqual([
			{ key: 1, value: 'v1, changed' },
			{ key: 3, value: 'v3' },
			{ key: 4, value: 'v4' },
			{ key: 10, value: 'v10' }
		]);
		expect(await files.readAll('records', IDBKeyRange.lowerBound(3, true))).toEqual([
			{ key: 4, value: 'v4' },
			{ key: 10, value: 'v10' }
		]);
		expect(await files.readAll('records', IDBKeyRange.only(2))).toEqual([]);
	});

	it('sees records while a flush is storing them', async () => {
		const files = await open(freshName(), { extraStores, flushDelayMs: 60_000 });
		files.queueRecords([{ store: 'records', key: 'flying', value: 1 }]);
		const flushing = files.flush();
		expect(await files.readAll('records')).toEqual([{ key: 'flying', value: 1 }]);
		await flushing;
		expect(await files.readAll('records')).toEqual([{ key: 'flying', value: 1 }]);
	});

	it('refuses bad records and queues none of a refused call', async () => {
		const files = await open(freshName(), { extraStores, flushDelayMs: 60_000 });
		const good = { store: 'records', key: 1, value: 'good' };
		expect(() => files.queueRecords([good, { store: 'nope', key: 1, value: 1 }])).toThrow(
			/"nope" is not an extra store .*declared: records, blobs/
		);
		expect(() =>
			files.queueRecords([good, { store: 'records', key: {} as never, value: 1 }])
		).toThrow(/record 1 \(records\) has a key that is not a valid IndexedDB key/);
		expect(() =>
			files.queueRecords([good, { store: 'records', key: 2, value: () => undefined }])
		).toThrow(/cannot be stored in IndexedDB/);
		expect(() => files.queueRecords([good, { store: 'records', key: 3 } as never])).toThrow(
			/needs a value or delete: true/
		);
		expect(() => files.queueRecords('records' as never)).toThrow(/array/);
		expect(await files.readAll('records')).toEqual([]);
		await expect(files.readAll('nope')).rejects.toThrow(/not an extra store/);
		const plain = await open(freshName());
		expect(() => plain.queueRecords([good])).toThrow(/none were declared/);
	});

	it('stores a record as it was when queued', async () => {
		const files = await open(freshName(), { extraStores, flushDelayMs: 60_000 });
		const value = { count: 1 };
		files.queueRecords([{ store: 'records', key: 'copy', value }]);
		value.count = 2;
		await files.flush();
		expect(await files.readAll('records')).toEqual([{ key: 'copy', value: { count: 1 } }]);
	});

	it('stores neither the files nor the records when the transaction fails, and both later', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 60_000 });
		const problems: (PersistProblem | null)[] = [];
		files.onPersistError((problem) => problems.push(problem));
		const quota = simulateFullQuota();
		await files.write('together.txt', bytes('file'));
		files.queueRecords([{ store: 'records', key: 1, value: 'event for together.txt' }]);
		await files.flush();
		quota.mockRestore();
		expect(problems[0]?.message).toMatch(/full/);

		let peek = await openDB(name);
		expect(await peek.get('entries', 'together.txt')).toBeUndefined();
		expect(await peek.get('records', 1)).toBeUndefined();
		peek.close();
		// Nothing is lost: both are still there for this tab, and stored by the next flush.
		expect(await files.readAll('records')).toEqual([{ key: 1, value: 'event for together.txt' }]);
		files.queueRecords([{ store: 'records', key: 2, value: 'next' }]);
		await files.flush();
		expect(problems.at(-1)).toBeNull();
		peek = await openDB(name);
		expect(await peek.get('entries', 'together.txt')).toBeDefined();
		expect(await peek.getAll('records')).toEqual(['event for together.txt', 'next']);
		peek.close();
	});

	it('keeps a newer record over the failed older one for the same key', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 60_000 });
		const quota = simulateFullQuota();
		const failingPut = quota.getMockImplementation() as (...args: unknown[]) => IDBRequest;
		let queuedDuringFlush = false;
		quota.mockImplementation(function (this: IDBObjectStore, ...args: unknown[]) {
			// Queued while the failing transaction is under way.
			if (!queuedDuringFlush) {
				queuedDuringFlush = true;
				files.queueRecords([{ store: 'records', key: 'state', value: 'new' }]);
			}
			return failingPut.apply(this, args);
		});
		files.queueRecords([{ store: 'records', key: 'state', value: 'old' }]);
		await files.flush();
		expect(queuedDuringFlush).toBe(true);
		quota.mockRestore();
		await files.flush();
		await files.close();
		const peek = await openDB(name);
		expect(await peek.get('records', 'state')).toBe('new');
		peek.close();
	});

	it('holds storing back during a batch, so a timer never stores half of it', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 1 });
		const peek = await openDB(name);
		const result = await files.batch(async () => {
			await files.write('first.txt', bytes('1'));
			await new Promise((resolve) => setTimeout(resolve, 30));
			// The write-behind timer has fired by now, but nothing was stored.
			expect(await peek.get('entries', 'first.txt')).toBeUndefined();
			files.queueRecords([{ store: 'records', key: 1, value: 'record of first.txt' }]);
			return 'done';
		});
		expect(result).toBe('done');
		expect(await peek.get('entries', 'first.txt')).toBeDefined();
		expect(await peek.get('records', 1)).toBe('record of first.txt');
		peek.close();
	});

	it('stores a batch in one transaction, flushes what a failing batch left and rethrows', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 1 });
		const transaction = vi.spyOn(globalThis.IDBDatabase.prototype, 'transaction');
		await files.batch(async () => {
			for (let index = 0; index < 5; index += 1) {
				await files.write(`f${index}.txt`, bytes(String(index)));
				await new Promise((resolve) => setTimeout(resolve, 3));
				files.queueRecords([{ store: 'records', key: index, value: index }]);
			}
		});
		expect(transaction.mock.calls.filter((call) => call[1] === 'readwrite')).toHaveLength(1);
		transaction.mockRestore();

		await expect(
			files.batch(async () => {
				await files.write('partial.txt', bytes('p'));
				throw new Error('work failed');
			})
		).rejects.toThrow('work failed');
		const peek = await openDB(name);
		expect(await peek.get('entries', 'partial.txt')).toBeDefined();
		peek.close();
		await expect(files.batch('nope' as never)).rejects.toThrow(/function/);
	});

	it('lets a flush asked for during a batch wait for the batch, then store it all', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 60_000 });
		let releaseWork: () => void = () => undefined;
		const working = files.batch(async () => {
			await files.write('held.txt', bytes('h'));
			await new Promise<void>((resolve) => (releaseWork = resolve));
			files.queueRecords([{ store: 'records', key: 'held', value: true }]);
		});
		let flushed = false;
		const outsideFlush = files.flush().then(() => (flushed = true));
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(flushed).toBe(false);
		releaseWork();
		await Promise.all([working, outsideFlush]);
		const peek = await openDB(name);
		expect(await peek.get('entries', 'held.txt')).toBeDefined();
		expect(await peek.get('records', 'held')).toBe(true);
		peek.close();
	});

	it('empties chosen extra stores with a replacement, in the same transaction', async () => {
		const name = freshName();
		const files = await open(name, { extraStores, flushDelayMs: 60_000 });
		files.queueRecords([
			{ store: 'records', key: 1, value: 'stored' },
			{ store: 'blobs', key: 'b', value: 'kept' }
		]);
		await files.flush();
		files.queueRecords([{ store: 'records', key: 2, value: 'queued' }]);
		await expect(files.replaceAll({}, { clearStores: ['unknown'] })).rejects.toThrow(
			/not an extra store/
		);
		await files.replaceAll({ 'fresh.txt': 'fresh' }, { clearStores: ['records'] });
		files.queueRecords([{ store: 'records', key: 3, value: 'after' }]);
		await files.close();
		const reopened = await open(name, { extraStores });
		expect(await reopened.readAll('records')).toEqual([{ key: 3, value: 'after' }]);
		expect(await reopened.readAll('blobs')).toEqual([{ key: 'b', value: 'kept' }]);
		expect([...reopened.snapshot().keys()]).toEqual(['fresh.txt']);
	});
});
