import { formatPath } from '../yaml/issue-wording.js';
import {
	locateYamlPath,
	parseYamlWithPositions,
	sortByPosition,
	yamlData,
	yamlSyntaxErrors,
	type YamlMessage,
	type YamlPathSegment
} from '../yaml/yaml-position.js';
import { hookPolicySchema, type HookPolicy } from './hook-policy-schema.js';

export type HookPolicyError = YamlMessage;

export type ParseHookPolicyResult =
	{ ok: true; policy: HookPolicy } | { ok: false; errors: HookPolicyError[] };

/** A policy larger than this is not something an instructor wrote by hand. */
export const maximumHookPolicyBytes = 64 * 1024;

/** Reads `.orchestration/hooks.yaml` with a line:column on every error. An empty file has no rules. */
export function parseHookPolicy(text: string): ParseHookPolicyResult {
	if (text.length > maximumHookPolicyBytes) {
		return {
			ok: false,
			errors: [
				{
					line: 1,
					column: 1,
					message: `The policy is larger than ${maximumHookPolicyBytes / 1024} KiB.`
				}
			]
		};
	}
	if (text.trim() === '') return { ok: true, policy: { rules: [] } };
	const parsed = parseYamlWithPositions(text);
	const syntaxErrors = yamlSyntaxErrors(parsed);
	if (syntaxErrors.length > 0) return { ok: false, errors: syntaxErrors };
	const read = yamlData(parsed);
	if (!read.ok) return read;
	const checked = hookPolicySchema.safeParse(read.data ?? {});
	if (checked.success) return { ok: true, policy: checked.data };
	return {
		ok: false,
		errors: sortByPosition(
			checked.error.issues.map((issue) => {
				const path = issue.path as YamlPathSegment[];
				const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : [];
				// An unknown key points at the key itself, where the author will look.
				const located =
					unknownKeys.length > 0
						? locateYamlPath(parsed.yamlDocument, [...path, unknownKeys[0] as string]).keyOffset
						: locateYamlPath(parsed.yamlDocument, path).valueOffset;
				const where = path.length ? `${formatPath(path)}: ` : '';
				return { ...parsed.position(located), message: `${where}${issue.message}` };
			})
		)
	};
}

export function formatHookPolicyError(error: HookPolicyError): string {
	return `${error.line}:${error.column} ${error.message}`;
}
