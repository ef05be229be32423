import { isGovernancePath } from '../paths/protected-paths.js';
import { ledgerStatesAfter } from './file-states.js';
import type { LedgerEvent } from './ledger-event.js';

/**
 * What brings the workspace from its state now (as the ledger recorded it) back to its state
 * right after the event `seq`: the files to write (with the content hash they must get), the
 * files to delete, and the folders commands made or removed since.
 */
export interface CheckpointPlan {
	seq: number;
	writes: { path: string; hash: string }[];
	deletes: string[];
	/** Folders to make again (removed after the checkpoint). */
	createFolders: string[];
	/** Folders made after the checkpoint: removed when the restore leaves them empty. */
	removeFolders: string[];
	/**
	 * Governance paths (`.orchestration/`, `.git/`, `.intentignore`, in any folded spelling) that
	 * differ: never restored by hand; they change only through governance (intents, completions,
	 * the intents panel's protection switch), so the plan leaves them as they are.
	 */
	kept: string[];
}

export type CheckpointPlanResult =
	{ ok: true; plan: CheckpointPlan } | { ok: false; reason: string };

/**
 * Plans a checkpoint restore from the ledger alone (pure; the caller reads the contents by hash
 * and commits the plan as a person's change). Refused when `seq` is not an event of this ledger
 * or comes before its starting snapshot: before it, the ledger does not know what the files held.
 */
export function checkpointPlan(events: readonly LedgerEvent[], seq: number): CheckpointPlanResult {
	if (!Number.isInteger(seq) || !events.some((event) => event.seq === seq))
		return { ok: false, reason: `There is no event ${String(seq)} in this ledger.` };
	const snapshot = events.find((event) => event.type === 'workspace-snapshot');
	if (!snapshot || snapshot.seq > seq)
		return {
			ok: false,
			reason: `Event ${seq} comes before the workspace's starting snapshot: the ledger does not know what the files held then.`
		};
	const target = ledgerStatesAfter(events, seq);
	const now = ledgerStatesAfter(events);
	const plan: CheckpointPlan = {
		seq,
		writes: [],
		deletes: [],
		createFolders: [],
		removeFolders: [],
		kept: []
	};
	const paths = new Set([...target.files.keys(), ...now.files.keys()]);
	for (const path of [...paths].sort()) {
		const wanted = target.files.get(path) ?? null;
		const current = now.files.get(path) ?? null;
		if (wanted === current) continue;
		if (isGovernancePath(path)) plan.kept.push(path);
		else if (wanted === null) plan.deletes.push(path);
		else plan.writes.push({ path, hash: wanted });
	}
	// A folder's state at the checkpoint is told by its first change after it: a folder first
	// made afterwards did not exist then; one first removed afterwards did.
	const firstAfter = new Map<string, 'created' | 'deleted'>();
	for (const event of events) {
		if (event.seq <= seq || event.type !== 'folder-change') continue;
		if (!firstAfter.has(event.path)) firstAfter.set(event.path, event.change);
	}
	for (const [path, first] of [...firstAfter].sort(([left], [right]) => (left < right ? -1 : 1))) {
		const last = now.folders.get(path);
		if (isGovernancePath(path)) continue;
		if (first === 'created' && last === 'created') plan.removeFolders.push(path);
		if (first === 'deleted' && last === 'deleted') plan.createFolders.push(path);
	}
	// Deepest first, so a folder inside another is removed before it.
	plan.removeFolders.sort((left, right) => right.split('/').length - left.split('/').length);
	return { ok: true, plan };
}

/** How many paths a plan changes (files and folders), e.g. for the confirmation. */
export function planSize(plan: CheckpointPlan): number {
	return (
		plan.writes.length + plan.deletes.length + plan.createFolders.length + plan.removeFolders.length
	);
}
