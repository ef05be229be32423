/**
 * Paths the agent may never touch through its tools: the exported ledger and intents
 * (`.orchestration/`) and the repository's history (`.git/`). Both are anchored at the workspace root.
 */
export const protectedPathPatterns = ['.orchestration/**', '.git/**'] as const;

const protectedRoots = new Set(['.orchestration', '.git']);

/**
 * Whether a normalised workspace path is a protected folder or lies under one.
 * Compared case-insensitively, because on a case-insensitive filesystem `.ORCHESTRATION/x` and
 * `.Git/config` are the same files; trailing dots and spaces are ignored for the same reason
 * (Windows drops them, so `.git.` is `.git`).
 */
export function isProtectedPath(path: string): boolean {
	const slash = path.indexOf('/');
	const firstSegment = slash === -1 ? path : path.slice(0, slash);
	const canonical = firstSegment.replace(/[. ]+$/, '').toLowerCase();
	return protectedRoots.has(canonical);
}
