import { z } from 'zod';
import {
	locateYamlPath,
	parseYamlWithPositions,
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
	steps: z.array(z.union([callStep, humanEditStep, sayStep])).min(1)
});

export type ReplayScript = z.infer<typeof replayScriptSchema>;
export type ReplayStep = ReplayScript['steps'][number];

export type ReplayScriptError = YamlMessage;

/** Parses a YAML (or JSON, a subset of YAML) replay script, with line:column on every error. */
export function parseReplayScript(
	text: string
): { ok: true; script: ReplayScript } | { ok: false; errors: ReplayScriptError[] } {
	const { yamlDocument, position } = parseYamlWithPositions(text);
	if (yamlDocument.errors.length > 0) {
		return {
			ok: false,
			errors: yamlDocument.errors.map((error) => ({
				...position(error.pos[0]),
				message: error.message.split('\n')[0] ?? error.message
			}))
		};
	}
	const parsed = replayScriptSchema.safeParse(yamlDocument.toJS());
	if (parsed.success) return { ok: true, script: parsed.data };
	return {
		ok: false,
		errors: parsed.error.issues.map((issue) => {
			// The value at the path, or the closest node on the way there that exists.
			const { valueOffset } = locateYamlPath(yamlDocument, issue.path as YamlPathSegment[]);
			const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
			return { ...position(valueOffset), message: `${where}${issue.message}` };
		})
	};
}
