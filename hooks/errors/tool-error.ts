/**
 * The error value the model receives when a tool call is blocked or fails.
 * Codes are a closed set so graders can count them; messages are written for the model to self-correct.
 */
export const toolErrorCodes = [
	'intent_required',
	'intent_not_found',
	'intent_not_active',
	'intent_mismatch',
	'intent_locked',
	'scope_violation',
	'protected_path',
	'stale_file',
	'user_rejected',
	'command_denied',
	'command_failed',
	'invalid_input',
	'hook_failed'
] as const;

export type ToolErrorCode = (typeof toolErrorCodes)[number];

export interface ToolError {
	status: 'error';
	code: ToolErrorCode;
	message: string;
	suggestion: string;
}

export function toolError(code: ToolErrorCode, message: string, suggestion: string): ToolError {
	return { status: 'error', code, message, suggestion };
}

export function isToolError(value: unknown): value is ToolError {
	if (typeof value !== 'object' || value === null) return false;
	const candidate = value as Record<string, unknown>;
	return (
		candidate.status === 'error' &&
		typeof candidate.code === 'string' &&
		(toolErrorCodes as readonly string[]).includes(candidate.code) &&
		typeof candidate.message === 'string' &&
		typeof candidate.suggestion === 'string'
	);
}
