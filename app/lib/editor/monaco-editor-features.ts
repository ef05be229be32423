/**
 * The Monaco the IDE loads: monaco-editor's own entry (`monaco-editor`, esm/vs/index.js) minus
 * what a learner's editor never shows. Evaluating Monaco is the longest task of a cold load on a
 * two-core machine, and every contribution below is evaluated before the first file opens.
 *
 * Left out (each an import of index.js): the LSP client (`monaco.lsp`, unused here), inline
 * completions (ghost text from an inline-completion provider: none is registered), code lens,
 * inlay hints and the colour picker (no provider here shows them: the TypeScript worker's inlay
 * hints are off by default), the diff editor's breadcrumbs, the floating menu, the GPU renderer's
 * actions, section headers, sticky scroll, middle-click scrolling, the iPad keyboard button, the
 * token inspector, the long-lines helper, the high-contrast toggle and the placeholder text.
 * Everything else stays, in index.js's order: find and replace, suggestions, hovers, quick fixes,
 * go to definition and references, rename, folding, multi-cursor, comments, the command palette
 * (F1), go to line and symbol, bracket matching, formatting, snippets, the unicode highlighter
 * (it shows invisible and confusable characters an agent might slip in), tab focus mode (Ctrl+M,
 * for keyboard users) and the diff editor the approval modal uses.
 *
 * Monaco's language modes (loaded with the first TypeScript, JSON, CSS or HTML file) import every
 * contribution again through its internal/common/workers.js: vite-plugins/monaco-contributions.ts
 * strips those imports in the build, or the ones left out here would come back with that file.
 *
 * monaco-editor-features.test.ts checks this list against index.js and every other Monaco module
 * that imports a contribution, so a Monaco upgrade that adds one is a failing test, not a silent
 * loss or a silent gain.
 */

import 'monaco-editor/languages/definitions/register.all.js';
import * as css from 'monaco-editor/languages/features/css/register.js';
import * as html from 'monaco-editor/languages/features/html/register.js';
import * as json from 'monaco-editor/languages/features/json/register.js';
import * as typescript from 'monaco-editor/languages/features/typescript/register.js';
import 'monaco-editor/features/anchorSelect/register.js';
import 'monaco-editor/features/bracketMatching/register.js';
import 'monaco-editor/features/caretOperations/register.js';
import 'monaco-editor/features/clipboard/register.js';
import 'monaco-editor/features/codeAction/register.js';
import 'monaco-editor/features/codeEditor/register.js';
import 'monaco-editor/features/codicon/register.js';
import 'monaco-editor/features/comment/register.js';
import 'monaco-editor/features/contextmenu/register.js';
import 'monaco-editor/features/cursorUndo/register.js';
import 'monaco-editor/features/diffEditor/register.js';
import 'monaco-editor/features/dnd/register.js';
import 'monaco-editor/features/documentSymbols/register.js';
import 'monaco-editor/features/dropOrPasteInto/register.js';
import 'monaco-editor/features/find/register.js';
import 'monaco-editor/features/folding/register.js';
import 'monaco-editor/features/fontZoom/register.js';
import 'monaco-editor/features/format/register.js';
import 'monaco-editor/features/gotoError/register.js';
import 'monaco-editor/features/gotoLine/register.js';
import 'monaco-editor/features/gotoSymbol/register.js';
import 'monaco-editor/features/hover/register.js';
import 'monaco-editor/features/indentation/register.js';
import 'monaco-editor/features/inPlaceReplace/register.js';
import 'monaco-editor/features/inlineProgress/register.js';
import 'monaco-editor/features/insertFinalNewLine/register.js';
import 'monaco-editor/features/lineSelection/register.js';
import 'monaco-editor/features/linesOperations/register.js';
import 'monaco-editor/features/linkedEditing/register.js';
import 'monaco-editor/features/links/register.js';
import 'monaco-editor/features/multicursor/register.js';
import 'monaco-editor/features/parameterHints/register.js';
import 'monaco-editor/features/quickCommand/register.js';
import 'monaco-editor/features/quickHelp/register.js';
import 'monaco-editor/features/quickOutline/register.js';
import 'monaco-editor/features/readOnlyMessage/register.js';
import 'monaco-editor/features/referenceSearch/register.js';
import 'monaco-editor/features/rename/register.js';
import 'monaco-editor/features/semanticTokens/register.js';
import 'monaco-editor/features/smartSelect/register.js';
import 'monaco-editor/features/snippet/register.js';
import 'monaco-editor/features/suggest/register.js';
import 'monaco-editor/features/toggleTabFocusMode/register.js';
import 'monaco-editor/features/tokenization/register.js';
import 'monaco-editor/features/unicodeHighlighter/register.js';
import 'monaco-editor/features/unusualLineTerminators/register.js';
import 'monaco-editor/features/wordHighlighter/register.js';
import 'monaco-editor/features/wordOperations/register.js';
import 'monaco-editor/features/wordPartOperations/register.js';
// index.js imports these modules directly too (most are also imported by a feature above).
import 'monaco-editor/editor/browser/coreCommands.js';
import 'monaco-editor/editor/contrib/caretOperations/browser/caretOperations.js';
import 'monaco-editor/editor/contrib/dropOrPasteInto/browser/copyPasteContribution.js';
import 'monaco-editor/editor/contrib/gotoSymbol/browser/goToCommands.js';
import 'monaco-editor/editor/contrib/gotoError/browser/markerSelectionStatus.js';
import 'monaco-editor/editor/contrib/semanticTokens/browser/documentSemanticTokens.js';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController.js';
import 'monaco-editor/editor/common/standaloneStrings.js';

export { css, html, json, typescript };
export {
	CancellationTokenSource,
	Emitter,
	KeyCode,
	KeyMod,
	MarkerSeverity,
	MarkerTag,
	Position,
	Range,
	Selection,
	SelectionDirection,
	Token,
	Uri,
	editor,
	languages
} from 'monaco-editor/editor/editor.api.js';
