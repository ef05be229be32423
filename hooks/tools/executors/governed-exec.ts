import type { ToolError } from '../../errors/tool-error.js';
import type { LedgerEventDraft } from '../../ledger/ledger-event.js';
import {
	agentPathCheck,
	describeReview,
	fileChangesOfEntries,
	reviewEntryChanges,
	type ReviewedChanges
} from '../../pipeline/shell-transaction.js';
import { scopeViolationMessage } from '../../pre-hooks/scope-hook.js';
import type { EntryChange, ExecResult, FileChange } from '../sandbox-ports.js';
import type { ExecutionContext } from './execution-context.js';

export interface GovernedExecResult {
	result: ExecResult;
	/** The committed file changes (already recorded in the ledger). */
	kept: FileChange[];
	/** Every committed path, folders included. */
	keptEntries: EntryChange[];
	refused: ReviewedChanges['refused'];
	/** The first refusal, its message listing everything kept and refused; null when none. */
	violation: ToolError | null;
}

/**
 * THE way a governed command runs (the agent's execute_command, acceptance criteria, hook-policy
 * `run` commands): as a transaction. The sandbox runs it on a copy-on-write view and proposes its
 * changes; here the whole set is checked against protected paths and `intentId`'s scope, and the
 * allowed part is committed together with its ledger records (refusals recorded as
 * `change-revert` events, meaning "never applied") in one step. Nothing refused ever reaches the
 * workspace, so there is no revert that could fail half-way.
 */
export async function runGovernedCommand(
	context: ExecutionContext,
	command: string,
	options: { cwd?: string; timeoutMs: number; intentId: string | null }
): Promise<GovernedExecResult> {
	let review: ReviewedChanges = { allowed: [], refused: [] };
	let reviewed = false;
	const result = await context.runner.exec(command, {
		...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
		timeoutMs: options.timeoutMs,
		signal: context.signal,
		review: async (proposal) => {
			reviewed = true;
			review = reviewEntryChanges(
				proposal.entries,
				agentPathCheck({
					intentId: options.intentId,
					isInScope: (intentId, path) => context.state.scope.isInScope(intentId, path),
					scopeMessage: scopeViolationMessage
				})
			);
			const drafts: LedgerEventDraft[] = review.refused.map(({ entry, error }) => ({
				type: 'change-revert',
				session_id: context.session.id,
				tool: context.call.tool,
				tool_call_id: context.call.toolCallId,
				path: entry.path,
				code: error.code
			}));
			const paths = review.allowed.map((entry) => entry.path);
			await context.commitShellChanges(review.allowed, drafts, () => proposal.commit(paths));
		}
	});
	if (!reviewed) {
		// A backend that ignores `review` would have applied everything unchecked: never trust it.
		throw new Error('The sandbox ran the command without a transaction; its changes are unchecked');
	}
	const first = review.refused[0]?.error ?? null;
	const violation = first
		? { ...first, message: `${first.message} ${describeReview(review)}` }
		: null;
	return {
		result,
		kept: fileChangesOfEntries(review.allowed),
		keptEntries: review.allowed,
		refused: review.refused,
		violation
	};
}
