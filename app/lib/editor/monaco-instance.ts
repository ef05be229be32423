/**
 * The loaded Monaco module, or null before loadMonaco() has finished. Its own tiny module so code
 * that only acts on existing models (editor-models.ts, imported by the workspace on the initial
 * route) can ask without pulling the loader, the language settings and zod into the first bundle.
 */

import type * as Monaco from 'monaco-editor';

/** monaco-editor's API as monaco-editor-features.ts exports it: all but the unused LSP client. */
export type MonacoModule = Omit<typeof Monaco, 'lsp'>;

let loaded: MonacoModule | null = null;

export function loadedMonaco(): MonacoModule | null {
	return loaded;
}

/** Called by the loader once Monaco is configured (and by tests, with a fake or null). */
export function setLoadedMonaco(monaco: MonacoModule | null): void {
	loaded = monaco;
}
