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
