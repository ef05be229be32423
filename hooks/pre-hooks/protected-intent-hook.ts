import { ask, skip, type Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';

/** Intents listed in `.intentignore` are protected: every destructive action under them asks first. */
export const protectedIntentHook: PreHook = {
	name: 'protected-intent',
	priority: 50,
	run(context: PreHookContext): Decision {
		const intentId = context.session.activeIntentId;
		if (!intentId || !context.state.protectedIntentIds.has(intentId)) return skip;
		const destructive =
			context.call.tool === 'execute_command'
				? context.command?.level !== 'read-only'
				: context.risk === 'destructive';
		if (!destructive) return skip;
		return ask({
			hook: 'protected-intent',
			intentId,
			reasons: [
				`${intentId} is listed in .intentignore: every destructive action under it needs your approval.`
			]
		});
	}
};
