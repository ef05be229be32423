import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { draftFromManifest } from './scenario-export.js';
import { discardDraft, readDraft, writeDraft } from './draft-store.js';

describe('the scenario draft kept as it is typed', () => {
	it('survives a reopen (a reload) per workspace, until Discard draft', async () => {
		const factory = new IDBFactory();
		const draft = { ...draftFromManifest(null), id: 'my-scenario', rubric: 'criteria: [' };
		expect(
			await writeDraft('threadline-workspace-a', { draft, promptsText: 'p', savedAt: 't' }, factory)
		).toBeNull();
		expect((await readDraft('threadline-workspace-a', factory))?.draft).toEqual(draft);
		expect(await readDraft('threadline-workspace-b', factory)).toBeNull();
		await discardDraft('threadline-workspace-a', factory);
		expect(await readDraft('threadline-workspace-a', factory)).toBeNull();
	});

	it('says so when the draft cannot be stored', async () => {
		const failing = {
			open: () => {
				throw new DOMException('full', 'QuotaExceededError');
			}
		} as unknown as IDBFactory;
		expect(
			await writeDraft(
				'k',
				{ draft: draftFromManifest(null), promptsText: '', savedAt: '' },
				failing
			)
		).toMatch(/no room left.*NOT stored/);
	});
});
