import type { ChangeProposal } from '../hooks/tools/sandbox-ports.js';

/**
 * The review of a caller that governs nothing because there is nothing to govern: tests, the
 * CLI's throw-away sandboxes, benches. A sandbox commits nothing unless a review says so (a
 * caller that forgets the review loses the command's writes instead of bypassing the hooks), so
 * such callers say it out loud with this.
 */
export async function commitEveryChange(proposal: ChangeProposal): Promise<void> {
	await proposal.commit(proposal.entries.map((entry) => entry.path));
}
