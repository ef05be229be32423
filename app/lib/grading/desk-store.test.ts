import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { rubricSchema } from '../../../hooks/report/rubric.js';
import { clearStoredDesk, readStoredDesk, writeStoredDesk } from './desk-store.js';

describe('the grader desk kept across reloads', () => {
	it('keeps the exports (their bytes) and rubrics until Clear desk', async () => {
		const factory = new IDBFactory();
		expect(await readStoredDesk(factory)).toBeNull();
		const rubric = {
			scenarioId: 'jwt-auth',
			title: 'JWT',
			rubric: rubricSchema.parse({ criteria: [{ intent: 'INT-001', points: 5 }] })
		};
		const written = await writeStoredDesk(
			{
				sources: [
					{ kind: 'zip', name: 'alice.zip', content: new Blob([new Uint8Array([80, 75, 3, 4])]) }
				],
				rubrics: [{ name: 'scenario.yaml', rubric }]
			},
			factory
		);
		expect(written).toBeNull();
		const read = await readStoredDesk(factory);
		expect(read?.rubrics).toEqual([{ name: 'scenario.yaml', rubric }]);
		const source = read?.sources[0];
		expect(source?.kind).toBe('zip');
		if (source?.kind === 'zip')
			expect([...new Uint8Array(await source.content.arrayBuffer())]).toEqual([80, 75, 3, 4]);
		await clearStoredDesk(factory);
		expect(await readStoredDesk(factory)).toBeNull();
	});
});
