/**
 * One Monaco model per workspace file, kept for the whole page: switching tabs swaps models in one
 * editor, so undo history, markers and the TypeScript worker's view of the file survive. The
 * workspace disposes a model when its file is deleted or its tab closed, and renames it on a move.
 */

import type * as Monaco from 'monaco-editor';
import { languageForPath } from './language-for-path.js';
import { loadedMonaco, type MonacoModule } from './monaco-instance.js';
import { modelPathForFile } from './model-uri.js';
import { minimalReplacement } from './text-edit.js';

type TextModel = Monaco.editor.ITextModel;

/** Cursor, selections, scroll and folding per file, restored when its tab is shown again. */
const viewStates = new Map<string, Monaco.editor.ICodeEditorViewState>();

export function modelUriForFile(monaco: MonacoModule, path: string): Monaco.Uri {
	return monaco.Uri.file(modelPathForFile(path));
}

/** The file's model, created with `value` the first time; an existing model is brought to `value`. */
export function openEditorModel(monaco: MonacoModule, path: string, value: string): TextModel {
	const uri = modelUriForFile(monaco, path);
	const existing = monaco.editor.getModel(uri);
	if (existing) {
		applyExternalValue(existing, value);
		return existing;
	}
	return monaco.editor.createModel(value, languageForPath(path), uri);
}

/**
 * Brings a model to `value` as one undoable edit of only the changed span, so the cursor and scroll
 * stay where they were. Returns whether anything changed.
 */
export function applyExternalValue(model: TextModel, value: string): boolean {
	const replacement = minimalReplacement(model.getValue(), value);
	if (!replacement) return false;
	const start = model.getPositionAt(replacement.start);
	const end = model.getPositionAt(replacement.end);
	// Stack elements on both sides: the outside change is its own undo step, never merged with typing.
	model.pushStackElement();
	model.pushEditOperations(
		null,
		[
			{
				range: {
					startLineNumber: start.lineNumber,
					startColumn: start.column,
					endLineNumber: end.lineNumber,
					endColumn: end.column
				},
				text: replacement.text
			}
		],
		() => null
	);
	model.pushStackElement();
	return true;
}

/** Forgets a file's model (file deleted or tab closed). Safe before Monaco has loaded. */
export function disposeEditorModel(path: string): void {
	const key = keyFor(path);
	if (key === null) return;
	viewStates.delete(key);
	const monaco = loadedMonaco();
	monaco?.editor.getModel(monaco.Uri.file(key))?.dispose();
}

/**
 * Moves a file's model to its new path. Monaco cannot change a model's URI, so the content moves to
 * a new model (undo history does not follow; view state does). If the new path already has a model,
 * it receives the content as an undoable edit. Call it in the same task as the editor's `path`
 * change (or after it): an editor still showing the old path once the task ends shows it again.
 */
export function renameEditorModel(fromPath: string, toPath: string): void {
	const fromKey = keyFor(fromPath);
	const toKey = keyFor(toPath);
	if (fromKey === null || toKey === null || fromKey === toKey) return;

	const viewState = viewStates.get(fromKey);
	viewStates.delete(fromKey);
	if (viewState) viewStates.set(toKey, viewState);

	const monaco = loadedMonaco();
	const source = monaco?.editor.getModel(monaco.Uri.file(fromKey));
	if (!monaco || !source) return;
	openEditorModel(monaco, toPath, source.getValue());
	source.dispose();
}

/** Forgets every file's model (workspace reset or import). */
export function disposeAllEditorModels(): void {
	viewStates.clear();
	const monaco = loadedMonaco();
	if (!monaco) return;
	for (const model of monaco.editor.getModels()) {
		if (model.uri.scheme === 'file') model.dispose();
	}
}

export function rememberViewState(
	path: string,
	viewState: Monaco.editor.ICodeEditorViewState | null
): void {
	const key = keyFor(path);
	if (key === null) return;
	if (viewState) viewStates.set(key, viewState);
	else viewStates.delete(key);
}

export function rememberedViewState(path: string): Monaco.editor.ICodeEditorViewState | null {
	const key = keyFor(path);
	return key === null ? null : (viewStates.get(key) ?? null);
}

/** A path that cannot be a workspace file has no model: the helpers above do nothing for it. */
function keyFor(path: string): string | null {
	try {
		return modelPathForFile(path);
	} catch {
		return null;
	}
}
