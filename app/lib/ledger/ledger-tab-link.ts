import type { IndexedDbLedger } from './indexeddb-ledger.js';
import type { TabCoordination } from './tab-coordination.js';

/**
 * Wires a tab's ledger to its coordination: events stored here are announced to the other tabs,
 * announcements from them make the ledger read what they stored, the ledger follows this tab's
 * role, and a tab that becomes the writer catches up before writing. Returns an unlink.
 * `onError` hears failures of those background reads (e.g. storage closed); they are not thrown.
 */
export function linkLedgerToTabs(
	ledger: IndexedDbLedger,
	tabs: TabCoordination,
	options: { onError?: (error: unknown) => void } = {}
): () => void {
	const report = (error: unknown) => options.onError?.(error);
	if (tabs.role.kind === 'reader') ledger.becomeReader(tabs.role.message);
	const stopLedger = ledger.subscribe((change) => {
		// Only what this tab wrote: echoing what it read would bounce between tabs.
		if (change.origin !== 'this-tab') return;
		if (change.kind === 'reloaded') tabs.announceReset();
		else tabs.announceEvents(change.events.at(-1)?.seq ?? ledger.lastSeq);
	});
	const stopRemote = tabs.onRemoteChange(() => {
		ledger.refresh().catch(report);
	});
	const stopRole = tabs.onRoleChange((role) => {
		if (role.kind === 'reader') ledger.becomeReader(role.message);
		else ledger.becomeWriter().catch(report);
	});
	return () => {
		stopLedger();
		stopRemote();
		stopRole();
	};
}
