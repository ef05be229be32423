import { toolError } from '../errors/tool-error.js';
import { allow, deny, skip, type Decision } from '../pipeline/decision.js';
import type { PreHook, PreHookContext } from '../pipeline/hook-types.js';

/** Critical commands are denied outright; destructive ones go on to the approval policy. */
export const commandPolicyHook: PreHook = {
	name: 'command-policy',
	priority: 60,
	matcher: { tools: ['execute_command'] },
	run(context: PreHookContext): Decision {
		const command = context.command;
		if (!command) return skip;
		if (command.level !== 'critical') return allow;
		return deny(
			toolError(
				'command_denied',
				`Command denied: ${command.reasons.join('; ') || 'it is classified as critical'}.`,
				'Use a narrower command that only touches files inside your owned scope.'
			)
		);
	}
};
