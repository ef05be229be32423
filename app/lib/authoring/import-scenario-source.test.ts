import { describe, expect, it } from 'vitest';
import { zipEntries } from '../../../hooks/ledger/read-export.js';
import { readScenarioZip } from '../../../hooks/scenarios/scenario-zip.js';
import { importPickedFiles, type PickedFile } from './import-scenario-source.js';

const encoder = new TextEncoder();

function picked(files: Record<string, string>): PickedFile[] {
	return Object.entries(files).map(([path, text]) => {
		const bytes = encoder.encode(text);
		return { path, size: bytes.length, read: async () => bytes };
	});
}

const tutorial = {
	'my-tutorial/src/content/tutorial/meta.md': '---\ntype: tutorial\ntitle: Picked Tutorial\n---\n',
	'my-tutorial/src/content/tutorial/1-a/1-b/1-c/content.md': '---\ntitle: First\n---\nDo it.\n',
	'my-tutorial/src/content/tutorial/1-a/1-b/1-c/_files/a.js': 'a\n',
	'my-tutorial/node_modules/huge/index.js': 'ignored\n'
};

describe('the workbench import', () => {
	it('a picked TutorialKit folder becomes a scenario zip the remote loader reads', async () => {
		const result = await importPickedFiles(picked(tutorial));
		if (!result.ok) throw new Error(result.problem);
		expect(result.fileName).toBe('picked-tutorial.zip');
		const read = readScenarioZip(result.zip);
		expect(read.problems).toEqual([]);
		expect(read.bundle?.manifest.steps?.[0]?.title).toBe('First');
		expect(Object.keys(read.bundle?.files ?? {})).toContain('a.js');
	});

	it('a zip of the same folder gives the same scenario', async () => {
		const zip = zipEntries(
			new Map(Object.entries(tutorial).map(([path, text]) => [path, encoder.encode(text)]))
		);
		const result = await importPickedFiles([
			{ path: 'my-tutorial.zip', size: zip.length, read: async () => zip }
		]);
		expect(result.ok && result.fileName).toBe('picked-tutorial.zip');
	});

	it('an autograding.json becomes the Classroom scenario', async () => {
		const result = await importPickedFiles(
			picked({
				'autograding.json': JSON.stringify({ tests: [{ name: 'runs', run: 'true', points: 2 }] })
			})
		);
		if (!result.ok) throw new Error(result.problem);
		expect(readScenarioZip(result.zip).bundle?.manifest.rubric?.criteria).toEqual([
			{ intent: 'INT-001', points: 2 }
		]);
	});

	it('refuses by size before reading, and hostile paths by name', async () => {
		let read = false;
		const huge = await importPickedFiles([
			{
				path: 'big/x.bin',
				size: 50 * 1024 * 1024,
				read: async () => ((read = true), new Uint8Array())
			}
		]);
		expect(huge.ok === false && huge.problem).toContain('big/x.bin is 52428800 bytes');
		expect(read).toBe(false);
		const escaping = await importPickedFiles(picked({ 'content.md': 'x', '../up.txt': 'x' }));
		expect(escaping.ok === false && escaping.problem).toContain('"../up.txt" has a ".." segment');
	});
});
