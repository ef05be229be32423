import type { LedgerEventDraft } from '../ledger/ledger-event.js';
import type { ChangeProposal } from '../tools/sandbox-ports.js';
import type { TraceAuthor } from './build-trace-record.js';
import { followGovernanceFile, type PipelineParts } from './pipeline-parts.js';
import {
	fileChangesOfEntries,
	personPathCheck,
	reviewEntryChanges,
	type ReviewedChanges
} from './shell-transaction.js';

/**
 * The review of a person's terminal line (pass it as the line's `review`): the same
 * transaction as an agent's command, but without a scope rule. Governance paths
 * (`.orchestration/`, `.git/`, `.intentignore`: personPathCheck), links and names the core
 * cannot govern are refused, whatever wrote them (the line, an npm script, git); everything else is committed together with
 * its records (contributor \`human\`, tool \`terminal\`) in one step.
 *
 * Deliberately not under the pipeline's lock: the sandbox runs this while it holds its own
 * command queue, and an agent's call may hold the lock while waiting for that queue.
 */
export function terminalReview(
	parts: PipelineParts,
	options: { sessionId?: string; onReviewed?: (review: ReviewedChanges) => void } = {}
): (proposal: ChangeProposal) => Promise<void> {
	return async (proposal) => {
		const review = reviewEntryChanges(proposal.entries, personPathCheck);
		const author: TraceAuthor = {
			sessionId: options.sessionId ?? 'human',
			contributor: 'human',
			intentId: null,
			tool: 'terminal',
			toolCallId: null,
			declaredClass: null
		};
		const drafts: LedgerEventDraft[] = review.refused.map(({ entry, error }) => ({
			type: 'change-revert',
			session_id: author.sessionId,
			tool: 'terminal',
			tool_call_id: 'terminal',
			path: entry.path,
			code: error.code
		}));
		drafts.push(...(await parts.writer.transactionDrafts(review.allowed, author, null)));
		const paths = review.allowed.map((entry) => entry.path);
		if (drafts.length > 0 || paths.length > 0)
			await parts.writer.commit([], drafts, () => proposal.commit(paths));
		for (const change of fileChangesOfEntries(review.allowed))
			followGovernanceFile(parts, change.path, change.after);
		options.onReviewed?.(review);
	};
}
