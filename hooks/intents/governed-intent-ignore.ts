import { contentHash } from '../hashing/sha256.js';
import type { LedgerEvent } from '../ledger/ledger-event.js';
import { intentIgnorePath as intentIgnoreFile } from '../pipeline/governance-state.js';
import { parseIntentIgnore } from './intent-ignore.js';

/** The tool name of the one act that changes protection: the intents panel's Protected switch. */
export const intentProtectionTool = 'intent-protection';

/**
 * The last version of `.intentignore` that governance recorded, as its `sha256:` hash (`null`: no
 * file), or `undefined` when the ledger has no starting snapshot yet (the workspace's file is the
 * start). Governance records it twice only: the starting snapshot, and each change a person made
 * with the intents panel's Protected switch (a `human` mutation record with tool
 * `intent-protection`). Any other record of the file — an agent's or a terminal's write kept by
 * an older Threadline, a restore, a forged import — never decides which intents are protected.
 */
export function governedIntentIgnoreHash(
	events: readonly LedgerEvent[]
): string | null | undefined {
	let governed: string | null | undefined;
	let snapshotSeen = false;
	for (const event of events) {
		if (event.type === 'workspace-snapshot' && !snapshotSeen) {
			// Only the first snapshot: a later one must not launder an unrecorded change.
			snapshotSeen = true;
			governed = event.files[intentIgnoreFile] ?? null;
		} else if (event.type === 'mutation-record' && snapshotSeen) {
			const file = event.trace.files[0];
			const links = event.trace.metadata['dev.threadline'];
			if (
				file?.path === intentIgnoreFile &&
				links.tool === intentProtectionTool &&
				file.conversations.every((conversation) => conversation.contributor.type === 'human')
			)
				governed = links.file_hash;
		}
	}
	return governed;
}

export interface ProtectedIntents {
	/** The text the governance state reads its protected intents from. */
	text: string;
	/** Why protection does not follow the workspace's file as it is, or null. */
	problem: string | null;
}

/**
 * Which intents are protected when a workspace opens (a reload, an import): the governed version
 * of `.intentignore` (see governedIntentIgnoreHash), not whatever the file holds now. When the file
 * differs from it, both protect (an extra id only asks more); when the governed version's text is
 * not available, every intent is protected (fail closed) and the problem says so.
 */
export async function protectedIntentsAtOpen(options: {
	events: readonly LedgerEvent[];
	/** The workspace's `.intentignore` now, or null. */
	current: Uint8Array | null;
	/** The ledger's stored content for a hash (IndexedDbLedger.blob), or null. */
	blob: (hash: string) => Promise<Uint8Array | null>;
	intentIds: readonly string[];
}): Promise<ProtectedIntents> {
	const decoder = new TextDecoder();
	const currentText = options.current === null ? '' : decoder.decode(options.current);
	const governed = governedIntentIgnoreHash(options.events);
	if (governed === undefined) return { text: currentText, problem: null };
	const currentHash = options.current === null ? null : await contentHash(options.current);
	if (currentHash === governed) return { text: currentText, problem: null };
	let recorded: string | null = governed === null ? '' : null;
	if (governed !== null) {
		const bytes = await options.blob(governed).catch(() => null);
		if (bytes && (await contentHash(bytes)) === governed) recorded = decoder.decode(bytes);
	}
	if (recorded !== null) {
		const listedNow = [...parseIntentIgnore(currentText)];
		const extra = listedNow.filter((id) => !parseIntentIgnore(recorded).has(id));
		return {
			text: [recorded, ...extra].join('\n'),
			problem: `${intentIgnoreFile} differs from the version governance recorded; protection follows the recorded version${extra.length ? ` (and the file's ${extra.join(', ')})` : ''}. Change protection with the intents panel's Protected switch.`
		};
	}
	return {
		text: [currentText, ...options.intentIds].join('\n'),
		problem: `${intentIgnoreFile} differs from the version governance recorded, which this workspace no longer holds: every intent is protected until you set protection again in the intents panel.`
	};
}
