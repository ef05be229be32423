import type { WorkspaceFiles } from '../workspace-files.js';

/**
 * The commit HEAD names, read straight from the repository's files (no isomorphic-git: this runs
 * when a sandbox starts and after every line that ran git, and must stay cheap). HEAD is either a
 * commit id (detached) or `ref: refs/heads/<branch>`, whose id is in its own file or in
 * `packed-refs`. Null when there is no repository or no commit yet.
 */
export async function readRepositoryHead(repository: WorkspaceFiles): Promise<string | null> {
	const head = await readText(repository, 'HEAD');
	if (head === null) return null;
	const value = head.trim();
	if (/^[0-9a-f]{40}$/.test(value)) return value;
	const ref = /^ref: (refs\/[^\s]+)$/.exec(value)?.[1];
	if (!ref || ref.split('/').some((segment) => segment === '..' || segment === '')) return null;
	const direct = (await readText(repository, ref))?.trim();
	if (direct && /^[0-9a-f]{40}$/.test(direct)) return direct;
	const packed = await readText(repository, 'packed-refs');
	for (const line of packed?.split('\n') ?? []) {
		const [oid, name] = line.trim().split(' ');
		if (name === ref && oid && /^[0-9a-f]{40}$/.test(oid)) return oid;
	}
	return null;
}

async function readText(repository: WorkspaceFiles, path: string): Promise<string | null> {
	try {
		const info = await repository.stat(path);
		if (info?.kind !== 'file') return null;
		return new TextDecoder().decode(await repository.read(path));
	} catch {
		return null;
	}
}
