/**
 * Where a workspace file lives inside Monaco. Every open file is one model at `file:///<path>`, so
 * the TypeScript worker resolves `./other` imports between open files (it resolves against the
 * model URIs) and monaco-yaml's `fileMatch` finds `.orchestration/active_intents.yaml`.
 */

import { normalizeWorkspacePath } from '../../../hooks/paths/normalize-path.js';

/** The URI path (for `Uri.file`) of a workspace file: `src/a.ts` → `/src/a.ts`. */
export function modelPathForFile(path: string): string {
	const normalized = normalizeWorkspacePath(path);
	if (!normalized.ok) {
		throw new Error(`Cannot open ${JSON.stringify(path)} in the editor: ${normalized.reason}`);
	}
	return `/${normalized.path}`;
}

/**
 * Diff views get their own models under another scheme, so they never replace or share undo history
 * with the editable `file:///` model of the same file. The path keeps the file's extension last:
 * the TypeScript worker picks TS, TSX or JS from it.
 */
export const diffModelScheme = 'threadline-diff';

export function diffModelPath(diffId: number, side: 'original' | 'modified', path: string): string {
	if (!Number.isSafeInteger(diffId) || diffId < 0) {
		throw new RangeError(`diffId must be a non-negative integer, got ${diffId}`);
	}
	return `/${diffId}/${side}${modelPathForFile(path)}`;
}
