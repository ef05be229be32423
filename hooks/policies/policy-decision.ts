import { toolError } from '../errors/tool-error.js';
import { ask, deny, skip, type Decision } from '../pipeline/decision.js';
import { hookPolicyPath, type PolicyRule } from './hook-policy-schema.js';
import type { HookPolicyState } from './hook-policy-state.js';
import { matchingRules, type PolicySubject } from './match-policy-rule.js';
import { formatHookPolicyError } from './parse-hook-policy.js';

export const hookPolicyHookName = 'hook-policy';

/**
 * What the scenario's policy says before a call runs. Among matching rules deny > ask; `allow`
 * and `run` rules decide nothing here (`allow` only waives the approval policy's question, see
 * `policyWaivesApproval`; `run` acts after the write). A broken policy refuses every call that
 * may change something, with the place to fix.
 */
export function policyDecision(
	state: HookPolicyState,
	subject: PolicySubject,
	mayChange: boolean
): Decision {
	if (state.broken) {
		if (!mayChange) return skip;
		const first = state.errors[0];
		return deny(
			toolError(
				'hook_failed',
				`The scenario's hook policy ${hookPolicyPath} is not valid (${first ? formatHookPolicyError(first) : 'unknown error'}), so calls that change files or run commands are blocked until it is fixed.`,
				'Stop and tell the human: the instructor or the person must fix .orchestration/hooks.yaml (agents cannot edit it).'
			)
		);
	}
	const matched = matchingRules(state.policy.rules, subject);
	const denial = matched.find(({ rule }) => rule.action === 'deny');
	if (denial) {
		const isCommand = subject.tool === 'execute_command';
		return deny(
			toolError(
				isCommand ? 'command_denied' : 'protected_path',
				`${denial.rule.message ?? `The scenario's hook policy forbids this ${isCommand ? 'command' : 'change'}.`} (${hookPolicyPath}, rule ${denial.index + 1})`,
				isCommand
					? 'Do not run this command; find another way or ask the human.'
					: 'Leave these files alone; ask the human if the task needs them changed.'
			)
		);
	}
	const asks = matched.filter(({ rule }) => rule.action === 'ask');
	if (asks.length > 0) {
		return ask({
			hook: hookPolicyHookName,
			intentId: subject.activeIntentId ?? undefined,
			reasons: asks.map(({ rule, index }) => askReason(rule, index))
		});
	}
	return skip;
}

/**
 * `allow` is defined narrowly: it only removes the question the scenario's approval policy
 * (`always` | `destructive`) would ask. It never lifts a deny of any hook (protected paths, the
 * gatekeeper, scope, intent locks, the command policy, stale files), never the question of an
 * intent listed in `.intentignore`, and never an `ask` rule of the same policy.
 */
export function policyWaivesApproval(state: HookPolicyState, subject: PolicySubject): boolean {
	if (state.broken) return false;
	const matched = matchingRules(state.policy.rules, subject);
	return (
		matched.some(({ rule }) => rule.action === 'allow') &&
		!matched.some(({ rule }) => rule.action === 'ask' || rule.action === 'deny')
	);
}

/** The `run` rules a successful call triggers, in file order. */
export function checksAfter(state: HookPolicyState, subject: PolicySubject): PolicyRule[] {
	if (state.broken) return [];
	return matchingRules(state.policy.rules, subject)
		.filter(({ rule }) => rule.action === 'run')
		.map(({ rule }) => rule);
}

function askReason(rule: PolicyRule, index: number): string {
	return rule.message
		? `${rule.message} (${hookPolicyPath}, rule ${index + 1})`
		: `The scenario's hook policy asks for your approval of this call (${hookPolicyPath}, rule ${index + 1}).`;
}
