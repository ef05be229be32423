import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { withCorpusDocs, type CorpusResults } from './corpus-report.js';

/** The committed results of the last corpus run, and the documents rendered from them. Node-only. */

const resultsPath = fileURLToPath(new URL('./corpus-results.json', import.meta.url));

export const corpusDocumentFiles = ['sandbox/CONTEXT.md', 'README.md'] as const;

export function readCorpusResults(): CorpusResults {
	return JSON.parse(readFileSync(resultsPath, 'utf8')) as CorpusResults;
}

export function writeCorpusResults(results: CorpusResults): void {
	writeFileSync(join(resultsPath), `${JSON.stringify(results, null, '\t')}\n`);
}

/**
 * A document with the block in place, formatted as the repository's Prettier formats it (the
 * lint checks every Markdown file), so the generator and the docs test agree with `prettier
 * --check`.
 */
export async function documentWithCorpusDocs(
	path: string,
	text: string,
	block: string
): Promise<string> {
	const options = (await resolveConfig(path)) ?? {};
	return format(withCorpusDocs(text, block), { ...options, filepath: path });
}
