/**
 * isomorphic-git (~90 KiB gzip with its dependencies) is loaded on the first `git` command, in
 * the shell's Worker only. Some of its dependencies (sha.js, safe-buffer) expect Node's global
 * `Buffer`; a page or Worker has none, so the `buffer` package provides it first.
 */
export type IsomorphicGit = typeof import('isomorphic-git');

let loading: Promise<IsomorphicGit> | undefined;

export function loadIsomorphicGit(): Promise<IsomorphicGit> {
	loading ??= (async () => {
		const scope = globalThis as { Buffer?: unknown };
		if (scope.Buffer === undefined) scope.Buffer = (await import('buffer')).Buffer;
		return import('isomorphic-git');
	})().catch((error: unknown) => {
		// A failed chunk load (offline, deploy in between) should be retryable, not cached.
		loading = undefined;
		throw error;
	});
	return loading;
}
