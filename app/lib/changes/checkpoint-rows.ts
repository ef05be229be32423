import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';

/** One point the workspace can be restored to: right after a change (or at the start). */
export interface CheckpointRow {
	seq: number;
	timestamp: string;
	/** e.g. "Start of the session", "write_to_file src/auth/jwt.ts". */
	label: string;
	who: 'agent' | 'you' | 'system';
}

/**
 * The checkpoints of a ledger, newest first: the starting snapshot and every recorded file or
 * folder change after it (a restore can go to the state after any event; these are the ones
 * where the files changed).
 */
export function checkpointRows(events: readonly LedgerEvent[], limit = 200): CheckpointRow[] {
	const snapshot = events.find((event) => event.type === 'workspace-snapshot');
	if (!snapshot) return [];
	const rows: CheckpointRow[] = [];
	for (let index = events.length - 1; index >= 0 && rows.length < limit; index--) {
		const event = events[index];
		if (!event || event.seq < snapshot.seq) break;
		if (event.seq === snapshot.seq) {
			rows.push({
				seq: event.seq,
				timestamp: event.timestamp,
				label: 'Start of the session',
				who: 'system'
			});
		} else if (event.type === 'mutation-record') {
			const metadata = event.trace.metadata['dev.threadline'];
			const human = event.trace.files[0]?.conversations[0]?.contributor.type === 'human';
			const verb = metadata.operation === 'delete' ? 'deleted' : 'wrote';
			rows.push({
				seq: event.seq,
				timestamp: event.timestamp,
				label: `${metadata.tool} ${verb} ${event.trace.files[0]?.path ?? ''}`,
				who: human ? 'you' : 'agent'
			});
		} else if (event.type === 'folder-change') {
			rows.push({
				seq: event.seq,
				timestamp: event.timestamp,
				label: `${event.tool} ${event.change === 'created' ? 'made' : 'removed'} the folder ${event.path}`,
				who: event.contributor === 'human' ? 'you' : 'agent'
			});
		}
	}
	return rows;
}
