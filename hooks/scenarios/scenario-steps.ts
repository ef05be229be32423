import { z } from 'zod';
import { normalizeWorkspacePath } from '../paths/normalize-path.js';
import { isGovernancePath } from '../paths/protected-paths.js';

/**
 * `steps:` in `scenario.yaml`: a scenario taught as numbered steps (as TutorialKit lessons or the
 * svelte.dev tutorial). Each step has its part of the brief, the intents whose acceptance criteria
 * it asks to pass, and optionally a solution: the files it writes and the files it removes, applied
 * on request as the person's own change. A solution never touches `.orchestration/`, `.git/` or
 * `.intentignore`: governance changes only through governance, even when an instructor wrote it.
 */
export const maximumSteps = 50;
const maximumSolutionFiles = 200;
const maximumSolutionFileLength = 1_000_000;

/** As for a scenario's own files (scenarioLimits.maximumPathLength). */
const maximumSolutionPathLength = 1_024;

function checkSolutionPath(path: string): string | null {
	if (path.length > maximumSolutionPathLength)
		return `a solution path of ${path.length} characters; at most ${maximumSolutionPathLength} are allowed`;
	const normalized = normalizeWorkspacePath(path);
	if (!normalized.ok) return normalized.reason;
	if (normalized.path !== path)
		return `${JSON.stringify(path)} is not written the canonical way; use ${JSON.stringify(normalized.path)}`;
	// .intentignore too: one click on "Show solution" must not un-protect the scenario's intents.
	if (isGovernancePath(path))
		return `${JSON.stringify(path)}: a solution may not change .orchestration/, .git/ or .intentignore (they change only through governance)`;
	return null;
}

const solutionSchema = z
	.strictObject({
		files: z
			.record(
				z.string(),
				z
					.string({ error: 'a solution file is its text (a YAML block scalar: `path: |`)' })
					.max(maximumSolutionFileLength, {
						error: `a solution file must be at most ${maximumSolutionFileLength.toLocaleString('en')} characters`
					})
			)
			.default({})
			.describe('Workspace path → the text the solution gives that file.'),
		remove: z
			.array(z.string({ error: 'remove lists workspace paths' }))
			.default([])
			.describe('Workspace paths the solution deletes.')
	})
	.superRefine((solution, context) => {
		const written = Object.keys(solution.files);
		if (written.length + solution.remove.length > maximumSolutionFiles)
			context.addIssue({
				code: 'custom',
				message: `a solution may change at most ${maximumSolutionFiles} files`
			});
		if (written.length + solution.remove.length === 0)
			context.addIssue({
				code: 'custom',
				message:
					'a solution writes or removes at least one file; leave solution out when the step has none'
			});
		for (const path of written) {
			const problem = checkSolutionPath(path);
			if (problem) context.addIssue({ code: 'custom', path: ['files', path], message: problem });
		}
		solution.remove.forEach((path, index) => {
			const problem = checkSolutionPath(path);
			if (problem) context.addIssue({ code: 'custom', path: ['remove', index], message: problem });
			else if (Object.hasOwn(solution.files, path))
				context.addIssue({
					code: 'custom',
					path: ['remove', index],
					message: `${JSON.stringify(path)} is both written and removed by this solution`
				});
		});
	});

export const scenarioStepSchema = z.strictObject({
	title: z
		.string()
		.trim()
		.min(1, { error: 'a step title must not be empty' })
		.max(120, { error: 'a step title must be at most 120 characters' }),
	brief: z
		.string()
		.min(1, { error: 'a step brief must not be empty' })
		.max(50_000, { error: 'a step brief must be at most 50,000 characters' })
		.describe("Markdown: this step's part of the brief."),
	intents: z
		.array(z.string().trim().min(1, { error: 'an intent id must not be empty' }))
		.max(20, { error: 'a step names at most 20 intents' })
		.default([])
		.describe('The intents whose acceptance criteria this step asks to pass.'),
	solution: solutionSchema.optional()
});

export const scenarioStepsSchema = z
	.array(scenarioStepSchema)
	.min(1, { error: 'steps must hold at least one step; leave steps out for a single-page brief' })
	.max(maximumSteps, { error: `a scenario has at most ${maximumSteps} steps` });

export type ScenarioStep = z.output<typeof scenarioStepSchema>;
export type StepSolution = NonNullable<ScenarioStep['solution']>;

export const stepKeys = Object.keys(scenarioStepSchema.shape);
export const stepSolutionKeys = ['files', 'remove'];

/** Every intent a step names must exist: a misspelled id would ask for criteria nobody can run. */
export function unknownStepIntents(
	steps: readonly ScenarioStep[],
	intentIds: ReadonlySet<string>
): { step: number; intent: string; message: string }[] {
	const problems: { step: number; intent: string; message: string }[] = [];
	steps.forEach((step, index) => {
		for (const intent of step.intents) {
			if (intentIds.has(intent)) continue;
			problems.push({
				step: index,
				intent,
				message: `steps[${index}].intents names "${intent}", which is not an intent in .orchestration/active_intents.yaml (known: ${[...intentIds].join(', ') || 'none'})`
			});
		}
	});
	return problems;
}

/**
 * What applying a solution changes in a workspace holding `existing` files: the writes whose text
 * differs and the removals of files that exist. Empty when the solution is already in place.
 */
export function solutionChanges(
	solution: StepSolution,
	existing: ReadonlyMap<string, string | null>
): { path: string; content: string | null }[] {
	const changes: { path: string; content: string | null }[] = [];
	for (const path of Object.keys(solution.files).sort()) {
		const text = solution.files[path] as string;
		if (existing.get(path) !== text) changes.push({ path, content: text });
	}
	for (const path of [...solution.remove].sort())
		if (existing.has(path)) changes.push({ path, content: null });
	return changes;
}
