import type { ScenarioDraft } from './scenario-export.js';

/**
 * The author's scenario draft, stored as it is typed (issue 28): Close, a reload or a crash keeps
 * every edit (id, title, brief, rubric, steps, prompts); only "Discard draft" throws it away. One
 * draft per workspace (the IndexedDB database name the scenario opens), in its own database.
 */
export interface StoredDraft {
	draft: ScenarioDraft;
	promptsText: string;
	savedAt: string;
}

const databaseName = 'threadline-scenario-drafts';
const storeName = 'drafts';

function open(factory: IDBFactory): Promise<IDBDatabase> {
	return new Promise((resolve, reject) => {
		const request = factory.open(databaseName, 1);
		request.onupgradeneeded = () => request.result.createObjectStore(storeName);
		request.onsuccess = () => resolve(request.result);
		request.onerror = () => reject(request.error ?? new Error('IndexedDB would not open'));
	});
}

async function run<Result>(
	factory: IDBFactory,
	mode: IDBTransactionMode,
	action: (store: IDBObjectStore) => IDBRequest<Result>
): Promise<Result> {
	const database = await open(factory);
	try {
		return await new Promise<Result>((resolve, reject) => {
			const transaction = database.transaction(storeName, mode);
			const request = action(transaction.objectStore(storeName));
			transaction.oncomplete = () => resolve(request.result);
			transaction.onerror = () => reject(transaction.error ?? request.error);
			transaction.onabort = () => reject(transaction.error ?? new Error('the write was aborted'));
		});
	} finally {
		database.close();
	}
}

export async function readDraft(
	key: string,
	factory: IDBFactory | undefined = globalThis.indexedDB
): Promise<StoredDraft | null> {
	if (!factory) return null;
	const value = (await run(factory, 'readonly', (store) => store.get(key))) as unknown;
	if (typeof value !== 'object' || value === null) return null;
	const stored = value as Partial<StoredDraft>;
	if (typeof stored.draft !== 'object' || stored.draft === null) return null;
	return {
		draft: stored.draft,
		promptsText: typeof stored.promptsText === 'string' ? stored.promptsText : '',
		savedAt: typeof stored.savedAt === 'string' ? stored.savedAt : ''
	};
}

/** Stores the draft; the sentence to show when it cannot be kept (a full disk, no IndexedDB). */
export async function writeDraft(
	key: string,
	draft: StoredDraft,
	factory: IDBFactory | undefined = globalThis.indexedDB
): Promise<string | null> {
	if (!factory) return 'this browser keeps no IndexedDB: the draft is lost when the page closes';
	try {
		await run(factory, 'readwrite', (store) => store.put(draft, key));
		return null;
	} catch (error) {
		const name = error instanceof DOMException ? error.name : '';
		return name === 'QuotaExceededError'
			? 'the browser has no room left: your latest edits are NOT stored — Export scenario to keep them'
			: `your latest edits could not be stored (${error instanceof Error ? error.message : String(error)}) — Export scenario to keep them`;
	}
}

/** "Discard draft": the stored draft is gone; the dialog shows the scenario as it is. */
export async function discardDraft(
	key: string,
	factory: IDBFactory | undefined = globalThis.indexedDB
): Promise<void> {
	if (!factory) return;
	await run(factory, 'readwrite', (store) => store.delete(key));
}
