import type { ToolError } from '../errors/tool-error.js';

/** What the human is asked when a pre-hook cannot decide alone. */
export interface ApprovalRequest {
	/** Which hook asked, e.g. `approval-policy` or `protected-intent`. */
	hook: string;
	/** Plain reasons shown in the modal, e.g. "`rm` deletes files". */
	reasons: string[];
	intentId?: string;
}

/** The answer a pre-hook gives. Precedence when combined: deny > ask > allow; skip abstains. */
export type Decision =
	| { kind: 'allow' }
	| { kind: 'deny'; error: ToolError }
	| { kind: 'ask'; request: ApprovalRequest }
	| { kind: 'skip' };

export const allow: Decision = { kind: 'allow' };
export const skip: Decision = { kind: 'skip' };
export function deny(error: ToolError): Decision {
	return { kind: 'deny', error };
}
export function ask(request: ApprovalRequest): Decision {
	return { kind: 'ask', request };
}
