import { ask, allow, skip, type Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';
import { policyWaivesApproval } from '../policies/policy-decision.js';
import { policySubjectOf } from '../policies/policy-subject.js';

const governanceTools = new Set(['request_scope_expansion']);

/** Asks the human according to the approval policy (`always` | `destructive` | `never`). */
export const approvalPolicyHook: PreHook = {
	name: 'approval-policy',
	priority: 80,
	run(context: PreHookContext): Decision {
		const { call, state, session } = context;
		// Widening an intent's scope is the human's decision by definition, whatever the policy.
		if (governanceTools.has(call.tool)) {
			const paths = (call.input.paths as string[]).join(', ');
			return ask({
				hook: 'approval-policy',
				intentId: String(call.input.intent_id),
				reasons: [
					`The agent asks to add ${paths} to ${String(call.input.intent_id)}: ${String(call.input.reason)}`
				]
			});
		}
		const policy = state.approvalPolicy;
		if (policy === 'never') return skip;
		const reasons = reasonsFor(context);
		if (reasons === null) return skip;
		const intentId = session.activeIntentId ?? undefined;
		if (intentId && session.approvedIntents.has(intentId)) return allow;
		// A scenario `allow` rule waives this question only (see policyWaivesApproval).
		if (policyWaivesApproval(state.hookPolicy, policySubjectOf(call, session, context.targets)))
			return allow;
		return ask({ hook: 'approval-policy', intentId, reasons });
	}
};

function reasonsFor(context: PreHookContext): string[] | null {
	const { call, risk, command, state } = context;
	if (call.tool === 'execute_command') {
		if (!command) return null;
		if (command.level === 'read-only') {
			return state.approvalPolicy === 'always' ? ['Approval policy is "always".'] : null;
		}
		return command.reasons.length ? command.reasons : ['The command may change files.'];
	}
	if (risk !== 'destructive') {
		return state.approvalPolicy === 'always' && risk === 'meta' && call.tool === 'complete_intent'
			? ['Approval policy is "always": completing an intent needs your approval.']
			: null;
	}
	const verb = call.tool === 'delete_file' ? 'delete' : 'change';
	return context.targets.map((path) => `The agent wants to ${verb} ${path}.`);
}
