import { toolError } from '../errors/tool-error.js';
import { allow, deny, type Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';

/** An intent is held by one session at a time unless the intent says `parallel: true`. */
export const intentLockHook: PreHook = {
	name: 'intent-lock',
	priority: 30,
	matcher: { tools: ['select_active_intent'] },
	run(context: PreHookContext): Decision {
		const intentId = String(context.call.input.intent_id);
		const intent = context.state.intent(intentId);
		if (!intent || intent.parallel) return allow;
		const others = [...context.state.holdersOf(intentId)].filter((id) => id !== context.session.id);
		if (others.length === 0) return allow;
		const holderNames = others.map((id) => context.state.sessions.get(id)?.name ?? id).join(', ');
		return deny(
			toolError(
				'intent_locked',
				`Intent ${intentId} is checked out by another session (${holderNames}).`,
				'Work on another IN_PROGRESS intent, or wait until that session completes or releases it.'
			)
		);
	}
};
