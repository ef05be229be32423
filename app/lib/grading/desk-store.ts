import type { ScenarioRubric } from '../../../hooks/report/scenario-rubric.js';
import type { ExportSource } from './group-exports.js';

/**
 * The grader's desk kept across reloads (issue 28): the exports dropped (their files, as the
 * browser gave them: Blobs are stored as they are) and the rubrics loaded, in one IndexedDB record,
 * until "Clear desk". The rows are graded again from these on reload: a grade is never stored, so a
 * reloaded desk can only show what the same code finds in the same files.
 */
export interface StoredDesk {
	sources: ExportSource<Blob>[];
	rubrics: { name: string; rubric: ScenarioRubric }[];
}

const databaseName = 'threadline-grading-desk';
const storeName = 'desk';
const recordKey = 'state';

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

/** The stored desk, or null when there is none (or this browser keeps no IndexedDB). */
export async function readStoredDesk(
	factory: IDBFactory | undefined = globalThis.indexedDB
): Promise<StoredDesk | null> {
	if (!factory) return null;
	const value = await run(factory, 'readonly', (store) => store.get(recordKey));
	if (typeof value !== 'object' || value === null) return null;
	const stored = value as Partial<StoredDesk>;
	return {
		sources: Array.isArray(stored.sources) ? stored.sources : [],
		rubrics: Array.isArray(stored.rubrics) ? stored.rubrics : []
	};
}

/** Stores the desk; the error's sentence when it cannot (a full disk, a private window). */
export async function writeStoredDesk(
	desk: StoredDesk,
	factory: IDBFactory | undefined = globalThis.indexedDB
): Promise<string | null> {
	if (!factory) return 'this browser keeps no IndexedDB: the desk will not survive a reload';
	try {
		await run(factory, 'readwrite', (store) => store.put(desk, recordKey));
		return null;
	} catch (error) {
		const name = error instanceof DOMException ? error.name : '';
		return name === 'QuotaExceededError'
			? 'the browser has no room left to keep the desk: it will not survive a reload (Clear desk frees the room)'
			: `the desk could not be kept for a reload: ${error instanceof Error ? error.message : String(error)}`;
	}
}

/** "Clear desk": forgets every stored export and rubric. */
export async function clearStoredDesk(
	factory: IDBFactory | undefined = globalThis.indexedDB
): Promise<void> {
	if (!factory) return;
	await run(factory, 'readwrite', (store) => store.delete(recordKey));
}
