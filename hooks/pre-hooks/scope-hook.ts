import { toolError } from '../errors/tool-error.js';
import { allow, deny, skip, type Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';

export function scopeViolationMessage(intentId: string, path: string): string {
	return `Scope Violation: ${intentId} is not authorized to edit ${path}. Request scope expansion.`;
}

/** Every path a call would change must match the active intent's owned_scope. */
export const scopeHook: PreHook = {
	name: 'scope',
	priority: 40,
	run(context: PreHookContext): Decision {
		const intentId = context.session.activeIntentId;
		if (context.targets.length === 0 || !intentId) return skip;
		const outside = context.state.scope.firstPathOutOfScope(intentId, context.targets);
		if (outside === null) return allow;
		const patterns = context.state.scope.patternsOf(intentId);
		return deny(
			toolError(
				'scope_violation',
				scopeViolationMessage(intentId, outside),
				`Only paths matching ${patterns.length ? patterns.join(', ') : '(no patterns)'} may change under ${intentId}. Call request_scope_expansion with the path and a reason, or work within scope.`
			)
		);
	}
};
