import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';

/**
 * The events stored under seq 1..upToSeq, read straight from the page's IndexedDB database (in a
 * Worker: the page copies nothing). Opens without a version, so it never upgrades or blocks the
 * page's own connection.
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
			const reading = database
				.transaction(source.store, 'readonly')
				.objectStore(source.store)
				.getAll(IDBKeyRange.bound(1, source.upToSeq));
			reading.onsuccess = () => {
				database.close();
				const events = reading.result as LedgerEvent[];
				if (events.length !== source.upToSeq) {
					reject(new Error(`the database holds ${events.length} of ${source.upToSeq} events`));
				} else resolve(events);
			};
			reading.onerror = () => {
				database.close();
				reject(reading.error ?? new Error('could not read the ledger'));
			};
		};
	});
}
