import { describe, expect, it } from 'vitest';
import { buildMixedLedger } from '../../../hooks/ledger/ledger-test-fixtures.js';
import { zipEntries } from '../../../hooks/ledger/read-export.js';
import { orchestrationZipEntries } from '../ledger/export-orchestration.js';
import { createGradeWorker } from './grade-worker.js';
import type { GradeResponse } from './grade-protocol.js';

async function mixedZip(extra?: [string, string]): Promise<Blob> {
	const { events, workspace } = await buildMixedLedger();
	const files = new Map(workspace);
	if (extra) files.set(extra[0], new TextEncoder().encode(extra[1]));
	const entries = orchestrationZipEntries({
		events,
		activeIntentsYaml: 'active_intents: []\n',
		intents: [],
		files
	});
	return new Blob([zipEntries(entries) as Uint8Array<ArrayBuffer>]);
}

describe('the grading Worker', () => {
	it('grades zips with the CLI code, names unattributed files, and keeps going after an unreadable one', async () => {
		const responses: GradeResponse[] = [];
		const worker = createGradeWorker((response) => responses.push(response));
		await worker.handle({
			type: 'grade',
			id: 1,
			source: { kind: 'zip', name: 'clean.zip', content: await mixedZip() },
			rubrics: []
		});
		await worker.handle({
			type: 'grade',
			id: 2,
			source: { kind: 'zip', name: 'junk.zip', content: new Blob(['not a zip']) },
			rubrics: []
		});
		await worker.handle({
			type: 'grade',
			id: 3,
			source: { kind: 'zip', name: 'extra.zip', content: await mixedZip(['src/extra.ts', 'x\n']) },
			rubrics: []
		});
		const graded = responses.flatMap((response) =>
			response.type === 'graded' ? [response.summary] : []
		);
		expect(graded.map((summary) => [summary.name, summary.verified])).toEqual([
			['clean.zip', true],
			['extra.zip', false]
		]);
		expect(graded[1]?.unattributed).toEqual(['src/extra.ts']);
		expect(graded[1]?.stopSeq).toBeNull();
		const failed = responses.find((response) => response.type === 'failed');
		expect(failed).toMatchObject({ id: 2, name: 'junk.zip' });

		await worker.handle({ type: 'detail', id: 1 });
		const detail = responses.find((response) => response.type === 'detail');
		expect(detail?.type === 'detail' && detail.detail.events.length).toBeGreaterThan(10);
	});
});
