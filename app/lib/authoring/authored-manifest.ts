import {
	scenarioManifestSchema,
	type ScenarioManifest
} from '../../../hooks/scenarios/scenario-schema.js';
import { readDraft, type StoredDraft } from './draft-store.js';
import { draftProblems, manifestOf } from './scenario-export.js';

/**
 * The scenario as the author left it in "Edit scenario" (the stored draft of this workspace, the
 * newer of "current" and "blank"), for Share: a link must carry the authored title, brief, steps
 * and rubric, not the manifest the workspace was loaded with. `problems` when the draft cannot be
 * a manifest yet (the link then carries the loaded one, and the dialog says why).
 */
export async function authoredManifest(
	draftKey: string,
	factory: IDBFactory | undefined = globalThis.indexedDB
): Promise<{ manifest: ScenarioManifest } | { problems: number } | null> {
	const stored = (
		await Promise.all([
			readDraft(`${draftKey}:current`, factory).catch(() => null),
			readDraft(`${draftKey}:blank`, factory).catch(() => null)
		])
	)
		.filter((draft): draft is StoredDraft => draft !== null)
		.sort((left, right) => right.savedAt.localeCompare(left.savedAt))[0];
	if (!stored) return null;
	const draft = {
		...stored.draft,
		suggestedPrompts: stored.promptsText.split('\n').filter((line) => line.trim())
	};
	const problems = draftProblems(draft);
	if (problems.length > 0) return { problems: problems.length };
	const parsed = scenarioManifestSchema.safeParse(manifestOf(draft));
	return parsed.success ? { manifest: parsed.data } : { problems: parsed.error.issues.length };
}
