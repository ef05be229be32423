import { z } from 'zod';
import { approvalPolicies } from '../pipeline/approval-policy.js';
import { toolErrorCodes } from '../errors/tool-error.js';
import type { ScenarioFile } from './scenario-file-encoding.js';
import {
	readYamlWithPositions,
	sortByPosition,
	type YamlMessage,
	type YamlPathSegment
} from '../yaml/yaml-position.js';
import { describeValue, formatPath, quoteHint } from '../yaml/issue-wording.js';
import {
	rubricCriterionKeys,
	rubricKeys,
	rubricPenaltyKeys,
	rubricStepKeys,
	rubricSchema
} from '../report/rubric.js';
import { scenarioStepsSchema, stepKeys, stepSolutionKeys } from './scenario-steps.js';

/**
 * `scenario.yaml`: what a learner sees before the workspace opens (title, summary, brief, suggested
 * prompts) and how the IDE governs it (approval policy, sandbox needs). Strict: a misspelled key
 * would otherwise be ignored without a word, and the instructor would wonder why.
 */
const kebabCase = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const maximumScenarioIdLength = 64;

export const sandboxNeeds = ['any', 'webcontainer'] as const;
export type SandboxNeed = (typeof sandboxNeeds)[number];

export const scenarioManifestSchema = z.strictObject({
	id: z
		.string()
		.max(maximumScenarioIdLength, {
			error: `id must be at most ${maximumScenarioIdLength} characters`
		})
		.regex(kebabCase, {
			error: (issue) =>
				`id must be kebab-case (lowercase letters and digits joined by single hyphens, e.g. jwt-auth), got ${describeValue(issue.input)}`
		})
		.describe('The folder name and the ?scenario= value, e.g. jwt-auth.'),
	title: z
		.string()
		.trim()
		.min(1, { error: 'title must not be empty' })
		.max(120, { error: 'title must be at most 120 characters' }),
	summary: z
		.string()
		.trim()
		.min(1, { error: 'summary must not be empty' })
		.max(500, { error: 'summary must be at most 500 characters (the brief holds the details)' }),
	brief: z
		.string()
		.min(1, { error: 'brief must not be empty' })
		.max(100_000, { error: 'brief must be at most 100,000 characters' })
		.describe('Markdown shown to the learner: what to try, what the hooks should block.'),
	suggested_prompts: z
		.array(
			z
				.string()
				.trim()
				.min(1, { error: 'a suggested prompt must not be empty' })
				.max(2_000, { error: 'a suggested prompt must be at most 2,000 characters' })
		)
		.max(20, { error: 'suggested_prompts may hold at most 20 prompts' })
		.default([]),
	approval_policy: z.enum(approvalPolicies).default('destructive'),
	sandbox: z
		.strictObject({
			needs: z.enum(sandboxNeeds).default('any'),
			note: z.string().max(500, { error: 'sandbox.note must be at most 500 characters' }).optional()
		})
		.default({ needs: 'any' }),
	git: z
		.strictObject({
			commit_on_complete: z
				.boolean({ error: 'git.commit_on_complete must be true or false' })
				.default(false)
				.describe(
					"complete_intent commits the working tree to the workspace's git repository (created when there is none)."
				)
		})
		.optional(),
	default: z.boolean().optional().describe('The scenario `/` opens; exactly one built-in has it.'),
	rubric: rubricSchema
		.optional()
		.describe('How the grader page and `threadline report --rubric` score an export.'),
	steps: scenarioStepsSchema
		.optional()
		.describe('Numbered steps, each with its brief, intents to pass and optional solution.')
});

export type ScenarioManifest = z.output<typeof scenarioManifestSchema>;

/**
 * A whole scenario as one JSON value: what the build step writes for built-ins
 * (`public/scenarios/<id>.json`) and what a remote URL may serve. Check untrusted ones with
 * `validateScenarioBundle` (scenario-bundle.ts).
 */
export interface ScenarioBundle {
	manifest: ScenarioManifest;
	/** The starting workspace by workspace-relative path. */
	files: Record<string, ScenarioFile>;
	/** The scripted demo agent (replay format, YAML text), when the scenario has one. */
	demo: string | null;
}

export type { ScenarioFile } from './scenario-file-encoding.js';

export type ParseScenarioManifestResult =
	{ ok: true; manifest: ScenarioManifest } | { ok: false; errors: YamlMessage[] };

export function isScenarioId(value: unknown): value is string {
	return (
		typeof value === 'string' && value.length <= maximumScenarioIdLength && kebabCase.test(value)
	);
}

/** Parses `scenario.yaml` with line:column on every error. */
export function parseScenarioManifest(yamlText: string): ParseScenarioManifestResult {
	const read = readYamlWithPositions(yamlText);
	if (!read.ok) return read;
	const { yaml } = read;
	if (yaml.data === null || yaml.data === undefined) {
		return {
			ok: false,
			errors: [
				{
					line: 1,
					column: 1,
					message: 'scenario.yaml is empty: start with id, title, summary and brief.'
				}
			]
		};
	}
	const result = scenarioManifestSchema.safeParse(yaml.data, { reportInput: true });
	if (result.success) return { ok: true, manifest: result.data };
	const errors = describeManifestIssues(result.error.issues).map((problem) => ({
		...(problem.atKey ? yaml.keyAt(problem.path) : yaml.valueAt(problem.path)),
		message: problem.message
	}));
	return { ok: false, errors: sortByPosition(errors) };
}

export interface ManifestProblem {
	path: YamlPathSegment[];
	/** The key itself is wrong (unknown key), not its value. */
	atKey: boolean;
	message: string;
}

const manifestKeys = Object.keys(scenarioManifestSchema.shape);
const sandboxKeys = ['needs', 'note'];
const gitKeys = ['commit_on_complete'];

/** zod issues as sentences an instructor can act on; shared by the YAML and the JSON readers. */
export function describeManifestIssues(issues: readonly z.core.$ZodIssue[]): ManifestProblem[] {
	const problems: ManifestProblem[] = [];
	for (const issue of issues) {
		const path = issue.path.map((segment) =>
			typeof segment === 'number' ? segment : String(segment)
		);
		const label = path.length === 0 ? 'The manifest' : formatPath(path);
		const input = (issue as { input?: unknown }).input;
		switch (issue.code) {
			case 'invalid_type':
				problems.push({
					path,
					atKey: false,
					message:
						input === undefined
							? `${label} is required`
							: `${label} must be ${typeName(issue.expected)} (got ${describeValue(input)})${quoteHint(issue.expected, input)}`
				});
				break;
			case 'invalid_value': {
				const options = issue.values.map(String).join(', ');
				problems.push({
					path,
					atKey: false,
					message: `${label} must be one of ${options} (got ${describeValue(input)})`
				});
				break;
			}
			case 'unrecognized_keys': {
				const known = knownKeysAt(path);
				for (const key of issue.keys) {
					const near = closest(key, known);
					problems.push({
						path: [...path, key],
						atKey: true,
						message: `unknown key "${key}"${near ? ` (did you mean ${near}?)` : ''}; known keys: ${known.join(', ')}`
					});
				}
				break;
			}
			default:
				// The schema gives its own checks (length, pattern) complete sentences.
				problems.push({ path, atKey: false, message: issue.message });
		}
	}
	return problems;
}

/** The keys allowed where an unknown key was found, for the "did you mean" hint. */
function knownKeysAt(path: readonly YamlPathSegment[]): readonly string[] {
	if (path[0] === 'sandbox') return sandboxKeys;
	if (path[0] === 'git') return gitKeys;
	if (path[0] === 'steps') return path[2] === 'solution' ? stepSolutionKeys : stepKeys;
	if (path[0] === 'rubric') {
		if (path[1] === 'penalties') return path[2] === 'blocks' ? toolErrorCodes : rubricPenaltyKeys;
		if (path[1] === 'criteria') return rubricCriterionKeys;
		if (path[1] === 'steps') return rubricStepKeys;
		return rubricKeys;
	}
	return manifestKeys;
}

function typeName(expected: string): string {
	const names: Record<string, string> = {
		string: 'text',
		array: 'a list',
		boolean: 'true or false',
		object: 'a map',
		number: 'a number'
	};
	return names[expected] ?? expected;
}

/** The known key a typo most likely meant: same letters but for at most two edits. */
function closest(key: string, known: readonly string[]): string | null {
	let best: { name: string; distance: number } | null = null;
	for (const name of known) {
		const distance = editDistance(key.toLowerCase(), name);
		if (distance <= 2 && (best === null || distance < best.distance)) best = { name, distance };
	}
	return best?.name ?? null;
}

function editDistance(left: string, right: string): number {
	if (Math.abs(left.length - right.length) > 2) return 3;
	let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
	for (let row = 1; row <= left.length; row++) {
		const current = [row];
		for (let column = 1; column <= right.length; column++) {
			const substitution =
				(previous[column - 1] ?? 0) + (left[row - 1] === right[column - 1] ? 0 : 1);
			current.push(
				Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution)
			);
		}
		previous = current;
	}
	return previous[right.length] ?? 0;
}
