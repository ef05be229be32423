import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
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
}

type StoredEntry =
	{ path: string; kind: 'file'; data: Uint8Array } | { path: string; kind: 'directory' };

interface WorkspaceDatabase extends DBSchema {
	entries: { key: string; value: StoredEntry };
	meta: { key: string; value: { seededAt: number } };
}

const databaseVersion = 1;
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

	private constructor(
		readonly name: string,
		private readonly database: IDBPDatabase<WorkspaceDatabase>,
		memory: MemoryWorkspaceFiles,
		/** Where the content came from when opened. */
		readonly restoredFrom: 'database' | 'initial-files' | 'empty',
		/** Stored records that were not valid entries and were left out (a damaged database). */
		readonly skippedOnRestore: number,
		private readonly flushDelayMs: number
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
		let opened: IndexedDbWorkspaceFiles | undefined;
		const database = await openDB<WorkspaceDatabase>(name, databaseVersion, {
			upgrade(upgrading) {
				if (!upgrading.objectStoreNames.contains('entries')) {
					upgrading.createObjectStore('entries', { keyPath: 'path' });
				}
				if (!upgrading.objectStoreNames.contains('meta')) upgrading.createObjectStore('meta');
			},
			// Another tab wants to upgrade or delete this database: let it, and say so here.
			blocking() {
				database.close();
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
				flushDelayMs
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
			flushDelayMs
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

	/** Replaces the whole workspace ("Reset scenario", zip import) and stores it. */
	async replaceAll(files: InitialWorkspaceFiles): Promise<void> {
		// Built first: invalid paths throw before anything is replaced.
		const next = new MemoryWorkspaceFiles(files);
		this.memory = next;
		this.pending.clear();
		this.rewriteAll = true;
		await this.flush();
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
		if (this.flushTimer === undefined && !this.closed) {
			this.flushTimer = setTimeout(() => {
				this.flushTimer = undefined;
				void this.flush();
			}, this.flushDelayMs);
		}
	}

	private async storePending(): Promise<void> {
		if (this.closed || (!this.rewriteAll && this.pending.size === 0)) return;
		const paths = [...this.pending];
		const everything = this.rewriteAll;
		this.pending.clear();
		this.rewriteAll = false;
		try {
			await this.store(everything, paths);
			this.report(null);
		} catch (error) {
			// Kept for the next attempt: the memory copy still has the data.
			if (everything) this.rewriteAll = true;
			for (const path of paths) this.pending.add(path);
			this.report({ error, message: describePersistError(error) });
		}
	}

	private async store(everything: boolean, paths: string[]): Promise<void> {
		const transaction = this.database.transaction(['entries', 'meta'], 'readwrite');
		const entries = transaction.objectStore('entries');
		const requests: Promise<unknown>[] = [];
		try {
			if (everything) {
				requests.push(entries.clear());
				for (const entry of this.memory.allEntries()) requests.push(entries.put(toStored(entry)));
				requests.push(transaction.objectStore('meta').put({ seededAt: Date.now() }, seededKey));
			} else {
				for (const path of paths) {
					const entry = this.memory.entryAt(path);
					requests.push(entry ? entries.put(toStored(entry)) : entries.delete(path));
				}
			}
		} catch (error) {
			// A request refused on the spot (e.g. a closed database): nothing of this batch commits.
			try {
				transaction.abort();
			} catch {
				// Already finished or aborted.
			}
			await Promise.allSettled([...requests, transaction.done]);
			throw error;
		}
		const results = await Promise.allSettled([...requests, transaction.done]);
		const failed = results.find((result) => result.status === 'rejected');
		// When the commit fails (a full quota), each request only says "AbortError": the
		// transaction's own error says why.
		if (failed) throw transaction.error ?? failed.reason;
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
