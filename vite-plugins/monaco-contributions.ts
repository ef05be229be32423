import type { Plugin } from 'vite';

/**
 * Monaco's language modes (TypeScript, JSON, CSS, HTML; loaded when the first model of their
 * language is made) reach their web workers through `esm/vs/internal/common/workers.js`, which also
 * imports every editor contribution for its side effects: inline completions, sticky scroll, code
 * lens and the rest that `app/lib/editor/monaco-editor-features.ts` leaves out. Without this plugin
 * opening the first .ts file would evaluate them after all (another 335 KB chunk) and give the
 * editors made after it features the earlier ones lack. The IDE's entry has already imported the
 * contributions it keeps before any mode loads, so workers.js's side-effect imports are removed;
 * its own code and its one named import stay.
 *
 * Production builds only: Vite's dev server pre-bundles monaco-editor, which transform hooks do
 * not see, so in dev the IDE loads Monaco whole (monaco-loader.ts, loadMonacoModule).
 */
export function monacoContributionsFromEntryOnly(): Plugin {
	return {
		name: 'threadline:monaco-contributions-from-entry-only',
		transform(code, id) {
			if (!isMonacoWorkersModule(id)) return null;
			return { code: withoutSideEffectImports(code), map: null };
		}
	};
}

/** `…/monaco-editor/esm/vs/internal/common/workers.js`, with or without a query. */
export function isMonacoWorkersModule(id: string): boolean {
	return /[\\/]monaco-editor[\\/]esm[\\/]vs[\\/]internal[\\/]common[\\/]workers\.js(\?|$)/.test(id);
}

/** The code without its `import '…';` lines (imports for side effects only). */
export function withoutSideEffectImports(code: string): string {
	return code.replace(/^import '[^'\n]+';[ \t]*\r?\n/gm, '');
}
