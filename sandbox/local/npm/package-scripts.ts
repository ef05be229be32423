import type { IFileSystem } from 'just-bash';

/** The nearest package.json at or above `cwd` (npm's own rule for `npm run`). */
export async function findPackageJson(
	fileSystem: IFileSystem,
	cwd: string
): Promise<{ folder: string; json: Record<string, unknown> } | { error: string }> {
	for (let folder = cwd; ; folder = parentFolder(folder)) {
		const path = folder === '/' ? '/package.json' : `${folder}/package.json`;
		if (await fileSystem.exists(path)) {
			try {
				const parsed: unknown = JSON.parse(await fileSystem.readFile(path));
				if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
					return { error: `${path} is not a JSON object` };
				}
				return { folder, json: parsed as Record<string, unknown> };
			} catch (error) {
				return {
					error: `${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`
				};
			}
		}
		if (folder === '/') return { error: `no package.json in ${cwd} or any folder above it` };
	}
}

export function scriptsOf(json: Record<string, unknown>): Record<string, string> {
	const scripts = json.scripts;
	if (!scripts || typeof scripts !== 'object' || Array.isArray(scripts)) return {};
	return Object.fromEntries(
		Object.entries(scripts as Record<string, unknown>).filter(
			(entry): entry is [string, string] => typeof entry[1] === 'string'
		)
	);
}

/**
 * The programs a script line starts (the first word of each command of `a && b | c; d`), so npm
 * can say which one is not available offline before running anything.
 */
export function programsOf(script: string): string[] {
	const programs: string[] = [];
	for (const segment of script.split(/&&|\|\||[;|&]/)) {
		const words = segment.trim().split(/\s+/);
		let index = 0;
		// Leading variable assignments (NODE_ENV=test vitest) and `env`.
		while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] ?? '')) index += 1;
		if (words[index] === 'env') {
			index += 1;
			while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] ?? ''))
				index += 1;
		}
		const program = words[index];
		if (program && !/^[({]/.test(program)) programs.push(program);
	}
	return programs;
}

/** Arguments appended to a script, quoted for the shell as npm does. */
export function quoteArguments(args: readonly string[]): string {
	return args
		.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`))
		.join(' ');
}

function parentFolder(path: string): string {
	const index = path.lastIndexOf('/');
	return index <= 0 ? '/' : path.slice(0, index);
}
