import { normalizeWorkspacePath } from '../paths/normalize-path.js';
import type { AgentSession } from '../pipeline/agent-session.js';
import type { ValidatedCall } from '../pipeline/hook-types.js';
import type { PolicySubject } from './match-policy-rule.js';

/** Read tools have no targets (they change nothing) but a rule may still name the path they read. */
const readTools = new Set(['read_file', 'list_files', 'search_files']);

export function policySubjectOf(
	call: ValidatedCall,
	session: AgentSession,
	targets: readonly string[]
): PolicySubject {
	const paths = [...targets];
	if (readTools.has(call.tool) && typeof call.input.path === 'string') {
		const normalised = normalizeWorkspacePath(call.input.path, { allowRoot: true });
		if (normalised.ok) paths.push(normalised.path);
	}
	return {
		tool: call.tool,
		paths,
		...(call.tool === 'execute_command' ? { command: String(call.input.command) } : {}),
		activeIntentId: session.activeIntentId
	};
}
