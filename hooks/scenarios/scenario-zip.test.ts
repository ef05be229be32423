import { zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readScenarioZip } from './scenario-zip.js';
import { sampleBundle, sampleEntries } from './scenario-test-fixtures.js';

function zipOf(entries: Map<string, Uint8Array>, prefix = ''): Uint8Array {
	const zippable: Zippable = {};
	for (const [path, content] of entries) zippable[`${prefix}${path}`] = content;
	return zipSync(zippable);
}

function problemOf(bytes: Uint8Array): string {
	const { bundle, problems } = readScenarioZip(bytes);
	expect(bundle).toBeNull();
	return problems.map((problem) => `${problem.file}: ${problem.message}`).join('\n');
}

describe('readScenarioZip', () => {
	it('reads a zip of the folder contents and a zip of the folder itself', () => {
		expect(readScenarioZip(zipOf(sampleEntries()))).toEqual({
			bundle: sampleBundle(),
			problems: []
		});
		const withMacLitter = sampleEntries();
		withMacLitter.set('__MACOSX/sample/._scenario.yaml', new Uint8Array([0, 1]));
		expect(readScenarioZip(zipOf(withMacLitter, 'sample/')).bundle).toEqual(sampleBundle());
	});

	it('says what is wrong with a zip that is not one scenario', () => {
		expect(problemOf(new TextEncoder().encode('<html>not a zip</html>'))).toMatch(
			/^zip: not a zip file/
		);
		expect(problemOf(zipOf(new Map([['README.md', new Uint8Array([65])]])))).toMatch(
			/no scenario\.yaml found \(looked at the top level and one folder down\)/
		);
		const two = zipSync({
			'a/scenario.yaml': new Uint8Array([65]),
			'b/scenario.yaml': new Uint8Array([65])
		});
		expect(problemOf(two)).toMatch(/several scenarios found \(a\/, b\/\)/);
	});

	it('refuses entries that would land outside the folder', () => {
		const zip = zipOf(sampleEntries({ '../escape.txt': 'x' }));
		expect(problemOf(zip)).toMatch(/entry "\.\.\/escape\.txt" has a "\.\." segment/);
	});

	it('refuses too many entries and declared sizes beyond the limit before inflating', () => {
		const many: Zippable = {};
		for (let index = 0; index < 2_100; index++) many[`files/f${index}.txt`] = new Uint8Array(0);
		const tooMany = readScenarioZip(zipSync(many));
		expect(tooMany.problems).toEqual([
			expect.objectContaining({
				exceedsLimit: true,
				message: expect.stringMatching(/more than 2032 entries/)
			})
		]);

		// 23 MB of zeros compresses to a few KB: a small download that would unpack too large.
		const bomb = zipSync({ 'files/zeros.bin': new Uint8Array(23 * 1024 * 1024) }, { level: 9 });
		expect(bomb.length).toBeLessThan(100_000);
		expect(readScenarioZip(bomb).problems).toEqual([
			expect.objectContaining({
				exceedsLimit: true,
				message: expect.stringMatching(/unpacks to more than 22 MB/)
			})
		]);
	});

	it('passes the folder checks through (paths, intents, demo)', () => {
		const zip = zipOf(
			sampleEntries({ 'files/.orchestration/active_intents.yaml': 'active_intents: 3\n' })
		);
		expect(problemOf(zip)).toMatch(
			/^files\/\.orchestration\/active_intents\.yaml: active_intents must be a list/
		);
	});
});
