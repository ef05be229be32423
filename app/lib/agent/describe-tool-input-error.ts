import { InvalidToolInputError, JSONParseError, NoSuchToolError } from 'ai';
import { toolError } from '../../../hooks/errors/tool-error.js';
import {
	describeExpectedFields,
	describeInputIssues
} from '../../../hooks/pipeline/describe-input-issues.js';
import { isKnownTool, toolInputSchemas } from '../../../hooks/tools/tool-catalog.js';

/**
 * The tool calls the SDK itself refuses before the pipeline sees them: an unknown tool, or
 * arguments that are not JSON at all (schema mismatches reach the pipeline, see agent-tools.ts).
 * They are answered like the pipeline answers: an `invalid_input` ToolError in plain words, as
 * JSON, which the chat shows as a blocked call and the model reads to correct itself. Anything
 * else is not a tool input error (undefined): it is described as a provider error.
 */
export function describeToolInputError(error: unknown): string | undefined {
	const known = Object.keys(toolInputSchemas).join(', ');
	if (NoSuchToolError.isInstance(error)) {
		return JSON.stringify(
			toolError('invalid_input', `Unknown tool "${error.toolName}".`, `Use one of: ${known}.`)
		);
	}
	if (InvalidToolInputError.isInstance(error)) {
		const sent = typeof error.toolInput === 'string' ? error.toolInput.trim() : '';
		const issues = issuesIn(error.cause);
		if (!JSONParseError.isInstance(error.cause) && issues && isKnownTool(error.toolName)) {
			// A schema mismatch from tools that validate in the SDK (not ours): same words as the pipeline.
			const schema = toolInputSchemas[error.toolName];
			const problems = describeInputIssues(issues, parseOrUndefined(sent), schema).join('; ');
			return JSON.stringify(
				toolError(
					'invalid_input',
					`Invalid input for ${error.toolName}: ${problems}.`,
					`Call ${error.toolName} again with these fields: ${describeExpectedFields(schema) ?? ''}.`
				)
			);
		}
		const shown = sent.length > 80 ? `${sent.slice(0, 80)}…` : sent;
		return JSON.stringify(
			toolError(
				'invalid_input',
				`The arguments for ${error.toolName} are not valid JSON${shown ? ` (received: ${shown})` : ''}.`,
				`Call ${error.toolName} again with its arguments as one JSON object, e.g. {"path": "src/a.ts"}.`
			)
		);
	}
	return undefined;
}

type Issues = Parameters<typeof describeInputIssues>[0];

/** The zod issues under the SDK's wrappers (TypeValidationError → ZodError), if any. */
function issuesIn(error: unknown): Issues | undefined {
	let current = error;
	for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
		const issues = (current as { issues?: unknown }).issues;
		if (Array.isArray(issues)) return issues as Issues;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

function parseOrUndefined(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
