import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';

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
	expect: z.string().optional()
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

export interface ReplayScriptError {
	line: number;
	column: number;
	message: string;
}

/** Parses a YAML (or JSON, a subset of YAML) replay script, with line:column on every error. */
export function parseReplayScript(
	text: string
): { ok: true; script: ReplayScript } | { ok: false; errors: ReplayScriptError[] } {
	const lineCounter = new LineCounter();
	const document = parseDocument(text, { lineCounter, prettyErrors: false });
	if (document.errors.length > 0) {
		return {
			ok: false,
			errors: document.errors.map((error) => {
				const position = lineCounter.linePos(error.pos[0]);
				return {
					line: position.line,
					column: position.col,
					message: error.message.split('\n')[0] ?? error.message
				};
			})
		};
	}
	const parsed = replayScriptSchema.safeParse(document.toJS());
	if (parsed.success) return { ok: true, script: parsed.data };
	return {
		ok: false,
		errors: parsed.error.issues.map((issue) => {
			const node = nodeAt(document.contents, issue.path as (string | number)[]);
			const offset = node?.range?.[0] ?? 0;
			const position = lineCounter.linePos(offset);
			const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
			return { line: position.line, column: position.col, message: `${where}${issue.message}` };
		})
	};
}

type YamlNode = { range?: [number, number, number] | null } & object;

/** The deepest node along `path` that exists, so an error points as close to its cause as possible. */
function nodeAt(root: unknown, path: (string | number)[]): YamlNode | null {
	let current: unknown = root;
	let found: YamlNode | null = (root as YamlNode) ?? null;
	for (const key of path) {
		if (isMap(current)) {
			const pair = current.items.find((item) => (item.key as { value?: unknown })?.value === key);
			if (!pair) break;
			current = pair.value ?? pair.key;
		} else if (isSeq(current) && typeof key === 'number') {
			current = current.items[key];
		} else break;
		if (current && typeof current === 'object') found = current as YamlNode;
	}
	return found;
}
