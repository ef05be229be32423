import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	docsEndMarker,
	docsStartMarker,
	failureGroups,
	renderCorpusDocs,
	withCorpusDocs,
	type CorpusResults
} from './corpus-report.js';
import {
	corpusDocumentFiles,
	documentWithCorpusDocs,
	readCorpusResults
} from './corpus-results-file.js';
import { loadCorpusManifest, repositoryRoot } from './corpus-workspace.js';
import { parseTapSummary } from './tap-summary.js';

describe('the corpus documentation', () => {
	it('README.md and sandbox/CONTEXT.md hold what the committed results render', async () => {
		const block = renderCorpusDocs(readCorpusResults());
		for (const file of corpusDocumentFiles) {
			const path = join(repositoryRoot, file);
			const text = readFileSync(path, 'utf8');
			expect(text.split(docsStartMarker).length - 1, `${file} holds the block once`).toBe(1);
			expect(
				await documentWithCorpusDocs(path, text, block),
				`${file} is out of date: node bin/run-ts.js sandbox/local/node-runtime/corpus/write-corpus-docs.ts`
			).toBe(text);
		}
	});

	it('the committed results cover every library of the manifest', () => {
		const names = readCorpusResults().libraries.map((library) => library.name);
		expect(names).toEqual(loadCorpusManifest().libraries.map((library) => library.name));
	});

	it('renders the rate from the counts and groups failures by error', () => {
		const results: CorpusResults = {
			node: 'v20.0.0',
			libraries: [
				{
					name: 'a',
					version: '1.0.0',
					license: 'MIT',
					repository: 'https://example.test/a',
					credit: 'A',
					files: 1,
					real: { tests: 4, pass: 4, fail: 0, skipped: 0, todo: 0 },
					offline: {
						tests: 4,
						pass: 3,
						fail: 1,
						cancelled: 0,
						skipped: 0,
						todo: 0,
						exitCode: 1,
						complete: true
					},
					failures: [{ name: 'x', error: 'boom' }]
				}
			]
		};
		const text = renderCorpusDocs(results);
		expect(text).toContain('**3 of 4 tests pass (75.0 %)**');
		expect(text).toContain('1 × `boom` (a: x)');
		expect(failureGroups(results)).toEqual([{ error: 'boom', tests: ['a: x'] }]);
		expect(() => withCorpusDocs('no markers', text)).toThrow(/markers/);
		expect(withCorpusDocs(`a\n${docsStartMarker}\nold\n${docsEndMarker}\nb`, 'new')).toBe(
			`a\n${docsStartMarker}\nnew\n${docsEndMarker}\nb`
		);
	});

	it('reads the summary and the failed tests of Node 20 TAP', () => {
		const summary = parseTapSummary(
			[
				'TAP version 13',
				'# Subtest: s',
				'    # Subtest: inner',
				'    not ok 1 - inner',
				'      ---',
				"      failureType: 'testCodeFailure'",
				'      error: |-',
				'        Expected values to be strictly equal:',
				'      ...',
				'    1..1',
				'not ok 1 - s',
				'  ---',
				"  failureType: 'subtestsFailed'",
				"  error: '1 subtest failed'",
				'  ...',
				'1..1',
				'# tests 1',
				'# suites 1',
				'# pass 0',
				'# fail 1',
				'# cancelled 0',
				'# skipped 0',
				'# todo 0'
			].join('\n')
		);
		expect(summary).toMatchObject({ tests: 1, suites: 1, pass: 0, fail: 1, complete: true });
		expect(summary.failures).toEqual([
			{ name: 'inner', error: 'Expected values to be strictly equal:' }
		]);
		expect(parseTapSummary('ok 1 - cut short').complete).toBe(false);
	});
});
