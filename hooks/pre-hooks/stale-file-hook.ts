import { toolError } from '../errors/tool-error.js';
import { allow, deny, skip, type Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';
import { fileMutatingTools } from '../tools/tool-catalog.js';

/**
 * Optimistic lock: a session may change an existing file only if it has seen the current content.
 * A change by a human or another session since the session's read makes the write stale.
 */
export const staleFileHook: PreHook = {
	name: 'stale-file',
	priority: 70,
	matcher: { tools: fileMutatingTools },
	async run(context: PreHookContext): Promise<Decision> {
		if (context.targets.length === 0) return skip;
		for (const path of context.targets) {
			const current = await context.files.hashOf(path);
			const seen = context.session.readBaselines.get(path);
			if (current === null) {
				if (seen === undefined) continue; // a new file: nothing to be stale against
				return deny(
					toolError(
						'stale_file',
						`${path} was deleted after you last read it.`,
						`List the folder again and decide whether to recreate ${path}.`
					)
				);
			}
			if (seen === undefined) {
				return deny(
					toolError(
						'stale_file',
						`${path} exists and you have not read it in this session.`,
						`Call read_file on ${path} first, then make your change against its current content.`
					)
				);
			}
			if (seen !== current) {
				return deny(
					toolError(
						'stale_file',
						`${path} changed since you last read it (edited by a human or another session).`,
						`Call read_file on ${path} again and redo your change against the new content.`
					)
				);
			}
		}
		return allow;
	}
};
