import { deleteDB, openDB, unwrap, type DBSchema, type IDBPDatabase } from 'idb';
import {
	MemoryWorkspaceFiles,
	type InitialWorkspaceFiles,
	type MemoryWorkspaceEntry
} from './memory-workspace-files.js';
import type { WorkspaceEntry, WorkspaceEntryInfo, WorkspaceFiles } from './workspace-files.js';

/** A persistence failure, with what the person can do about it. */
export interface PersistProblem {
	error: unknown;
	/** A plain sentence for the page: what happened, that nothing is lost yet, what to do. */
	message: string;
}

export interface IndexedDbWorkspaceOpenOptions {
	/** The starting files when the database has never held this workspace (a scenario's files). */
	initialFiles?: () => Promise<InitialWorkspaceFiles>;
	/** How long writes gather before one transaction stores them; 20 ms by default. */
	flushDelayMs?: number;
	/**
	 * More object stores (out-of-line keys) for opaque records that must be stored atomically with
	 * the files (see `queueRecords`). A database that lacks one is upgraded to the next version,
	 * keeping its files.
	 */
	extraStores?: readonly string[];
}

/** An opaque record for one of the `extraStores`: a put, or a deletion. */
export type QueuedRecord =
	| { store: string; key: IDBValidKey; value: unknown }
	| { store: string; key: IDBValidKey; delete: true };

/** A record as `readAll` returns it. */
export interface StoredRecord {
	key: IDBValidKey;
	value: unknown;
}

type StoredEntry =
	{ path: string; kind: 'file'; data: Uint8Array } | { path: string; kind: 'directory' };

interface WorkspaceDatabase extends DBSchema {
	entries: { key: string; value: StoredEntry };
	meta: { key: string; value: { seededAt: number } };
}

const ownStores = ['entries', 'meta'] as const;
const seededKey = 'seeded';
const defaultFlushDelayMs = 20;

/** One database per workspace, e.g. per scenario id. */
export function workspaceDatabaseName(workspaceId: string): string {
	if (typeof workspaceId !== 'string' || workspaceId === '') {
		throw new TypeError('A workspace id must be a non-empty string');
	}
	return `threadline-workspace-${workspaceId}`;
}

/**
 * The browser's store of one workspace: an in-memory working copy (a MemoryWorkspaceFiles) that
 * answers every call at once, mirrored to IndexedDB write-behind. Writes never fail because of
 * IndexedDB: when storing fails (the quota is full, the database was closed) the memory copy keeps
 * the data, the paths stay pending for the next attempt, and `onPersistError` listeners hear what
 * happened and what to do; the next successful flush clears the problem (listeners get `null`).
 *
 * Entries are keyed by path; a folder is an entry of its own, so empty folders survive a reload.
 * `replaceAll` changes the store behind any sandbox built on it: build a new sandbox afterwards.
 *
 * Callers that must keep other data consistent with the files (a ledger) declare `extraStores`
 * and `queueRecords` into the same write-behind queue; `batch` makes a group of writes and records
 * one transaction. This store knows nothing of what the records mean.
 */
export class IndexedDbWorkspaceFiles implements WorkspaceFiles {
	private memory: MemoryWorkspaceFiles;
	private readonly pending = new Set<string>();
	private rewriteAll = false;
	private flushing: Promise<void> = Promise.resolve();
	private flushTimer: ReturnType<typeof setTimeout> | undefined;
	private problem: PersistProblem | null = null;
	private readonly listeners = new Set<(problem: PersistProblem | null) => void>();
	private closed = false;
	/** Records waiting for the next flush, and those the running flush is storing. */
	private pendingRecords = new RecordQueue();
	private inFlightRecords: RecordQueue | null = null;
	/** Open `batch` calls; while any is open, nothing is stored (see `batch`). */
	private holds = 0;
	private holdsReleased: Promise<void> = Promise.resolve();
	private releaseHolds: () => void = () => undefined;

	private constructor(
		readonly name: string,
		private readonly database: IDBPDatabase<WorkspaceDatabase>,
		memory: MemoryWorkspaceFiles,
		/** Where the content came from when opened. */
		readonly restoredFrom: 'database' | 'initial-files' | 'empty',
		/** Stored records that were not valid entries and were left out (a damaged database). */
		readonly skippedOnRestore: number,
		private readonly flushDelayMs: number,
		/** The `extraStores` this database was opened with. */
		readonly extraStores: readonly string[]
	) {
		this.memory = memory;
	}

	/**
	 * Opens (or creates) the workspace's database and loads everything in one readonly
	 * transaction. A database that never held this workspace is seeded from `initialFiles`.
	 */
	static async open(
		name: string,
		options: IndexedDbWorkspaceOpenOptions = {}
	): Promise<IndexedDbWorkspaceFiles> {
		if (typeof name !== 'string' || name === '') {
			throw new TypeError('IndexedDbWorkspaceFiles.open needs a database name');
		}
		const flushDelayMs = options.flushDelayMs ?? defaultFlushDelayMs;
		const extraStores = checkExtraStores(options.extraStores);
		let opened: IndexedDbWorkspaceFiles | undefined;
		const database = await openWithStores(name, [...ownStores, ...extraStores], {
			// Another tab wants to upgrade or delete this database: let it, and say so here.
			blocking(connection) {
				connection.close();
				opened?.markClosed('another tab replaced this workspace’s saved copy');
			},
			terminated() {
				opened?.markClosed('the browser closed the connection to its storage');
			}
		});

		const transaction = database.transaction(['entries', 'meta'], 'readonly');
		const [records, seeded] = await Promise.all([
			transaction.objectStore('entries').getAll(),
			transaction.objectStore('meta').get(seededKey),
			transaction.done
		]);

		if (seeded) {
			const valid = records.filter(isStoredEntry);
			const memory = MemoryWorkspaceFiles.fromEntries(valid);
			opened = new IndexedDbWorkspaceFiles(
				name,
				database,
				memory,
				'database',
				records.length - valid.length,
				flushDelayMs,
				extraStores
			);
			return opened;
		}
		const initial = options.initialFiles ? await options.initialFiles() : undefined;
		opened = new IndexedDbWorkspaceFiles(
			name,
			database,
			new MemoryWorkspaceFiles(initial ?? {}),
			initial ? 'initial-files' : 'empty',
			0,
			flushDelayMs,
			extraStores
		);
		opened.rewriteAll = true;
		await opened.flush();
		return opened;
	}

	/** Deletes a workspace's database (e.g. before importing a zip under the same id). */
	static async deleteDatabase(name: string): Promise<void> {
		await deleteDB(name);
	}

	stat(path: string): Promise<WorkspaceEntryInfo | null> {
		return this.memory.stat(path);
	}

	read(path: string): Promise<Uint8Array> {
		return this.memory.read(path);
	}

	list(path: string): Promise<WorkspaceEntry[]> {
		return this.memory.list(path);
	}

	async write(path: string, data: Uint8Array): Promise<void> {
		await this.memory.write(path, data);
		this.markPending(path);
	}

	async delete(path: string): Promise<void> {
		await this.memory.delete(path);
		this.markPending(path);
	}

	async makeDirectory(path: string): Promise<void> {
		await this.memory.makeDirectory(path);
		this.markPending(path);
	}

	/** Every file's bytes (copies) by path, in tree order: zip export. */
	snapshot(): Map<string, Uint8Array> {
		return this.memory.snapshot();
	}

	/**
	 * Replaces the whole workspace ("Reset scenario", zip import) and stores it. `clearStores`
	 * (extra stores) are emptied in the same transaction, with any of their records still queued.
	 */
	/**
	 * Replaces every file, clears `clearStores` and stores `records`, all in one transaction: an
	 * import's files and its ledger land together or not at all (a reload between the two must
	 * never leave imported files under an empty history).
	 */
	async replaceAll(
		files: InitialWorkspaceFiles,
		options: { clearStores?: readonly string[]; records?: readonly QueuedRecord[] } = {}
	): Promise<void> {
		// Checked and built first: a bad argument throws before anything is replaced.
		const clearStores = [...(options.clearStores ?? [])];
		for (const store of clearStores) this.assertExtraStore(store, 'replaceAll');
		const records = (options.records ?? []).map((record, position) =>
			this.checkRecord(record, position)
		);
		const next = new MemoryWorkspaceFiles(files);
		this.memory = next;
		this.pending.clear();
		this.rewriteAll = true;
		for (const store of clearStores) this.pendingRecords.clear(store);
		for (const record of records) this.pendingRecords.add(record);
		await this.flush();
	}

	/**
	 * Queues records for extra stores into the write-behind queue that file writes use, so one
	 * flush stores pending files and records in one readwrite transaction (all or nothing). Values
	 * are copied now (structured clone), so later changes to them are not stored. Throws, queueing
	 * nothing, when a store was not declared, a key is not a valid IndexedDB key or a value cannot
	 * be cloned. A later record for the same store and key replaces an earlier one.
	 */
	queueRecords(records: readonly QueuedRecord[]): void {
		if (!Array.isArray(records)) throw new TypeError('queueRecords expects an array of records');
		const checked = records.map((record, position) => this.checkRecord(record, position));
		for (const record of checked) this.pendingRecords.add(record);
		if (checked.length > 0) this.scheduleFlush();
	}

	/**
	 * Stores records in a readwrite transaction of their own, started now, outside the write-behind
	 * queue: for optional work (the ledger merging small runs of events) whose failure, a full
	 * quota say, must not be retried in front of every later write. Resolves false when nothing
	 * was stored (also when records of the same stores wait in the queue, which would be stored
	 * after these); nothing is kept for another attempt. Throws, as queueRecords does, on a record
	 * that is not a record.
	 */
	async storeApart(records: readonly QueuedRecord[]): Promise<boolean> {
		if (!Array.isArray(records)) throw new TypeError('storeApart expects an array of records');
		const queue = new RecordQueue();
		// Not copied: the transaction below takes its copies now, in this same call.
		for (const [position, record] of records.entries()) {
			queue.add(this.checkRecord(record, position, { copy: false }));
		}
		if (queue.isEmpty()) return true;
		if (this.closed) return false;
		// Records of these stores still to be stored would be written after these, over them.
		const waiting = [this.pendingRecords, this.inFlightRecords];
		if (queue.storeNames().some((store) => waiting.some((other) => other?.touches(store)))) {
			return false;
		}
		try {
			const database = this.database as unknown as IDBPDatabase;
			const wrapped = database.transaction(queue.storeNames(), 'readwrite');
			const transaction = unwrap(wrapped);
			queue.writeTo((store) => transaction.objectStore(store));
			await wrapped.done;
			return true;
		} catch {
			return false;
		}
	}

	/**
	 * Every record of an extra store (in key order, within `range` when given) as it will be once
	 * everything queued is stored: what the database holds, with queued records applied on top.
	 */
	async readAll(store: string, range?: IDBKeyRange): Promise<StoredRecord[]> {
		this.assertExtraStore(store, 'readAll');
		const database = this.database as unknown as IDBPDatabase;
		const transaction = database.transaction(store, 'readonly');
		const [keys, values] = await Promise.all([
			transaction.store.getAllKeys(range),
			transaction.store.getAll(range),
			transaction.done
		]);
		const queues = [this.inFlightRecords, this.pendingRecords];
		if (!queues.some((queue) => queue?.touches(store))) {
			// Nothing queued for this store: the database's key order is the answer (a ledger of 100k
			// events would otherwise be re-keyed and re-sorted on every open).
			return keys.map((key, position) => ({ key, value: values[position] }));
		}
		const byKey = new Map<string, StoredRecord>();
		keys.forEach((key, position) => {
			byKey.set(encodeKey(key), { key, value: values[position] });
		});
		const inRange = (key: IDBValidKey) => range === undefined || range.includes(key);
		for (const queue of queues) {
			queue?.applyTo(store, byKey, inRange);
		}
		return [...byKey.values()].sort((left, right) => indexedDB.cmp(left.key, right.key));
	}

	/**
	 * The records of an extra store with these keys, read in one transaction (missing keys left
	 * out), as they will be once everything queued is stored. One read for many records: a
	 * checkpoint restore asks for a thousand contents at once.
	 */
	async readKeys(store: string, keys: readonly IDBValidKey[]): Promise<StoredRecord[]> {
		this.assertExtraStore(store, 'readKeys');
		const database = this.database as unknown as IDBPDatabase;
		const wrapped = database.transaction(store, 'readonly');
		// Raw requests with a callback each rather than a promise each: a checkpoint restore reads
		// a thousand contents here, and the promises were most of the main thread's time.
		const objectStore = unwrap(wrapped).objectStore(store);
		const values: unknown[] = new Array<unknown>(keys.length);
		keys.forEach((key, position) => {
			const request = objectStore.get(key);
			request.onsuccess = () => {
				values[position] = request.result;
			};
		});
		await wrapped.done;
		const byKey = new Map<string, StoredRecord>();
		keys.forEach((key, position) => {
			if (values[position] !== undefined)
				byKey.set(encodeKey(key), { key, value: values[position] });
		});
		const wanted = new Set(keys.map((key) => encodeKey(key)));
		for (const queue of [this.inFlightRecords, this.pendingRecords]) {
			queue?.applyTo(store, byKey, (key) => wanted.has(encodeKey(key)));
		}
		return [...byKey.values()];
	}

	/**
	 * Runs `work` with storing held back, then flushes once: every file write `work` made and every
	 * record it queued land in one transaction, even when a timer would have stored a part of them
	 * earlier. Writes made by others meanwhile ride along. Resolves (or rejects with `work`'s
	 * error) after that flush, which never rejects itself: a storage failure keeps everything
	 * pending and goes to `onPersistError`. `work` must not await `flush()`, `close()`,
	 * `replaceAll()` or another `batch()` of this store: those wait for `work` to end.
	 */
	async batch<Result>(work: () => Promise<Result>): Promise<Result> {
		if (typeof work !== 'function') throw new TypeError('batch expects a function');
		this.hold();
		try {
			return await work();
		} finally {
			this.release();
			await this.flush();
		}
	}

	/** Stores everything written so far. Never rejects: failures go to `onPersistError`. */
	flush(): Promise<void> {
		if (this.flushTimer !== undefined) {
			clearTimeout(this.flushTimer);
			this.flushTimer = undefined;
		}
		this.flushing = this.flushing.then(() => this.storePending());
		return this.flushing;
	}

	/** The current persistence problem, or null when everything written is stored. */
	get persistProblem(): PersistProblem | null {
		return this.problem;
	}

	/** Hears each persistence failure, and `null` once storing works again. Returns an unsubscribe. */
	onPersistError(listener: (problem: PersistProblem | null) => void): () => void {
		if (typeof listener !== 'function') {
			throw new TypeError('onPersistError expects a listener function');
		}
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}

	/** Stores what is pending, then closes the database; later writes stay in memory only. */
	async close(): Promise<void> {
		if (this.closed) return;
		await this.flush();
		this.closed = true;
		this.database.close();
	}

	private markPending(path: string): void {
		this.pending.add(path);
		this.scheduleFlush();
	}

	private scheduleFlush(): void {
		if (this.flushTimer === undefined && !this.closed) {
			this.flushTimer = setTimeout(() => {
				this.flushTimer = undefined;
				void this.flush();
			}, this.flushDelayMs);
		}
	}

	private async storePending(): Promise<void> {
		// A batch is under way: store its writes and records together once it ends.
		while (this.holds > 0) await this.holdsReleased;
		if (this.closed) return;
		if (!this.rewriteAll && this.pending.size === 0 && this.pendingRecords.isEmpty()) return;
		const paths = [...this.pending];
		const everything = this.rewriteAll;
		const records = this.pendingRecords;
		this.pending.clear();
		this.rewriteAll = false;
		this.pendingRecords = new RecordQueue();
		this.inFlightRecords = records;
		try {
			await this.store(everything, paths, records);
			this.report(null);
		} catch (error) {
			// Kept for the next attempt: the memory copy still has the data.
			if (everything) this.rewriteAll = true;
			for (const path of paths) this.pending.add(path);
			this.pendingRecords = records.followedBy(this.pendingRecords);
			this.report({ error, message: describePersistError(error) });
		} finally {
			this.inFlightRecords = null;
		}
	}

	private async store(everything: boolean, paths: string[], records: RecordQueue): Promise<void> {
		const database = this.database as unknown as IDBPDatabase;
		const wrapped = database.transaction([...ownStores, ...records.storeNames()], 'readwrite');
		// The requests are made on the raw transaction: a checkpoint restore issues thousands, and a
		// promise per request (idb's wrapper) is most of their cost on the main thread. A failed
		// request aborts the transaction, so its completion alone says whether everything stored.
		const transaction = unwrap(wrapped);
		const entries = transaction.objectStore('entries');
		try {
			if (everything) {
				entries.clear();
				for (const entry of this.memory.allEntries()) entries.put(toStored(entry));
				transaction.objectStore('meta').put({ seededAt: Date.now() }, seededKey);
			} else {
				for (const path of paths) {
					const entry = this.memory.entryAt(path);
					if (entry) entries.put(toStored(entry));
					else entries.delete(path);
				}
			}
			records.writeTo((store) => transaction.objectStore(store));
		} catch (error) {
			// A request refused on the spot (e.g. a closed database): nothing of this batch commits.
			try {
				transaction.abort();
			} catch {
				// Already finished or aborted.
			}
			await wrapped.done.catch(() => undefined);
			throw error;
		}
		try {
			await wrapped.done;
		} catch (error) {
			// When the commit fails (a full quota), the transaction's own error says why.
			throw transaction.error ?? error;
		}
	}

	private hold(): void {
		if (this.holds === 0) {
			this.holdsReleased = new Promise((resolve) => {
				this.releaseHolds = resolve;
			});
		}
		this.holds += 1;
	}

	private release(): void {
		this.holds -= 1;
		if (this.holds === 0) this.releaseHolds();
	}

	private assertExtraStore(store: string, caller: string): void {
		if (!this.extraStores.includes(store)) {
			const declared = this.extraStores.length
				? `declared: ${this.extraStores.join(', ')}`
				: 'none were declared';
			throw new TypeError(
				`${caller}: "${String(store)}" is not an extra store of ${this.name} (${declared}; pass it in extraStores when opening)`
			);
		}
	}

	private checkRecord(
		record: QueuedRecord,
		position: number,
		{ copy = true }: { copy?: boolean } = {}
	): QueuedOperation {
		if (typeof record !== 'object' || record === null) {
			throw new TypeError(`queueRecords: record ${position} is not an object`);
		}
		this.assertExtraStore(record.store, 'queueRecords');
		try {
			indexedDB.cmp(record.key, record.key);
		} catch {
			throw new TypeError(
				`queueRecords: record ${position} (${record.store}) has a key that is not a valid IndexedDB key`
			);
		}
		if ('delete' in record && record.delete === true) {
			return { store: record.store, key: record.key, kind: 'delete' };
		}
		if (!('value' in record)) {
			throw new TypeError(
				`queueRecords: record ${position} (${record.store}) needs a value or delete: true`
			);
		}
		if (!copy) return { store: record.store, key: record.key, kind: 'put', value: record.value };
		let value: unknown;
		try {
			value = structuredClone(record.value);
		} catch (error) {
			throw new TypeError(
				`queueRecords: the value of record ${position} (${record.store}) cannot be stored in IndexedDB (${error instanceof Error ? error.message : String(error)})`,
				{ cause: error }
			);
		}
		return { store: record.store, key: record.key, kind: 'put', value };
	}

	private report(problem: PersistProblem | null): void {
		if (problem === null && this.problem === null) return;
		this.problem = problem;
		for (const listener of [...this.listeners]) {
			try {
				listener(problem);
			} catch {
				// One broken listener must not hide the problem from the others.
			}
		}
	}

	private markClosed(reason: string): void {
		this.closed = true;
		const error = new Error(`The workspace's storage was closed: ${reason}`);
		this.report({
			error,
			message:
				`Saving stopped because ${reason}. Your latest changes are kept in this tab only: ` +
				'export the workspace as a zip to keep them, then reload the page.'
		});
	}
}

type QueuedOperation =
	| { store: string; key: IDBValidKey; kind: 'put'; value: unknown }
	| { store: string; key: IDBValidKey; kind: 'delete' };

interface QueuedStore {
	/** Empty the store before writing `operations`. */
	cleared: boolean;
	/** By encoded key; one operation per key, the latest. */
	operations: Map<string, QueuedOperation>;
}

/** Records waiting to be stored, per extra store: at most one operation per key. */
class RecordQueue {
	private readonly stores = new Map<string, QueuedStore>();

	add(operation: QueuedOperation): void {
		const queued = this.storeOf(operation.store);
		const key = encodeKey(operation.key);
		queued.operations.delete(key);
		queued.operations.set(key, operation);
	}

	clear(store: string): void {
		this.stores.set(store, { cleared: true, operations: new Map() });
	}

	isEmpty(): boolean {
		return this.stores.size === 0;
	}

	storeNames(): string[] {
		return [...this.stores.keys()];
	}

	/** This (older, failed) queue with `newer` applied after it, for the next attempt. */
	followedBy(newer: RecordQueue): RecordQueue {
		const merged = new RecordQueue();
		for (const [name, older] of this.stores) {
			merged.stores.set(name, { cleared: older.cleared, operations: new Map(older.operations) });
		}
		for (const [name, later] of newer.stores) {
			if (later.cleared) {
				merged.stores.set(name, { cleared: true, operations: new Map(later.operations) });
				continue;
			}
			const target = merged.storeOf(name);
			for (const [key, operation] of later.operations) {
				target.operations.delete(key);
				target.operations.set(key, operation);
			}
		}
		return merged;
	}

	/** Whether this queue holds anything for `store`. */
	touches(store: string): boolean {
		return this.stores.has(store);
	}

	/** Applies this queue's view of `store` to records read from the database. */
	applyTo(
		store: string,
		records: Map<string, StoredRecord>,
		inRange: (key: IDBValidKey) => boolean
	): void {
		const queued = this.stores.get(store);
		if (!queued) return;
		if (queued.cleared) records.clear();
		for (const [key, operation] of queued.operations) {
			if (operation.kind === 'delete') records.delete(key);
			else if (inRange(operation.key)) {
				records.set(key, { key: operation.key, value: structuredClone(operation.value) });
			}
		}
	}

	/** Issues every queued operation on the transaction's stores (raw IndexedDB requests). */
	writeTo(objectStore: (name: string) => IDBObjectStore): void {
		for (const [name, queued] of this.stores) {
			const target = objectStore(name);
			if (queued.cleared) target.clear();
			for (const operation of queued.operations.values()) {
				if (operation.kind === 'put') target.put(operation.value, operation.key);
				else target.delete(operation.key);
			}
		}
	}

	private storeOf(name: string): QueuedStore {
		let queued = this.stores.get(name);
		if (!queued) {
			queued = { cleared: false, operations: new Map() };
			this.stores.set(name, queued);
		}
		return queued;
	}
}

/** A string equal for equal IndexedDB keys (numbers, strings, dates, binary, arrays of these). */
function encodeKey(key: IDBValidKey): string {
	if (typeof key === 'number') return `n:${key}`;
	if (typeof key === 'string') return `s:${key}`;
	if (key instanceof Date) return `d:${key.getTime()}`;
	if (Array.isArray(key)) return `a:[${key.map((part) => encodeKey(part)).join(',')}]`;
	const bytes = ArrayBuffer.isView(key)
		? new Uint8Array(key.buffer, key.byteOffset, key.byteLength)
		: new Uint8Array(key);
	return `b:${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function checkExtraStores(stores: readonly string[] | undefined): string[] {
	if (stores === undefined) return [];
	if (!Array.isArray(stores)) throw new TypeError('extraStores must be an array of store names');
	const seen = new Set<string>();
	for (const store of stores) {
		if (typeof store !== 'string' || store === '') {
			throw new TypeError('extraStores: every store name must be a non-empty string');
		}
		if ((ownStores as readonly string[]).includes(store)) {
			throw new TypeError(`extraStores: "${store}" is reserved for the workspace's own files`);
		}
		if (seen.has(store)) throw new TypeError(`extraStores: "${store}" is listed twice`);
		seen.add(store);
	}
	return [...seen];
}

/**
 * Opens the database at its current version and, when a required store is missing (a database
 * made before that store existed), reopens it at the next version to add it; existing stores and
 * their data are kept.
 */
async function openWithStores(
	name: string,
	required: readonly string[],
	callbacks: { blocking(connection: IDBPDatabase): void; terminated(): void }
): Promise<IDBPDatabase<WorkspaceDatabase>> {
	let version: number | undefined;
	// Two attempts are enough; a third covers another tab upgrading between them.
	for (let attempt = 0; attempt < 3; attempt += 1) {
		const database: IDBPDatabase = await openDB(name, version, {
			upgrade(upgrading) {
				for (const store of required) {
					if (upgrading.objectStoreNames.contains(store)) continue;
					if (store === 'entries') upgrading.createObjectStore('entries', { keyPath: 'path' });
					else upgrading.createObjectStore(store);
				}
			},
			blocking() {
				callbacks.blocking(database);
			},
			terminated() {
				callbacks.terminated();
			}
		});
		const missing = required.filter((store) => !database.objectStoreNames.contains(store));
		if (missing.length === 0) return database as unknown as IDBPDatabase<WorkspaceDatabase>;
		version = database.version + 1;
		database.close();
	}
	throw new Error(`Could not add the missing object stores to the database ${name}`);
}

function toStored(entry: MemoryWorkspaceEntry): StoredEntry {
	return entry.kind === 'file'
		? { path: entry.path, kind: 'file', data: entry.data }
		: { path: entry.path, kind: 'directory' };
}

function isStoredEntry(value: unknown): value is StoredEntry {
	if (typeof value !== 'object' || value === null) return false;
	const record = value as { path?: unknown; kind?: unknown; data?: unknown };
	if (typeof record.path !== 'string' || record.path === '') return false;
	if (record.kind === 'directory') return true;
	return record.kind === 'file' && record.data instanceof Uint8Array;
}

function errorName(error: unknown): string {
	if (typeof error === 'object' && error !== null && 'name' in error) {
		return String((error as { name: unknown }).name);
	}
	return '';
}

/** What the person reads: what happened, that the tab still has the data, what to do. */
export function describePersistError(error: unknown): string {
	if (errorName(error) === 'QuotaExceededError') {
		return (
			"The browser's storage for this site is full, so your latest changes are kept in this tab " +
			'only and will be lost when it closes. Free up space (remove other workspaces, or this ' +
			"site's data in the browser settings) or export the workspace as a zip to keep your work. " +
			'Saving is tried again with your next change.'
		);
	}
	const name = errorName(error);
	const message =
		typeof error === 'object' && error !== null && 'message' in error
			? String((error as { message: unknown }).message)
			: String(error);
	const detail =
		name && message && !message.startsWith(name) ? `${name}: ${message}` : message || name;
	return (
		`Your latest changes could not be saved in the browser's storage (${detail}), so they are ` +
		'kept in this tab only for now. Export the workspace as a zip to keep your work; saving is ' +
		'tried again with your next change.'
	);
}
