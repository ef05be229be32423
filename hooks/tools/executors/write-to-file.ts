import { encodeText } from '../../hashing/text-encoding.js';
import type { Executor } from './execution-context.js';
import { readBytesOrNull } from './file-reading.js';
import { invalidInput } from './invalid-input.js';

export const writeToFile: Executor = async (context) => {
	const path = context.targets[0] ?? '';
	const stat = await context.fs.stat(path);
	if (stat?.kind === 'directory')
		return invalidInput(`${path} is a folder.`, 'Write to a file path.');
	const before = await readBytesOrNull(context.fs, path);
	const after = encodeText(String(context.call.input.content));
	return {
		ok: true,
		output: { path, bytes: after.byteLength, created: before === null },
		changes: [{ path, type: before === null ? 'created' : 'modified', before, after }]
	};
};
