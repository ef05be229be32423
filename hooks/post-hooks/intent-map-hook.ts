import { renderIntentMap } from '../ledger/intent-map.js';
import { intentMapPath } from '../pipeline/governance-state.js';
import type { PostHook, PostHookContext } from '../pipeline/hook-types.js';

/** `.orchestration/intent_map.md` follows every INTENT_EVOLUTION: which intent changed which files. */
export const intentMapHook: PostHook = {
	name: 'intent-map',
	priority: 10,
	async run(context: PostHookContext): Promise<void> {
		const evolved = context.callEvents.some(
			(event) =>
				event.type === 'mutation-record' &&
				event.trace.metadata['dev.threadline'].mutation_class === 'INTENT_EVOLUTION'
		);
		const statusChanged = context.callEvents.some(
			(event) => event.type === 'intent-status-change' || event.type === 'scope-expand'
		);
		if (!evolved && !statusChanged) return;
		const events = await context.allEvents();
		await context.fs.writeFile(
			intentMapPath,
			renderIntentMap(events, context.state.intents.intents)
		);
	}
};
