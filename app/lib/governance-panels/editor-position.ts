/**
 * Moves the cursor of the Monaco editor that lives inside a given element. CodeEditor.svelte does
 * not expose its editor, and the same file may be open in another editor too, so the editor is
 * found by where it sits in the page, not by its model.
 */

/** The fields of Monaco's `ICodeEditor` used here (so tests need no Monaco). */
export interface PositionableEditor {
	getContainerDomNode(): Node;
	setPosition(position: { lineNumber: number; column: number }): void;
	revealPositionInCenter(position: { lineNumber: number; column: number }): void;
	focus(): void;
}

export interface EditorRegistry {
	editor: { getEditors(): readonly PositionableEditor[] };
}

export type ElementLike = Pick<Node, 'contains'>;

/** Returns whether an editor inside `container` was found and moved. */
export function revealEditorPosition(
	monaco: EditorRegistry | null,
	container: ElementLike | undefined,
	position: { line: number; column: number }
): boolean {
	if (!monaco || !container) return false;
	const editor = monaco.editor
		.getEditors()
		.find((candidate) => container.contains(candidate.getContainerDomNode()));
	if (!editor) return false;
	const target = { lineNumber: position.line, column: position.column };
	editor.setPosition(target);
	editor.revealPositionInCenter(target);
	editor.focus();
	return true;
}
