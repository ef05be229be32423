import { contentHash } from '../hashing/sha256.js';
import { checkpointPlan, type CheckpointPlan } from '../ledger/checkpoint-plan.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import type { ToolPipeline } from './tool-pipeline.js';

export type RestoreResult =
	{ ok: true; plan: CheckpointPlan; events: LedgerEvent[] } | { ok: false; reason: string };

/** The tool name a restore's records carry (contributor `human`). */
export const restoreTool = 'checkpoint-restore';

/**
 * Restores the workspace to its state right after the event `seq`, as a person's change through
 * the pipeline (so the ledger records every file it writes or deletes, and verify of an export
 * still passes). Every content is read and checked against its recorded hash before anything is
 * written: when one is missing or wrong, nothing changes.
 */
export async function restoreCheckpoint(options: {
	events: readonly LedgerEvent[];
	seq: number;
	/** A content the ledger kept, by its `sha256:` hash; null when not kept. */
	content: (hash: string) => Promise<Uint8Array | null>;
	/** Many contents at once (one storage read), by hash; missing ones left out. Preferred. */
	contents?: (hashes: readonly string[]) => Promise<ReadonlyMap<string, Uint8Array | null>>;
	pipeline: Pick<ToolPipeline, 'recordHumanChanges'>;
	sessionId?: string;
}): Promise<RestoreResult> {
	const planned = checkpointPlan(options.events, options.seq);
	if (!planned.ok) return planned;
	const plan = planned.plan;
	const hashes = [...new Set(plan.writes.map((write) => write.hash))];
	const kept = options.contents
		? await options.contents(hashes)
		: new Map(
				await Promise.all(hashes.map(async (hash) => [hash, await options.content(hash)] as const))
			);
	const checked = new Set<string>();
	await Promise.all(
		hashes.map(async (hash) => {
			const content = kept.get(hash);
			if (content && (await contentHash(content)) === hash) checked.add(hash);
		})
	);
	const files: { path: string; content: Uint8Array | null }[] = [];
	for (const write of plan.writes) {
		const content = kept.get(write.hash);
		if (!content || !checked.has(write.hash))
			return {
				ok: false,
				reason: `The ledger did not keep what ${write.path} held after event ${plan.seq}, so the workspace cannot be restored there. Nothing was changed.`
			};
		files.push({ path: write.path, content });
	}
	for (const path of plan.deletes) files.push({ path, content: null });
	try {
		const events = await options.pipeline.recordHumanChanges({
			files,
			createFolders: plan.createFolders,
			removeFolders: plan.removeFolders,
			tool: restoreTool,
			sessionId: options.sessionId
		});
		return { ok: true, plan, events };
	} catch (error) {
		return {
			ok: false,
			reason: `The restore was not recorded: ${error instanceof Error ? error.message : String(error)}`
		};
	}
}
