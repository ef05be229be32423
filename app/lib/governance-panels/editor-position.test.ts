import { describe, expect, it } from 'vitest';
import { revealEditorPosition, type PositionableEditor } from './editor-position.js';

function fakeEditor(node: object): PositionableEditor & { calls: string[] } {
	const calls: string[] = [];
	return {
		calls,
		getContainerDomNode: () => node as Node,
		setPosition: (position) => calls.push(`set ${position.lineNumber}:${position.column}`),
		revealPositionInCenter: (position) =>
			calls.push(`reveal ${position.lineNumber}:${position.column}`),
		focus: () => calls.push('focus')
	};
}

function container(children: object[]): Pick<Node, 'contains'> {
	return { contains: (other) => children.includes(other as object) };
}

describe('revealEditorPosition', () => {
	it('moves, reveals and focuses the editor inside the container only', () => {
		const inside = {};
		const elsewhere = fakeEditor({});
		const target = fakeEditor(inside);
		const monaco = { editor: { getEditors: () => [elsewhere, target] } };
		expect(revealEditorPosition(monaco, container([inside]), { line: 4, column: 7 })).toBe(true);
		expect(target.calls).toEqual(['set 4:7', 'reveal 4:7', 'focus']);
		expect(elsewhere.calls).toEqual([]);
	});

	it('reports false before Monaco has loaded, without a container, or with no editor in it', () => {
		const editor = fakeEditor({});
		const monaco = { editor: { getEditors: () => [editor] } };
		expect(revealEditorPosition(null, container([]), { line: 1, column: 1 })).toBe(false);
		expect(revealEditorPosition(monaco, undefined, { line: 1, column: 1 })).toBe(false);
		expect(revealEditorPosition(monaco, container([]), { line: 1, column: 1 })).toBe(false);
		expect(editor.calls).toEqual([]);
	});
});
