import { activeIntentsPath } from '../../pipeline/governance-state.js';
import type { ExecutionContext } from './execution-context.js';

/**
 * The system (never an agent tool) rewrites `.orchestration/active_intents.yaml` after an approved
 * scope expansion or a completion, and the governance state follows at once.
 */
export async function writeIntentsYaml(context: ExecutionContext, updated: string): Promise<void> {
	const reloaded = context.state.reloadIntents(updated);
	if (!reloaded.ok) throw new Error('the updated intents file did not parse');
	await context.fs.writeFile(activeIntentsPath, updated);
}
