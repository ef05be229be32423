import { contentHash } from '../../hashing/sha256.js';
import { splitLines } from '../../hashing/text-encoding.js';
import type { Executor } from './execution-context.js';
import { readTextFile, maximumReadableBytes } from './file-reading.js';
import { invalidInput } from './invalid-input.js';

export const readFile: Executor = async (context) => {
	const path = String(context.call.input.path);
	const read = await readTextFile(context.fs, path);
	switch (read.kind) {
		case 'missing':
			return invalidInput(`${path} does not exist.`, 'Use list_files to find the right path.');
		case 'directory':
			return invalidInput(`${path} is a folder.`, `Use list_files with path ${path}.`);
		case 'too-large':
			return invalidInput(
				`${path} is ${read.size} bytes, over the ${maximumReadableBytes}-byte limit for reading.`,
				'Use search_files to find the lines you need.'
			);
		case 'binary':
			context.session.readBaselines.set(path, await contentHash(read.bytes));
			return invalidInput(
				`${path} is a binary file and cannot be read as text.`,
				'Work with text files only.'
			);
	}
	context.session.readBaselines.set(path, await contentHash(read.bytes));
	const lines = splitLines(read.text);
	const start = (context.call.input.start_line as number | undefined) ?? 1;
	const end = Math.min(
		(context.call.input.end_line as number | undefined) ?? lines.length,
		lines.length
	);
	if (lines.length > 0 && start > lines.length) {
		return invalidInput(
			`${path} has only ${lines.length} lines; start_line ${start} is past the end.`,
			'Read without a range first.'
		);
	}
	if (end < start && lines.length > 0) {
		return invalidInput(
			`end_line ${end} is before start_line ${start}.`,
			'Give a range with start_line ≤ end_line.'
		);
	}
	const width = String(end).length;
	const numbered = lines
		.slice(start - 1, end)
		.map((line, offset) => `${String(start + offset).padStart(width, ' ')} | ${line}`)
		.join('\n');
	return {
		ok: true,
		output: {
			path,
			total_lines: lines.length,
			start_line: lines.length ? start : 0,
			end_line: lines.length ? end : 0,
			content: numbered
		},
		changes: []
	};
};
