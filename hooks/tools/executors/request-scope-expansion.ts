import { addOwnedScope } from '../../intents/edit-intents-yaml.js';
import { writeIntentsYaml } from './write-intents-yaml.js';
import type { Executor } from './execution-context.js';

/** Runs only after the human approved: adds the paths to the intent's owned_scope in the YAML. */
export const requestScopeExpansion: Executor = async (context) => {
	const intentId = String(context.call.input.intent_id);
	const paths = context.call.input.paths as string[];
	const updated = addOwnedScope(context.state.intentsYaml, intentId, paths);
	await writeIntentsYaml(context, updated);
	context.emit({
		type: 'scope-expand',
		session_id: context.session.id,
		intent_id: intentId,
		paths,
		reason: String(context.call.input.reason)
	});
	return {
		ok: true,
		output: { intent_id: intentId, owned_scope: context.state.scope.patternsOf(intentId) },
		changes: []
	};
};
