import type { Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';
import { hookPolicyHookName, policyDecision } from '../policies/policy-decision.js';
import { policySubjectOf } from '../policies/policy-subject.js';

/**
 * The scenario's `.orchestration/hooks.yaml` deny and ask rules. It runs among the built-ins and
 * can only add denies and questions: the pipeline's deny > ask > allow means no rule here can
 * lift what another hook denies.
 */
export const hookPolicyHook: PreHook = {
	name: hookPolicyHookName,
	priority: 65,
	run(context: PreHookContext): Decision {
		const mayChange =
			context.call.tool === 'execute_command'
				? context.command?.level !== 'read-only'
				: context.risk === 'destructive';
		return policyDecision(
			context.state.hookPolicy,
			policySubjectOf(context.call, context.session, context.targets),
			mayChange
		);
	}
};
