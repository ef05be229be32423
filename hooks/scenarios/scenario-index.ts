import { z } from 'zod';
import { approvalPolicies } from '../pipeline/approval-policy.js';
import { isScenarioId, sandboxNeeds, type ScenarioManifest } from './scenario-schema.js';

/**
 * `public/scenarios/index.json`: the built-in scenarios the picker lists, without their files.
 * Written by the build step, read by the app (which checks it: a stale or hand-edited file must
 * not break the page).
 */
export const scenarioIndexEntrySchema = z.object({
	id: z.string().refine(isScenarioId, 'id must be kebab-case'),
	title: z.string(),
	summary: z.string(),
	default: z.boolean(),
	approval_policy: z.enum(approvalPolicies),
	sandbox: z.object({ needs: z.enum(sandboxNeeds), note: z.string().optional() })
});

export const scenarioIndexSchema = z.object({
	version: z.literal(1),
	scenarios: z.array(scenarioIndexEntrySchema)
});

export type ScenarioIndexEntry = z.output<typeof scenarioIndexEntrySchema>;
export type ScenarioIndex = z.output<typeof scenarioIndexSchema>;

export function scenarioIndexEntry(manifest: ScenarioManifest): ScenarioIndexEntry {
	const sandbox =
		manifest.sandbox.note === undefined
			? { needs: manifest.sandbox.needs }
			: { needs: manifest.sandbox.needs, note: manifest.sandbox.note };
	return {
		id: manifest.id,
		title: manifest.title,
		summary: manifest.summary,
		default: manifest.default === true,
		approval_policy: manifest.approval_policy,
		sandbox
	};
}

/**
 * The index of the built-ins, sorted by id so the same scenarios always give the same bytes.
 * Problems: duplicate ids, and anything but exactly one default (`/` must know what to open).
 */
export function buildScenarioIndex(manifests: readonly ScenarioManifest[]): {
	index: ScenarioIndex;
	problems: string[];
} {
	const problems: string[] = [];
	const seen = new Set<string>();
	for (const manifest of manifests) {
		if (seen.has(manifest.id)) problems.push(`two scenarios have the id "${manifest.id}"`);
		seen.add(manifest.id);
	}
	const defaults = manifests.filter((manifest) => manifest.default === true).map(({ id }) => id);
	if (defaults.length === 0 && manifests.length > 0) {
		problems.push('no built-in scenario has "default: true"; mark exactly one (the one / opens)');
	} else if (defaults.length > 1) {
		problems.push(
			`${defaults.length} built-in scenarios have "default: true" (${defaults.sort().join(', ')}); keep exactly one`
		);
	}
	const scenarios = [...manifests]
		.sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0))
		.map(scenarioIndexEntry);
	return { index: { version: 1, scenarios }, problems };
}
