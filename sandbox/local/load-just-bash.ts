/**
 * just-bash is ~350 KiB gzip in the browser, so it is loaded on first use rather than imported at
 * the top of a module. Bundlers resolve the package's `browser` export; Node gets its main entry.
 */
export type JustBashModule = typeof import('just-bash');

let loading: Promise<JustBashModule> | undefined;

export function loadJustBash(): Promise<JustBashModule> {
	loading ??= import('just-bash').catch((error: unknown) => {
		// A failed chunk load (offline, deploy in between) should be retryable, not cached.
		loading = undefined;
		throw error;
	});
	return loading;
}
