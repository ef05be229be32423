import { toolError } from '../errors/tool-error.js';
import { governancePathKind, governancePathLabel } from '../paths/protected-paths.js';
import { allow, deny, skip, type Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';

/**
 * `.orchestration/`, `.git/` and `.intentignore` are never writable by agent tools or shell
 * commands, whatever the intent's owned_scope says and whatever a hook policy allows: a scope
 * that covers `.intentignore` would otherwise let an agent decide which intents ask the person.
 */
export const protectedPathHook: PreHook = {
	name: 'protected-path',
	priority: 10,
	run(context: PreHookContext): Decision {
		const paths =
			context.call.tool === 'request_scope_expansion'
				? ((context.call.input.paths as string[] | undefined) ?? [])
				: context.targets;
		if (paths.length === 0) return skip;
		for (const path of paths) {
			const kind = governancePathKind(path);
			if (!kind) continue;
			return deny(
				toolError(
					'protected_path',
					`Protected Path: ${path} is ${kind === 'intentignore' ? '' : 'under '}${governancePathLabel(kind)}, which agents can never change.`,
					'Leave governance files to the human. Change files inside your intent’s owned_scope instead.'
				)
			);
		}
		return allow;
	}
};
