import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { eventsOfRecords } from './event-runs.js';

/**
 * The events stored under seq 1..upToSeq, read straight from the page's IndexedDB database (in a
 * Worker: the page copies nothing). Opens without a version, so it never upgrades or blocks the
 * page's own connection. Events are stored in runs keyed by their first seq (event-runs.ts), so
 * the last run read may go past upToSeq; the events after it are left out.
 */
export function readStoredEvents(source: {
	name: string;
	store: string;
	upToSeq: number;
}): Promise<LedgerEvent[]> {
	if (source.upToSeq < 1) return Promise.resolve([]);
	return new Promise((resolve, reject) => {
		const opening = indexedDB.open(source.name);
		opening.onerror = () => reject(opening.error ?? new Error('could not open the ledger'));
		opening.onupgradeneeded = () => {
			opening.transaction?.abort();
			reject(new Error(`no ledger database named ${source.name}`));
		};
		opening.onsuccess = () => {
			const database = opening.result;
			database.onversionchange = () => database.close();
			// Keys and values in one transaction: the same snapshot of the store.
			const store = database.transaction(source.store, 'readonly').objectStore(source.store);
			const range = IDBKeyRange.bound(1, source.upToSeq);
			const keys = store.getAllKeys(range);
			const values = store.getAll(range);
			values.onsuccess = () => {
				database.close();
				const records = values.result.map((value: unknown, position) => ({
					key: keys.result[position] as IDBValidKey,
					value
				}));
				const read = eventsOfRecords(records, 1, source.upToSeq);
				const events = read.events;
				if (events.length !== source.upToSeq) {
					const why = read.problem ? ` (${read.problem})` : '';
					reject(
						new Error(`the database holds ${events.length} of ${source.upToSeq} events${why}`)
					);
				} else resolve(events);
			};
			const failed = (request: IDBRequest) => () => {
				database.close();
				reject(request.error ?? new Error('could not read the ledger'));
			};
			keys.onerror = failed(keys);
			values.onerror = failed(values);
		};
	});
}
