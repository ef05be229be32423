/**
 * Set-up shared by the tests of WorkspaceChanges and of what builds on it (steps): the real test
 * pipeline over an in-memory fs, a Workspace on it, the starting snapshot recorded, the ledger's
 * events as reactive state, and the contents a restore may need kept as blobs. Only tests import
 * this file.
 */
import { contentHash } from '../../../hooks/hashing/sha256.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import { createTestPipeline } from '../../../hooks/pipeline/pipeline-test-kit.js';
import { Workspace } from '../workspace/workspace.svelte.js';
import { WorkspaceChanges } from './workspace-changes.svelte.js';

export async function workspaceChangesKit(options: {
	files: Record<string, string>;
	/** Texts whose contents the ledger keeps (a restore reads them back by hash). */
	keptTexts: readonly string[];
}) {
	const session = createTestPipeline({ files: options.files });
	const workspace = new Workspace(session.fs);
	await workspace.refresh();
	await session.pipeline.recordWorkspaceSnapshot(session.fs.paths());
	const source = $state({ events: [] as readonly LedgerEvent[] });
	/** Reads the ledger's events again (the IDE's subscription does this). */
	const refresh = async () => {
		source.events = [...(await session.ledger.events())];
	};
	await refresh();
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup for the test, never rendered
	const blobs = new Map(
		await Promise.all(
			options.keptTexts.map(
				async (text) => [await contentHash(text), new TextEncoder().encode(text)] as const
			)
		)
	);
	const notices: string[] = [];
	const changes = new WorkspaceChanges(
		{
			get events() {
				return source.events;
			},
			pipeline: session.pipeline,
			blob: async (hash) => blobs.get(hash) ?? null
		},
		workspace,
		(message) => notices.push(message)
	);
	return {
		...session,
		workspace,
		changes,
		notices,
		refresh,
		/** The ledger's events as the last refresh read them. */
		events: (): readonly LedgerEvent[] => source.events
	};
}
