import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerEventDraft } from '../../../hooks/ledger/ledger-event.js';
import { createWorkerLocalSandbox } from '../../../sandbox/browser/worker-local-sandbox.js';
import {
	IndexedDbWorkspaceFiles,
	type PersistProblem
} from '../../../sandbox/local/indexeddb-workspace-files.js';
import type { Sandbox } from '../../../sandbox/sandbox.js';
import { IndexedDbLedger } from './indexeddb-ledger.js';
import { ledgerStores } from './ledger-record-store.js';
import { bytes, freshDatabaseName, openLedgerStore } from './ledger-test-kit.js';

// Runs in Chromium (vitest.browser.config.ts): real IndexedDB transactions, and the file write
// going through the Worker sandbox's fs as in the IDE, so the Worker's replica follows it.

const names: string[] = [];
const stores: IndexedDbWorkspaceFiles[] = [];
let sandbox: Sandbox | undefined;

afterEach(async () => {
	vi.restoreAllMocks();
	await sandbox?.dispose();
	sandbox = undefined;
	for (const store of stores.splice(0)) await store.close();
	for (const name of names.splice(0)) await IndexedDbWorkspaceFiles.deleteDatabase(name);
});

async function openInTab(name: string) {
	const store = await openLedgerStore(name, { flushDelayMs: 20 });
	stores.push(store);
	const ledger = await IndexedDbLedger.open({ store });
	return { store, ledger };
}

/** What a fresh page load finds: a new connection reading the database. */
async function storedState(name: string) {
	const database = await openDB(name);
	try {
		return {
			file: await database.get('entries', 'src/auth/jwt.ts'),
			// The commit's events are stored as one run under its first seq (event-runs.ts).
			event: ((await database.get(ledgerStores.events, 1)) as unknown[] | undefined)?.[0]
		};
	} finally {
		database.close();
	}
}

const mutationLesson: LedgerEventDraft = {
	type: 'lesson-record',
	session_id: 'builder',
	intent_id: 'INT-001',
	lesson: 'wrote src/auth/jwt.ts',
	category: 'test',
	source: 'agent'
};

const jwtWrite = {
	path: 'src/auth/jwt.ts',
	type: 'created' as const,
	before: null,
	after: bytes('export const sign = () => 1;\n')
};

describe('the IndexedDB ledger in Chromium', () => {
	it('stores a write and its event together: both are there after reopening the database', async () => {
		const name = freshDatabaseName();
		names.push(name);
		const tab = await openInTab(name);
		sandbox = await createWorkerLocalSandbox({ files: tab.store });
		const [event] = await tab.ledger.commit(sandbox.fs, [jwtWrite], [mutationLesson]);
		// The Worker's replica follows a write made through the sandbox's fs.
		const shown = await sandbox.exec('cat src/auth/jwt.ts');
		expect(shown.output).toBe('export const sign = () => 1;\n');
		await sandbox.dispose();
		sandbox = undefined;
		await tab.store.close();

		expect(await storedState(name)).toMatchObject({
			file: { path: 'src/auth/jwt.ts', kind: 'file' },
			event: { seq: 1, hash: event?.hash }
		});
		const reopened = await openInTab(name);
		expect(new TextDecoder().decode(await reopened.store.read('src/auth/jwt.ts'))).toBe(
			'export const sign = () => 1;\n'
		);
		expect(await reopened.ledger.events()).toEqual([event]);
		expect(reopened.ledger.integrity).toEqual({ ok: true });
	});

	it('stores neither when the transaction fails part-way, and keeps both for the next attempt', async () => {
		const name = freshDatabaseName();
		names.push(name);
		const tab = await openInTab(name);
		const problems: (PersistProblem | null)[] = [];
		tab.store.onPersistError((problem) => problems.push(problem));
		sandbox = await createWorkerLocalSandbox({ files: tab.store });

		const originalPut = IDBObjectStore.prototype.put;
		const failing = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (
			this: IDBObjectStore,
			...args: Parameters<IDBObjectStore['put']>
		) {
			const request = originalPut.apply(this, args);
			// The event's put is the last of the transaction: the file's put was already accepted.
			if (this.name === ledgerStores.events) this.transaction.abort();
			return request;
		});
		const [event] = await tab.ledger.commit(sandbox.fs, [jwtWrite], [mutationLesson]);
		failing.mockRestore();

		expect(problems).toHaveLength(1);
		expect(await storedState(name)).toEqual({ file: undefined, event: undefined });
		// Nothing is lost in this tab; the next flush stores the two together.
		expect(await tab.ledger.events()).toEqual([event]);
		await tab.store.flush();
		expect(problems.at(-1)).toBeNull();
		expect(await storedState(name)).toMatchObject({
			file: { kind: 'file' },
			event: { seq: 1, hash: event?.hash }
		});
	});
});

describe('IndexedDbLedger in Chromium: a large ledger opens from its last runs', () => {
	it('opens from the tail, reads the rest, appends, and the verify Worker checks it all', async () => {
		const name = freshDatabaseName();
		names.push(name);
		const first = await openInTab(name);
		for (let start = 0; start < 2_500; start += 500)
			await first.ledger.append(
				Array.from({ length: 500 }, (_, index) => ({
					...mutationLesson,
					lesson: `lesson ${start + index}`
				}))
			);
		await first.store.flush();
		await first.store.close();
		stores.splice(stores.indexOf(first.store), 1);

		const { ledger } = await openInTab(name);
		expect(ledger.integrity).toEqual({ ok: true });
		expect(ledger.lastSeq).toBe(2_500);
		// Only the last runs are read at open: the earlier events are not there yet.
		expect(() => ledger.eventsSince(0)).toThrow(/still being read/);
		const [appended] = await ledger.append([{ ...mutationLesson, lesson: 'after the open' }]);
		expect(appended?.seq).toBe(2_501);
		expect(ledger.eventsSince(0)).toHaveLength(2_501);
		// The full check: the verify Worker reads the stored events from this database itself.
		expect(await ledger.whenFullyChecked()).toEqual({ ok: true });
	});
});
