import type { ResolvedScenario } from '../ide/resolve-scenario.js';
import { shareWorkspace } from '../scenarios/scenario-workspace.js';
import { openShareFragment } from './share-link.js';

/**
 * A share link's scenario, or `null` when the URL has none. It is untrusted, like a remote
 * scenario, and gets a workspace of its own per shared content (`share:<fingerprint>`), so
 * opening a link never overwrites a workspace: opening it again reopens the work done in it.
 */
export async function sharedScenario(fragment: string): Promise<ResolvedScenario | null> {
	const opened = await openShareFragment(fragment);
	if (opened === null) return null;
	if (!opened.ok) throw new Error(opened.error);
	return {
		id: opened.bundle.manifest.id,
		bundle: opened.bundle,
		trusted: false,
		source: `share:${opened.fingerprint}`,
		workspace: shareWorkspace(opened.bundle.manifest.id, opened.fingerprint),
		...(opened.history ? { sharedHistory: opened.history } : {})
	};
}
