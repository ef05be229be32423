import { z } from 'zod';
import {
	readYamlWithPositions,
	type YamlMessage,
	type YamlPathSegment
} from '../yaml/yaml-position.js';
import { outcomeBranchesSchema } from './outcome-branches.js';

/**
 * A scripted agent session: the format of `threadline replay` and of a scenario's demo agent.
 * Steps of several sessions may interleave; `approve` answers the pipeline if it asks.
 */
const approvalSchema = z.union([
	z.boolean(),
	z.strictObject({
		approved: z.boolean(),
		reason: z.string().optional(),
		remember: z.enum(['once', 'intent']).optional()
	})
]);

const sayStep = z.strictObject({ say: z.string(), session: z.string().min(1).optional() });
/** The learner's message (recorded as a `user` conversation entry); `say` is the model's text. */
const userStep = z.strictObject({ user: z.string(), session: z.string().min(1).optional() });
const callStep = z.strictObject({
	call: z.string().min(1),
	input: z.record(z.string(), z.unknown()).default({}),
	session: z.string().min(1).optional(),
	approve: approvalSchema.optional(),
	/** What the author expects, so a scenario's demo can be checked in CI: `ok` or a ToolError code. */
	expect: z.string().optional(),
	/** What a demo does on each outcome (see outcome-branches.ts); replay follows `expect`. */
	on: outcomeBranchesSchema.optional()
});
const humanEditStep = z.strictObject({
	human_edit: z.strictObject({ path: z.string().min(1), content: z.string().nullable() }),
	session: z.string().min(1).optional()
});

export const replayScriptSchema = z.strictObject({
	model: z.string().min(1).default('demo/scripted'),
	sessions: z
		.record(
			z.string(),
			z.strictObject({ name: z.string().optional(), model: z.string().optional() })
		)
		.optional(),
	steps: z.array(z.union([callStep, humanEditStep, sayStep, userStep])).min(1)
});

export type ReplayScript = z.infer<typeof replayScriptSchema>;
export type ReplayStep = ReplayScript['steps'][number];

export type ReplayScriptError = YamlMessage;

/** A script longer than this is not something a person (or a demo) wrote. */
export const maximumScriptLength = 4 * 1024 * 1024;

/**
 * Parses a YAML (or JSON, a subset of YAML) replay script, with line:column on every error.
 * Uses the same guarded reader as the intents file, so an alias bomb or a self-referencing alias
 * is an error, not a hang; unknown fields and wrong types are errors too, before anything runs.
 */
export function parseReplayScript(
	text: string
): { ok: true; script: ReplayScript } | { ok: false; errors: ReplayScriptError[] } {
	if (text.length > maximumScriptLength) {
		return {
			ok: false,
			errors: [
				{
					line: 1,
					column: 1,
					message: `the script is ${text.length} characters long; at most ${maximumScriptLength} are accepted`
				}
			]
		};
	}
	const read = readYamlWithPositions(text);
	if (!read.ok) return { ok: false, errors: read.errors };
	const parsed = replayScriptSchema.safeParse(read.yaml.data);
	if (parsed.success) return { ok: true, script: parsed.data };
	return {
		ok: false,
		errors: parsed.error.issues.flatMap(precise(read.yaml.data)).map((issue) => {
			// The value at the path, or the closest node on the way there that exists.
			const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
			const position =
				issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined
					? read.yaml.keyAt([...(issue.path as YamlPathSegment[]), issue.keys[0]])
					: read.yaml.valueAt(issue.path as YamlPathSegment[]);
			return { ...position, message: `${where}${issue.message}` };
		})
	};
}

type Issue = z.core.$ZodIssue;

/**
 * "Invalid input" on a whole step says nothing: a step that names its kind (`call`, `human_edit`,
 * `say`, `user`) is checked against that kind alone, so the message names the field that is wrong.
 */
function precise(data: unknown): (issue: Issue) => Issue[] {
	return (issue) => {
		const [first, index] = issue.path;
		if (issue.code !== 'invalid_union' || first !== 'steps' || typeof index !== 'number') {
			return [issue];
		}
		const step = (data as { steps?: unknown[] } | null)?.steps?.[index];
		if (typeof step !== 'object' || step === null) return [issue];
		const schema =
			'call' in step
				? callStep
				: 'human_edit' in step
					? humanEditStep
					: 'say' in step
						? sayStep
						: 'user' in step
							? userStep
							: null;
		const result = schema?.safeParse(step);
		if (!result || result.success) return [issue];
		return result.error.issues.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
	};
}
