import type { Executor } from './execution-context.js';
import { invalidInput } from './invalid-input.js';

export const deleteFile: Executor = async (context) => {
	const path = context.targets[0] ?? '';
	const stat = await context.fs.stat(path);
	if (!stat) return invalidInput(`${path} does not exist.`, 'Use list_files to check the path.');
	if (stat.kind === 'directory')
		return invalidInput(
			`${path} is a folder; delete_file removes single files.`,
			'Delete the files inside it one by one.'
		);
	const before = await context.fs.readFile(path);
	return {
		ok: true,
		output: { path, deleted: true },
		changes: [{ path, type: 'deleted', before, after: null }]
	};
};
