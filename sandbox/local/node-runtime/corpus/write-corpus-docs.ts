// Writes the corpus block (corpus-report.ts) from corpus-results.json into sandbox/CONTEXT.md
// and README.md, between the node-corpus markers:
//   node bin/run-ts.js sandbox/local/node-runtime/corpus/write-corpus-docs.ts
// The results come from a corpus run: THREADLINE_UPDATE_CORPUS=1 npx vitest run
// sandbox/local/node-runtime/corpus/node-corpus.test.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCorpusDocs } from './corpus-report.js';
import {
	corpusDocumentFiles,
	documentWithCorpusDocs,
	readCorpusResults
} from './corpus-results-file.js';
import { repositoryRoot } from './corpus-workspace.js';

const block = renderCorpusDocs(readCorpusResults());
for (const file of corpusDocumentFiles) {
	const path = join(repositoryRoot, file);
	const before = readFileSync(path, 'utf8');
	const after = await documentWithCorpusDocs(path, before, block);
	if (after !== before) {
		writeFileSync(path, after);
		console.log(`updated ${file}`);
	} else console.log(`${file} is up to date`);
}
