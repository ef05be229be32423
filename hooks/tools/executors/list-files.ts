import { normalizeWorkspacePath } from '../../paths/normalize-path.js';
import type { SandboxFileSystem } from '../sandbox-ports.js';
import type { Executor } from './execution-context.js';
import { invalidInput } from './invalid-input.js';

const maximumEntries = 1_000;

export const listFiles: Executor = async (context) => {
	const requested = (context.call.input.path as string | undefined) ?? '';
	const normalised = normalizeWorkspacePath(requested || '.', { allowRoot: true });
	if (!normalised.ok)
		return invalidInput(
			`Cannot list ${requested}: ${normalised.reason}`,
			'Use a workspace-relative folder such as src.'
		);
	const folder = normalised.path;
	const stat =
		folder === '' ? { kind: 'directory' as const, size: 0 } : await context.fs.stat(folder);
	if (!stat)
		return invalidInput(`${folder} does not exist.`, 'List the workspace root to see what exists.');
	if (stat.kind !== 'directory')
		return invalidInput(`${folder} is a file, not a folder.`, `Use read_file on ${folder}.`);
	const entries: string[] = [];
	const truncated = await walk(context.fs, folder, Boolean(context.call.input.recursive), entries);
	return {
		ok: true,
		output: {
			path: folder || '.',
			entries,
			...(truncated ? { truncated: `only the first ${maximumEntries} entries are listed` } : {})
		},
		changes: []
	};
};

/** Returns true when the listing was cut at `maximumEntries`. */
async function walk(
	fs: SandboxFileSystem,
	folder: string,
	recursive: boolean,
	entries: string[]
): Promise<boolean> {
	const children = await fs.readdir(folder);
	children.sort((first, second) => first.name.localeCompare(second.name));
	for (const child of children) {
		if (entries.length >= maximumEntries) return true;
		const path = folder ? `${folder}/${child.name}` : child.name;
		entries.push(child.kind === 'directory' ? `${path}/` : path);
		if (recursive && child.kind === 'directory' && child.name !== '.git') {
			if (await walk(fs, path, recursive, entries)) return true;
		}
	}
	return false;
}

export { walk as walkWorkspace };
