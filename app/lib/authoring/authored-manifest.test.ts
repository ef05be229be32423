import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { authoredManifest } from './authored-manifest.js';
import { writeDraft } from './draft-store.js';
import { draftFromManifest } from './scenario-export.js';

describe('Share carries the authored scenario', () => {
	it('uses the newest valid draft of the workspace (title, brief, steps), else says why not', async () => {
		const factory = new IDBFactory();
		expect(await authoredManifest('ws', factory)).toBeNull();
		const draft = {
			...draftFromManifest(null),
			id: 'greetings',
			title: 'Greetings',
			summary: 'Say hello',
			brief: '# Greet people',
			steps: '- title: Greet\n  brief: Write greet.\n  intents: [INT-001]\n'
		};
		await writeDraft(
			'ws:current',
			{ draft: { ...draft, title: 'Old' }, promptsText: '', savedAt: '2026-01-01T00:00:00.000Z' },
			factory
		);
		await writeDraft(
			'ws:blank',
			{ draft, promptsText: 'Hi\n', savedAt: '2026-01-02T00:00:00.000Z' },
			factory
		);
		const authored = await authoredManifest('ws', factory);
		expect(authored && 'manifest' in authored ? authored.manifest : null).toMatchObject({
			id: 'greetings',
			title: 'Greetings',
			brief: '# Greet people',
			suggested_prompts: ['Hi'],
			steps: [{ title: 'Greet', intents: ['INT-001'] }]
		});
		await writeDraft(
			'ws:blank',
			{ draft: { ...draft, title: '' }, promptsText: '', savedAt: '2026-01-03T00:00:00.000Z' },
			factory
		);
		expect(await authoredManifest('ws', factory)).toEqual({ problems: 1 });
	});
});
