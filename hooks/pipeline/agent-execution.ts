import type { ToolError } from '../errors/tool-error.js';
import { contentHash } from '../hashing/sha256.js';
import type { LedgerEvent, LedgerEventDraft } from '../ledger/ledger-event.js';
import { executors } from '../tools/executors/executors.js';
import { finishDraft } from './agent-call-drafts.js';
import { agentAuthor, executionContext, plannedWriteTools } from './agent-execution-context.js';
import type { AgentSession } from './agent-session.js';
import { executorFailure } from './executor-failure.js';
import type { ValidatedCall } from './hook-types.js';
import type { PipelineParts } from './pipeline-parts.js';
import type { Scheduler } from './ports.js';
import { defaultHookTimeoutMs } from './run-pre-hooks.js';
import type { ToolOutcome } from './tool-outcome.js';

/**
 * An allowed call runs: the executor in the sandbox, its changes committed with their trace
 * records and the decision drafts in one step, then the post-hooks (which never change the
 * result; a failing one is recorded), then the finish event. Runs under the pipeline's lock.
 */
export async function executeAllowedCall(
	parts: PipelineParts,
	call: ValidatedCall,
	session: AgentSession,
	targets: string[],
	drafts: LedgerEventDraft[],
	signal?: AbortSignal
): Promise<ToolOutcome> {
	const options = parts.options;
	const emitted: LedgerEventDraft[] = [];
	const executorCommitted: LedgerEvent[] = [];
	let outcome: ToolOutcome;
	try {
		outcome = await executors[call.tool](
			executionContext(
				parts,
				call,
				session,
				targets,
				(draft) => emitted.push(draft),
				signal,
				executorCommitted
			)
		);
	} catch (error) {
		outcome = { ok: false, error: executorFailure(call.tool, error), changes: [] };
	}
	const author = agentAuthor(call, session);
	const records: LedgerEventDraft[] = [];
	if (!outcome.changesRecorded)
		for (const change of outcome.changes)
			records.push(await parts.writer.traceDraft(change, author));
	const writes = plannedWriteTools.has(call.tool) && outcome.ok ? outcome.changes : [];
	for (const draft of emitted) drafts.push(draft);
	for (const record of records) drafts.push(record);
	for (const draft of emitted)
		if (draft.type === 'change-revert') parts.files.invalidate?.(draft.path);
	const committed = [...executorCommitted, ...(await parts.writer.commit(writes, drafts))];

	// The session has seen what it wrote: its own writes never make its next write stale.
	for (const change of outcome.changes) {
		if (change.after === null) session.readBaselines.delete(change.path);
		else session.readBaselines.set(change.path, await contentHash(change.after));
	}

	const postDrafts: LedgerEventDraft[] = [];
	let checkFailure: ToolError | null = null;
	for (const hook of parts.registry.postHooksFor(call.tool, targets)) {
		try {
			await withTimeout(
				options.scheduler,
				hook.name,
				hook.timeoutMs ?? defaultHookTimeoutMs,
				hook.run({
					call,
					session,
					state: parts.state,
					outcome,
					fs: options.fs,
					callEvents: committed,
					allEvents: () => options.ledger.events(),
					emit: (draft) => postDrafts.push(draft),
					nowIso: () => options.clock.nowIso(),
					runner: options.runner,
					consentToCheck: (command) => {
						const consent = options.checkConsent;
						return consent
							? Promise.resolve()
									.then(() => consent(command))
									.then((answer) => answer === true)
									.catch(() => false)
							: Promise.resolve(true);
					},
					signal,
					fail: (error) => {
						checkFailure ??= error;
					}
				})
			);
		} catch (error) {
			// Post-hooks never change the result; their failure is recorded for the grader.
			postDrafts.push({
				type: 'hook-error',
				session_id: session.id,
				hook: hook.name,
				tool: call.tool,
				tool_call_id: call.toolCallId,
				message: error instanceof Error ? error.message : String(error)
			});
		}
	}
	// A failed post-write check (a scenario `run` rule) goes back to the agent as its ToolError.
	if (checkFailure && outcome.ok)
		outcome = { ok: false, error: checkFailure, changes: outcome.changes };
	postDrafts.push(finishDraft(call, session, outcome));
	await parts.writer.append(postDrafts);
	return outcome;
}

/** A post-hook that never settles must not hold the call (and the lock) forever. */
async function withTimeout(
	scheduler: Scheduler,
	name: string,
	timeoutMs: number,
	work: void | Promise<void>
): Promise<void> {
	if (!(work instanceof Promise)) return;
	const controller = new AbortController();
	const timeout = scheduler.delay(timeoutMs, controller.signal).then(() => {
		throw new Error(`${name} timed out after ${timeoutMs} ms`);
	});
	try {
		await Promise.race([work, timeout]);
	} finally {
		controller.abort();
		timeout.catch(() => undefined);
	}
}
