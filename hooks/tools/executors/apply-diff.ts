import { encodeText } from '../../hashing/text-encoding.js';
import type { Executor } from './execution-context.js';
import { readTextFile } from './file-reading.js';
import { invalidInput } from './invalid-input.js';

/** Exact block replace: the search block must occur exactly once, so the edit cannot land twice or nowhere. */
export const applyDiff: Executor = async (context) => {
	const path = context.targets[0] ?? '';
	const { search, replace } = context.call.input as { search: string; replace: string };
	const read = await readTextFile(context.fs, path);
	if (read.kind === 'missing')
		return invalidInput(`${path} does not exist.`, 'Use write_to_file to create it.');
	if (read.kind !== 'text')
		return invalidInput(
			`${path} is not an editable text file (${read.kind}).`,
			'Edit text files only.'
		);
	const first = read.text.indexOf(search);
	if (first === -1) {
		return invalidInput(
			`The search block was not found in ${path}.`,
			`Call read_file on ${path} and copy the block exactly, including indentation and line endings.`
		);
	}
	if (read.text.indexOf(search, first + 1) !== -1) {
		return invalidInput(
			`The search block occurs more than once in ${path}, so the change would be ambiguous.`,
			'Include more surrounding lines in search so it matches exactly one place.'
		);
	}
	const text = read.text.slice(0, first) + replace + read.text.slice(first + search.length);
	return {
		ok: true,
		output: { path, replaced_at_line: read.text.slice(0, first).split('\n').length },
		changes: [{ path, type: 'modified', before: read.bytes, after: encodeText(text) }]
	};
};
