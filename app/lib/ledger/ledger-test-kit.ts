/**
 * Set-up shared by the ledger's tests (Node with fake-indexeddb, and Chromium): a workspace store
 * with the ledger's stores, and the real pipeline writing through a sandbox-like fs over it.
 * Only tests import this file.
 */
import { openDB } from 'idb';
import { afterEach } from 'vitest';
import { createToolPipeline } from '../../../hooks/pipeline/create-tool-pipeline.js';
import { GovernanceState } from '../../../hooks/pipeline/governance-state.js';
import {
	fixedClock,
	intentsFixture,
	sequentialIds
} from '../../../hooks/pipeline/pipeline-test-kit.js';
import type {
	CommandRunner,
	EntryChange,
	ExecOptions,
	ExecResult,
	FileChange
} from '../../../hooks/tools/sandbox-ports.js';
import {
	IndexedDbWorkspaceFiles,
	type StoredRecord,
	type IndexedDbWorkspaceOpenOptions
} from '../../../sandbox/local/indexeddb-workspace-files.js';
import { WorkspaceFileSystem } from '../../../sandbox/local/workspace-file-system.js';
import { IndexedDbLedger } from './indexeddb-ledger.js';
import { ledgerStoreNames, ledgerStores, type LedgerRecordStore } from './ledger-record-store.js';
import type { LedgerEvent, LedgerEventDraft } from '../../../hooks/ledger/ledger-event.js';
import {
	buildMutationDraft,
	fixtureUuid,
	steppingClock
} from '../../../hooks/ledger/ledger-test-fixtures.js';

export const bytes = (text: string) => new TextEncoder().encode(text);
export const text = (data: Uint8Array | null | undefined) =>
	data ? new TextDecoder().decode(data) : null;

/** A lesson event to append: the smallest draft, for tests that need many events. */
export const lesson = (text: string): LedgerEventDraft => ({
	type: 'lesson-record',
	session_id: 'builder',
	intent_id: null,
	lesson: text,
	category: 'test',
	source: 'agent'
});

let databaseCounter = 0;

export function freshDatabaseName(): string {
	databaseCounter += 1;
	return `threadline-ledger-test-${Date.now()}-${databaseCounter}-${Math.random().toString(36).slice(2)}`;
}

export function openLedgerStore(
	name: string,
	options: IndexedDbWorkspaceOpenOptions = {}
): Promise<IndexedDbWorkspaceFiles> {
	return IndexedDbWorkspaceFiles.open(name, {
		flushDelayMs: 1,
		...options,
		extraStores: ledgerStoreNames
	});
}

/** Plays a shell: writes straight to the store (as the Worker's results are) and reports changes. */
export class StoreShell implements CommandRunner {
	private readonly files: WorkspaceFileSystem;

	constructor(
		store: IndexedDbWorkspaceFiles,
		private readonly script: Record<string, Record<string, string>> = {}
	) {
		this.files = new WorkspaceFileSystem(store);
	}

	/** A transaction like the real sandboxes: the scripted writes are applied only on commit. */
	async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
		const entries: EntryChange[] = [];
		for (const [path, content] of Object.entries(this.script[command] ?? {})) {
			const before = (await this.files.stat(path)) ? await this.files.readFile(path) : null;
			entries.push({
				path,
				before: before ? { kind: 'file', data: before } : { kind: 'absent' },
				after: { kind: 'file', data: bytes(content) }
			});
		}
		const changes: FileChange[] = [];
		const commit = async (paths: readonly string[]) => {
			for (const entry of entries) {
				if (!paths.includes(entry.path) || entry.after.kind !== 'file') continue;
				const before = entry.before.kind === 'file' ? entry.before.data : null;
				await this.files.writeFile(entry.path, entry.after.data);
				changes.push({
					path: entry.path,
					type: before ? 'modified' : 'created',
					before,
					after: entry.after.data
				});
			}
		};
		if (options.review) await options.review({ entries, commit });
		else await commit(entries.map((entry) => entry.path));
		return { exitCode: 0, output: '', changes, interrupted: false };
	}
}

/** The real pipeline over the store, committing through the ledger as the page does. */
export function governedPipeline(
	store: IndexedDbWorkspaceFiles,
	ledger: IndexedDbLedger,
	commands: Record<string, Record<string, string>> = {}
) {
	const fs = new WorkspaceFileSystem(store);
	const state = new GovernanceState({ intentsYaml: intentsFixture, approvalPolicy: 'never' });
	const pipeline = createToolPipeline({
		state,
		fs,
		runner: new StoreShell(store, commands),
		capabilities: { kind: 'local', description: 'test shell', commands: ['ls'] },
		ledger,
		commit: ledger.commitThrough(fs),
		approvals: { request: async () => ({ approved: true }) },
		clock: fixedClock,
		scheduler: { delay: () => new Promise(() => undefined) },
		ids: sequentialIds(),
		toolVersion: '0.1.0-test'
	});
	let callNumber = 0;
	const call = (tool: string, input: unknown, sessionId = 'builder') =>
		pipeline.run({ sessionId, toolCallId: `call-${++callNumber}`, tool, input });
	return { pipeline, fs, state, call };
}

/** The store's files as a Map, for verify. */
export function workspaceFiles(store: IndexedDbWorkspaceFiles): Map<string, Uint8Array> {
	return store.snapshot();
}

/**
 * Changes the stored event `seq` in place, in whichever stored run holds it (see event-runs.ts),
 * as a learner editing IndexedDB by hand would.
 */
export async function editStoredEvent(
	name: string,
	seq: number,
	change: (event: LedgerEvent) => unknown
): Promise<void> {
	const database = await openDB(name);
	try {
		const transaction = database.transaction(ledgerStores.events, 'readwrite');
		const cursor = await transaction.store.openCursor(IDBKeyRange.upperBound(seq), 'prev');
		if (!cursor) throw new Error(`no stored run holds event ${seq}`);
		const key = cursor.key as number;
		if (Array.isArray(cursor.value)) {
			const run = [...(cursor.value as LedgerEvent[])];
			const position = seq - key;
			if (!run[position]) throw new Error(`no stored run holds event ${seq}`);
			run[position] = change(run[position] as LedgerEvent) as LedgerEvent;
			await cursor.update(run);
		} else {
			if (key !== seq) throw new Error(`no stored record holds event ${seq}`);
			await cursor.update(change(cursor.value as LedgerEvent));
		}
		await transaction.done;
	} finally {
		database.close();
	}
}

/**
 * A stored ledger of three lessons whose second event's hash was edited by hand, then reopened
 * (`openStore` opens the workspace store of a database name, e.g. storesClosedAfterEach's): the
 * ledger it opens is damaged.
 */
export async function damagedLedgerStore(
	openStore: (name: string) => Promise<IndexedDbWorkspaceFiles>
): Promise<IndexedDbWorkspaceFiles> {
	const name = freshDatabaseName();
	const first = await openStore(name);
	const original = await IndexedDbLedger.open({ store: first, clock: steppingClock() });
	await original.append([lesson('one'), lesson('two'), lesson('three')]);
	await first.close();
	await editStoredEvent(name, 2, (event) => ({ ...event, hash: `sha256:${'0'.repeat(64)}` }));
	return openStore(name);
}

/**
 * A stored ledger longer than one run, so an open reads it from its last runs: ten changes of
 * `a.ts` first (trace records 1–10, all before the tail), then `lessons` lessons; optionally the
 * scenario's intents file and state values. Returns the database name and the events.
 */
export async function storedLargeLedger(
	options: { lessons?: number; intentsYaml?: string; state?: Record<string, unknown> } = {}
): Promise<{ name: string; events: LedgerEvent[] }> {
	const lessons = options.lessons ?? 2_500;
	const name = freshDatabaseName();
	const store = await openLedgerStore(name);
	if (options.intentsYaml !== undefined)
		await new WorkspaceFileSystem(store).writeFile(
			'.orchestration/active_intents.yaml',
			bytes(options.intentsYaml)
		);
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
	for (const [key, value] of Object.entries(options.state ?? {})) ledger.setState(key, value);
	const events = [...(await ledger.events())];
	await store.close();
	return { name, events };
}

/**
 * The store with its `readAll` replaced: `readAll(storeName, range, read)` answers every read, and
 * `read` is the store's own (a test's way to fail a read, or to act just before one).
 */
export function withReadAll(
	store: LedgerRecordStore,
	readAll: (
		storeName: string,
		range: IDBKeyRange | undefined,
		read: LedgerRecordStore['readAll']
	) => Promise<StoredRecord[]>
): LedgerRecordStore {
	return new Proxy(store, {
		get(target, property) {
			if (property === 'readAll')
				return (storeName: string, range?: IDBKeyRange) =>
					readAll(storeName, range, target.readAll.bind(target));
			const value: unknown = Reflect.get(target, property);
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
}

/**
 * The store, except that its first `failuresLeft` reads of the whole events store fail (the read
 * of the history after an open from the tail); `Infinity` for a store that never reads it.
 */
export function failingHistoryReads(
	store: LedgerRecordStore,
	counter: { failuresLeft: number }
): LedgerRecordStore {
	return withReadAll(store, async (storeName, range, read) => {
		if (storeName === ledgerStores.events && range === undefined && counter.failuresLeft > 0) {
			counter.failuresLeft--;
			throw new Error('The database connection is closing.');
		}
		return read(storeName, range);
	});
}

/** `openStore(name)` for a test file: every store it opens is closed after each test. */
export function storesClosedAfterEach(): (name: string) => Promise<IndexedDbWorkspaceFiles> {
	const opened: IndexedDbWorkspaceFiles[] = [];
	afterEach(async () => {
		await Promise.all(opened.splice(0).map((store) => store.close()));
	});
	return async (name) => {
		const store = await openLedgerStore(name);
		opened.push(store);
		return store;
	};
}
