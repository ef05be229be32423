import { toolError, type ToolError } from '../errors/tool-error.js';
import { isKnownTool, toolInputSchemas } from '../tools/tool-catalog.js';
import { describeExpectedFields, describeInputIssues } from './describe-input-issues.js';
import type { PreHookContext, ValidatedCall } from './hook-types.js';
import { resolveTargets } from './resolve-targets.js';
import type { ToolCall } from './tool-call.js';

export type ValidatedToolCall = {
	validatedCall: ValidatedCall;
	/** Normalised workspace paths the call will change. */
	targets: string[];
	command?: PreHookContext['command'];
};

/**
 * Step 1 of every call: the tool must exist, its input must match the schema, and its paths must
 * normalise inside the workspace. Anything else is `invalid_input`, with what to fix.
 */
export function validateToolCall(call: ToolCall): { error: ToolError } | ValidatedToolCall {
	if (!isKnownTool(call.tool)) {
		return {
			error: toolError(
				'invalid_input',
				`Unknown tool "${call.tool}".`,
				`Use one of: ${Object.keys(toolInputSchemas).join(', ')}.`
			)
		};
	}
	const schema = toolInputSchemas[call.tool];
	const parsed = schema.safeParse(call.input);
	if (!parsed.success) {
		const problems = describeInputIssues(parsed.error.issues, call.input, schema).join('; ');
		const fields = describeExpectedFields(schema);
		return {
			error: toolError(
				'invalid_input',
				`Invalid input for ${call.tool}: ${problems}.`,
				`Call ${call.tool} again with ${fields ? `these fields: ${fields}` : 'arguments that match its schema'}.`
			)
		};
	}
	const validatedCall: ValidatedCall = {
		sessionId: call.sessionId,
		toolCallId: call.toolCallId,
		tool: call.tool,
		input: { ...(parsed.data as Record<string, unknown>) }
	};
	const resolved = resolveTargets(validatedCall);
	if (!resolved.ok)
		return { error: toolError('invalid_input', resolved.message, resolved.suggestion) };
	// Scope requests are kept in their normalised form, so the human approves what will be written.
	if (resolved.requestedScope) validatedCall.input.paths = resolved.requestedScope;
	return { validatedCall, targets: resolved.targets, command: resolved.command };
}
