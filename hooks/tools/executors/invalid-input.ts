import { toolError } from '../../errors/tool-error.js';
import type { ToolOutcome } from '../../pipeline/tool-outcome.js';

export function invalidInput(message: string, suggestion: string): ToolOutcome {
	return { ok: false, error: toolError('invalid_input', message, suggestion), changes: [] };
}
