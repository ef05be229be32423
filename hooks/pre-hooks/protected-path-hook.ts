import { toolError } from '../errors/tool-error.js';
import { isProtectedPath } from '../paths/protected-paths.js';
import { allow, deny, skip, type Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';

/** `.orchestration/` and `.git/` are never writable by agent tools or shell commands. */
export const protectedPathHook: PreHook = {
	name: 'protected-path',
	priority: 10,
	run(context: PreHookContext): Decision {
		const paths =
			context.call.tool === 'request_scope_expansion'
				? ((context.call.input.paths as string[] | undefined) ?? [])
				: context.targets;
		if (paths.length === 0) return skip;
		const blocked = paths.find((path) => isProtectedPath(path));
		if (!blocked) return allow;
		return deny(
			toolError(
				'protected_path',
				`Protected Path: ${blocked} is under ${blocked.toLowerCase().startsWith('.git') ? '.git/' : '.orchestration/'}, which agents can never change.`,
				'Leave governance files to the human. Change files inside your intent’s owned_scope instead.'
			)
		);
	}
};
