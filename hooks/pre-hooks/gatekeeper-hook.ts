import { toolError } from '../errors/tool-error.js';
import { allow, deny, skip, type Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';
import { intentBoundTools } from '../tools/tool-catalog.js';

/**
 * No change without a checked-out intent. `select_active_intent` may only pick an existing
 * IN_PROGRESS intent; tools that name an intent must name the session's active one.
 */
export const gatekeeperHook: PreHook = {
	name: 'gatekeeper',
	priority: 20,
	run(context: PreHookContext): Decision {
		const { call, session, state } = context;
		const listIds = () => state.intents.intents.map((intent) => intent.id).join(', ') || 'none';

		if (call.tool === 'select_active_intent') {
			const intentId = String(call.input.intent_id);
			const intent = state.intent(intentId);
			if (!intent) {
				return deny(
					toolError(
						'intent_not_found',
						`Intent ${intentId} does not exist in .orchestration/active_intents.yaml.`,
						`Choose one of: ${listIds()}.`
					)
				);
			}
			if (intent.status !== 'IN_PROGRESS') {
				return deny(
					toolError(
						'intent_not_active',
						`Intent ${intentId} is ${intent.status}; only IN_PROGRESS intents can be selected.`,
						'Pick an IN_PROGRESS intent, or ask the human to change its status.'
					)
				);
			}
			return allow;
		}

		const needsIntent =
			context.risk === 'destructive' || (intentBoundTools as readonly string[]).includes(call.tool);
		// Read-only shell commands change nothing, so they may run before an intent is chosen.
		const readOnlyCommand =
			call.tool === 'execute_command' && context.command?.level === 'read-only';
		if (!needsIntent || readOnlyCommand) return skip;

		const activeId = session.activeIntentId;
		if (!activeId) {
			return deny(
				toolError(
					'intent_required',
					`You must check out an intent before using ${call.tool}.`,
					`Call select_active_intent with an IN_PROGRESS intent first (available: ${listIds()}).`
				)
			);
		}
		const active = state.intent(activeId);
		if (!active) {
			return deny(
				toolError(
					'intent_not_found',
					`Your active intent ${activeId} no longer exists in .orchestration/active_intents.yaml.`,
					`Select another intent (available: ${listIds()}).`
				)
			);
		}
		if (active.status !== 'IN_PROGRESS') {
			return deny(
				toolError(
					'intent_not_active',
					`Your active intent ${activeId} is now ${active.status}; changes are only allowed under IN_PROGRESS intents.`,
					'Stop and ask the human, or select another IN_PROGRESS intent.'
				)
			);
		}
		const declared = call.input.intent_id;
		if (typeof declared === 'string' && declared !== activeId) {
			return deny(
				toolError(
					'intent_mismatch',
					`This call names intent ${declared}, but your active intent is ${activeId}.`,
					`Use intent_id "${activeId}", or call select_active_intent for ${declared} first.`
				)
			);
		}
		return allow;
	}
};
