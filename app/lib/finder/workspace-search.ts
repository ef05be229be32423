import { governancePathKind } from '../../../hooks/paths/protected-paths.js';
import { splitLines } from '../../../hooks/hashing/text-encoding.js';
import { readTextFile } from '../../../hooks/tools/executors/file-reading.js';
import { compileLinearRegex } from '../../../hooks/tools/executors/linear-regex.js';
import type { SandboxFileSystem } from '../../../hooks/tools/sandbox-ports.js';

export interface SearchMatch {
	path: string;
	/** 1-based, as the editor counts. */
	line: number;
	column: number;
	/** The line (cut after 200 characters). */
	text: string;
}

export interface SearchOptions {
	query: string;
	/** RE2 syntax (linear time, as the agent's search_files); plain text otherwise. */
	regex?: boolean;
	caseSensitive?: boolean;
	/** Stops after this many matches. */
	maxResults?: number;
}

export type SearchResult =
	| {
			ok: true;
			matches: SearchMatch[];
			/** True when it stopped at `maxResults`. */
			truncated: boolean;
			/** Files not searched: binary or larger than the agent's read limit. */
			skipped: number;
	  }
	| { ok: false; reason: string };

export const defaultMaxResults = 500;

/**
 * Searches the workspace's files line by line. Regular expressions run on RE2 (re2js, linear
 * time) like the agent's search tool, so no pattern can freeze the page; binary files and files
 * over the read limit (1 MB) are skipped; `.git/` is not searched. Stops at `maxResults`.
 */
export async function searchWorkspace(
	fs: SandboxFileSystem,
	paths: Iterable<string>,
	options: SearchOptions
): Promise<SearchResult> {
	if (options.query === '') return { ok: true, matches: [], truncated: false, skipped: 0 };
	const caseSensitive = options.caseSensitive ?? false;
	let indexIn: (line: string) => number;
	if (options.regex) {
		const compiled = compileLinearRegex(caseSensitive ? options.query : `(?i)${options.query}`);
		if (!compiled.ok) return { ok: false, reason: compiled.reason };
		indexIn = compiled.indexIn;
	} else {
		const needle = caseSensitive ? options.query : options.query.toLowerCase();
		indexIn = (line) => (caseSensitive ? line : line.toLowerCase()).indexOf(needle);
	}
	const maxResults = options.maxResults ?? defaultMaxResults;
	const matches: SearchMatch[] = [];
	let skipped = 0;
	for (const path of [...paths].sort()) {
		if (governancePathKind(path) === 'git') continue;
		const read = await readTextFile(fs, path).catch(() => null);
		if (!read || read.kind === 'missing' || read.kind === 'directory') continue;
		if (read.kind !== 'text') {
			skipped++;
			continue;
		}
		const lines = splitLines(read.text);
		for (let index = 0; index < lines.length; index++) {
			const line = lines[index] ?? '';
			const at = indexIn(line);
			if (at === -1) continue;
			matches.push({
				path,
				line: index + 1,
				column: at + 1,
				text: line.length > 200 ? `${line.slice(0, 200)}…` : line
			});
			if (matches.length >= maxResults) return { ok: true, matches, truncated: true, skipped };
		}
	}
	return { ok: true, matches, truncated: false, skipped };
}
