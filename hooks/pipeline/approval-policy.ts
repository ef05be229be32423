/**
 * When the human is asked before an action runs.
 * `always`: every destructive or governance-changing call; `destructive` (default): calls that change
 * files or run destructive commands; `never`: nothing but what protected intents and scope expansion
 * require (those always ask).
 */
export const approvalPolicies = ['always', 'destructive', 'never'] as const;
export type ApprovalPolicy = (typeof approvalPolicies)[number];

export function isApprovalPolicy(value: unknown): value is ApprovalPolicy {
	return typeof value === 'string' && (approvalPolicies as readonly string[]).includes(value);
}
