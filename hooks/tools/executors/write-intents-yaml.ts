import { contentHash } from '../../hashing/sha256.js';
import { encodeText } from '../../hashing/text-encoding.js';
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
	// issue 7 (verify): every version of the intents file is in the ledger, so verify can check the
	// exported file against the last one (a scope widened after the fact fails verify).
	context.emit({
		type: 'governance-file-write',
		session_id: context.session.id,
		path: activeIntentsPath,
		file_hash: await contentHash(encodeText(updated)),
		content: updated
	});
}
