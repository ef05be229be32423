import type { MutationClass } from '../ledger/agent-trace-record.js';
import type { LedgerEvent, LedgerEventDraft } from '../ledger/ledger-event.js';
import type { ExecutionContext } from '../tools/executors/execution-context.js';
import type { AgentSession } from './agent-session.js';
import type { TraceAuthor } from './build-trace-record.js';
import type { ValidatedCall } from './hook-types.js';
import { followGovernanceFile, type PipelineParts } from './pipeline-parts.js';
import { fileChangesOfEntries } from './shell-transaction.js';

/** Tools whose executor only plans file changes; the pipeline commits them with their records. */
export const plannedWriteTools = new Set(['write_to_file', 'apply_diff', 'delete_file']);

/** Who an agent's change is recorded as: its session, model, intent and tool call. */
export function agentAuthor(call: ValidatedCall, session: AgentSession): TraceAuthor {
	return {
		sessionId: session.id,
		contributor: 'ai',
		modelId: session.modelId,
		intentId: session.activeIntentId,
		tool: call.tool,
		toolCallId: call.toolCallId,
		declaredClass: (call.input.mutation_class as MutationClass | undefined) ?? null
	};
}

/** What an executor sees of the pipeline: the sandbox ports, the session and ways to record. */
export function executionContext(
	parts: PipelineParts,
	call: ValidatedCall,
	session: AgentSession,
	targets: string[],
	emit: (draft: LedgerEventDraft) => void,
	signal?: AbortSignal,
	committed: LedgerEvent[] = []
): ExecutionContext {
	const options = parts.options;
	return {
		call,
		session,
		state: parts.state,
		fs: options.fs,
		runner: options.runner,
		capabilities: options.capabilities,
		nowMs: () => options.clock.nowMs(),
		targets,
		emit,
		signal,
		...(options.commitWork ? { commitWork: options.commitWork } : {}),
		commitShellChanges: async (entries, drafts, apply) => {
			const author = agentAuthor(call, session);
			const records = await parts.writer.transactionDrafts(entries, author, call.toolCallId);
			committed.push(...(await parts.writer.commit([], [...drafts, ...records], apply)));
			for (const change of fileChangesOfEntries(entries))
				followGovernanceFile(parts, change.path, change.after);
		},
		history: async () => {
			const events = await options.ledger.events();
			const trace = [];
			const lessons = [];
			for (const event of events) {
				if (event.type === 'mutation-record') trace.push(event.trace);
				else if (event.type === 'lesson-record')
					lessons.push({
						intent_id: event.intent_id,
						lesson: event.lesson,
						category: event.category
					});
			}
			return { trace, lessons };
		}
	};
}
