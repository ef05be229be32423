import { minimatch } from 'minimatch';
import { normalizeWorkspacePath } from '../../paths/normalize-path.js';
import { splitLines } from '../../hashing/text-encoding.js';
import type { Executor } from './execution-context.js';
import { readTextFile } from './file-reading.js';
import { invalidInput } from './invalid-input.js';
import { compileLinearRegex } from './linear-regex.js';
import { walkWorkspace } from './list-files.js';

const maximumMatches = 200;

export const searchFiles: Executor = async (context) => {
	const input = context.call.input as { pattern: string; path?: string; glob?: string };
	const expression = compileLinearRegex(input.pattern);
	if (!expression.ok) {
		return invalidInput(
			`pattern is not a valid regular expression: ${expression.reason}`,
			'Escape special characters such as ( [ . * with a backslash.'
		);
	}
	const normalised = normalizeWorkspacePath(input.path || '.', { allowRoot: true });
	if (!normalised.ok)
		return invalidInput(
			`Cannot search ${input.path}: ${normalised.reason}`,
			'Use a workspace-relative folder.'
		);
	const entries: string[] = [];
	await walkWorkspace(context.fs, normalised.path, true, entries);
	const matches: { path: string; line: number; text: string }[] = [];
	for (const entry of entries) {
		if (entry.endsWith('/')) continue;
		if (
			input.glob &&
			!minimatch(entry, input.glob, { dot: true, matchBase: !input.glob.includes('/') })
		)
			continue;
		const read = await readTextFile(context.fs, entry);
		if (read.kind !== 'text') continue;
		const lines = splitLines(read.text);
		for (let index = 0; index < lines.length; index++) {
			const line = lines[index] ?? '';
			if (!expression.test(line)) continue;
			matches.push({
				path: entry,
				line: index + 1,
				text: line.length > 300 ? `${line.slice(0, 300)}…` : line
			});
			if (matches.length >= maximumMatches) {
				return {
					ok: true,
					output: { matches, truncated: `stopped at ${maximumMatches} matches` },
					changes: []
				};
			}
		}
	}
	return { ok: true, output: { matches }, changes: [] };
};
