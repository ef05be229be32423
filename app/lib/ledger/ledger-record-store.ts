import type {
	QueuedRecord,
	StoredRecord
} from '../../../sandbox/local/indexeddb-workspace-files.js';

/** The object stores the ledger adds to a workspace's database (pass them as `extraStores`). */
export const ledgerStores = {
	/** Sealed events, keyed by `seq`. */
	events: 'ledger-events',
	/** File contents, keyed by their `sha256:` hash: the before and after of each change. */
	blobs: 'ledger-blobs',
	/** Per-scenario state (agent sessions, remembered approvals), keyed by name. */
	state: 'ledger-state'
} as const;

export const ledgerStoreNames: readonly string[] = Object.values(ledgerStores);

/**
 * What the ledger needs from the workspace's store (IndexedDbWorkspaceFiles provides it): records
 * queued into the same write-behind queue as file writes, and `batch` to store a group of file
 * writes and records in one transaction. Files are read here too (the store is the authority),
 * but always written through the sandbox's fs so the sandbox's replica follows.
 */
export interface LedgerRecordStore {
	/** The database's name, so a Worker can read the ledger itself (verify after an open). */
	readonly name?: string;
	/** Stores everything queued (never rejects); the Worker then finds every event in the database. */
	flush?(): Promise<void>;
	queueRecords(records: readonly QueuedRecord[]): void;
	/** Records stored in a transaction of their own, now; false when that failed (not retried). */
	storeApart?(records: readonly QueuedRecord[]): Promise<boolean>;
	readAll(store: string, range?: IDBKeyRange): Promise<StoredRecord[]>;
	/** Many records by key in one read (missing ones left out); `readAll` per key without it. */
	readKeys?(store: string, keys: readonly IDBValidKey[]): Promise<StoredRecord[]>;
	batch<Result>(work: () => Promise<Result>): Promise<Result>;
	/** Files replaced, stores cleared and `records` stored in one transaction. */
	replaceAll(
		files: Record<string, string | Uint8Array>,
		options?: { clearStores?: readonly string[]; records?: readonly QueuedRecord[] }
	): Promise<void>;
	read(path: string): Promise<Uint8Array>;
}
