import { describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { appDialogs } from '../dialogs/app-dialogs.svelte.js';
import { workspaceChangesKit } from './workspace-changes-test-kit.svelte.js';

const texts = ['export const session = 1;\n', '# Demo\n', 'export const sign = 1;\n', '# Mine\n'];

async function setUp() {
	const kit = await workspaceChangesKit({
		files: { 'src/auth/session.ts': texts[0] as string, 'README.md': texts[1] as string },
		keptTexts: texts
	});
	const { workspace, refresh, events } = kit;
	const agentWrites = async (path: string, content: string) => {
		const before = events().length;
		const outcome = await kit.call('write_to_file', {
			path,
			content,
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
		expect(outcome.ok).toBe(true);
		await workspace.refresh();
		await refresh();
		return events().slice(before);
	};
	await kit.call('select_active_intent', { intent_id: 'INT-001' });
	await refresh();
	return { ...kit, agentWrites };
}

describe('WorkspaceChanges', () => {
	it('lists the agent write, marks the tree and opens the file the agent wrote', async () => {
		const { changes, workspace, agentWrites } = await setUp();
		globalThis.localStorage?.clear?.();
		const events = await agentWrites('src/auth/jwt.ts', texts[2] as string);
		changes.followEvents(events);
		await Promise.resolve();
		flushSync();
		expect(changes.changes.files.map((change) => [change.path, change.status])).toEqual([
			['src/auth/jwt.ts', 'new']
		]);
		expect(workspace.changeMarks.files.get('src/auth/jwt.ts')).toBe('new');
		expect(workspace.changeMarks.folders.has('src/auth')).toBe(true);
		await expect.poll(() => workspace.activePath).toBe('src/auth/jwt.ts');
		expect(workspace.expanded.has('src/auth')).toBe(true);
	});

	it('does not follow when the setting is off, nor away from unsaved edits', async () => {
		const { changes, workspace, agentWrites } = await setUp();
		changes.setFollowAgent(false);
		changes.followEvents(await agentWrites('src/auth/a.ts', texts[2] as string));
		await Promise.resolve();
		expect(workspace.activePath).toBeNull();
		changes.setFollowAgent(true);
		await workspace.open('README.md');
		workspace.edit('README.md', 'typing…');
		changes.followEvents(await agentWrites('src/auth/b.ts', texts[2] as string));
		await Promise.resolve();
		expect(workspace.activePath).toBe('README.md');
	});

	it('shows the session diff and a tool call diff full width', async () => {
		const { changes, workspace, agentWrites } = await setUp();
		await agentWrites('src/auth/jwt.ts', texts[2] as string);
		await changes.showSessionDiff('src/auth/jwt.ts');
		expect(workspace.diff).toMatchObject({
			path: 'src/auth/jwt.ts',
			original: null,
			modified: texts[2],
			unavailable: null
		});
		expect(workspace.showingDiff).toBe(true);
		workspace.closeDiff();
		await changes.showToolCallDiff('call-2');
		expect(workspace.diff?.title).toMatch(/event #\d+/);
		await changes.showToolCallDiff('no-such-call');
	});

	it('restores a checkpoint after the confirmation, through the pipeline, as a human change', async () => {
		const { changes, fs, agentWrites, refresh, notices, pipeline } = await setUp();
		const checkpoint = changes.checkpoints.at(-1)?.seq as number;
		await agentWrites('src/auth/jwt.ts', texts[2] as string);
		await pipeline.recordHumanEdit({ path: 'README.md', content: texts[3] as string });
		await refresh();
		// Cancelled: nothing changes.
		const cancelled = changes.restore(checkpoint);
		await Promise.resolve();
		expect(appDialogs.current?.title).toBe(`Restore to event #${checkpoint}`);
		appDialogs.settle(false);
		expect(await cancelled).toBe(false);
		expect(await fs.readTextFile('README.md')).toBe(texts[3]);
		// Confirmed: the files are back and the restore is in the ledger.
		const confirmed = changes.restore(checkpoint);
		await Promise.resolve();
		expect(appDialogs.current?.kind).toBe('confirm');
		appDialogs.settle(true);
		expect(await confirmed).toBe(true);
		expect(await fs.readTextFile('README.md')).toBe(texts[1]);
		expect(await fs.stat('src/auth/jwt.ts')).toBeNull();
		expect(notices.at(-1)).toContain('2 files changed');
		await refresh();
		expect(changes.changes.files).toEqual([]);
	});

	it('says why a checkpoint cannot be restored', async () => {
		const { changes, notices } = await setUp();
		expect(await changes.restore(999)).toBe(false);
		expect(notices.at(-1)).toContain('999');
	});
});
