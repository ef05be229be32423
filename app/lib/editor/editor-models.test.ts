import type * as Monaco from 'monaco-editor';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
	applyExternalValue,
	disposeAllEditorModels,
	disposeEditorModel,
	openEditorModel,
	rememberViewState,
	rememberedViewState,
	renameEditorModel
} from './editor-models.js';
import { setLoadedMonaco, type MonacoModule } from './monaco-instance.js';

/** Just enough of a Monaco text model: offsets ↔ positions, edits, an undo-stop log. */
class FakeModel {
	disposed = false;
	readonly log: string[] = [];
	constructor(
		private text: string,
		readonly languageId: string,
		readonly uri: FakeUri,
		private readonly registry: Map<string, FakeModel>
	) {}
	getValue() {
		return this.text;
	}
	getPositionAt(offset: number) {
		const before = this.text.slice(0, offset).split('\n');
		return { lineNumber: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
	}
	private offsetAt(lineNumber: number, column: number) {
		const lines = this.text.split('\n');
		let offset = 0;
		for (let line = 1; line < lineNumber; line++) offset += (lines[line - 1]?.length ?? 0) + 1;
		return offset + column - 1;
	}
	pushStackElement() {
		this.log.push('stop');
	}
	pushEditOperations(
		_selections: null,
		operations: { range: Monaco.IRange; text: string }[],
		_cursor: () => null
	) {
		for (const { range, text } of operations) {
			const start = this.offsetAt(range.startLineNumber, range.startColumn);
			const end = this.offsetAt(range.endLineNumber, range.endColumn);
			this.text = this.text.slice(0, start) + text + this.text.slice(end);
			this.log.push(`edit ${start}-${end} ${JSON.stringify(text)}`);
		}
		return null;
	}
	dispose() {
		this.disposed = true;
		this.registry.delete(this.uri.toString());
	}
}

class FakeUri {
	constructor(
		readonly scheme: string,
		readonly path: string
	) {}
	toString() {
		return `${this.scheme}://${this.path}`;
	}
}

function fakeMonaco() {
	const models = new Map<string, FakeModel>();
	const monaco = {
		Uri: { file: (path: string) => new FakeUri('file', path) },
		editor: {
			getModel: (uri: FakeUri) => models.get(uri.toString()) ?? null,
			getModels: () => [...models.values()],
			createModel: (text: string, language: string, uri: FakeUri) => {
				if (models.has(uri.toString())) throw new Error('model already exists');
				const model = new FakeModel(text, language, uri, models);
				models.set(uri.toString(), model);
				return model;
			}
		}
	};
	return { monaco: monaco as unknown as MonacoModule, models };
}

const asModel = (model: FakeModel) => model as unknown as Monaco.editor.ITextModel;
const viewState = (name: string) => ({ name }) as unknown as Monaco.editor.ICodeEditorViewState;

let setup: ReturnType<typeof fakeMonaco>;
beforeEach(() => {
	setup = fakeMonaco();
	setLoadedMonaco(setup.monaco);
});
afterEach(() => {
	disposeAllEditorModels();
	setLoadedMonaco(null);
});

describe('openEditorModel', () => {
	it('creates one model per file at file:///<path>, in the language of its name', () => {
		const model = openEditorModel(setup.monaco, 'src/a.ts', 'let a = 1;\n');
		expect(model.uri.toString()).toBe('file:///src/a.ts');
		expect((model as unknown as FakeModel).languageId).toBe('typescript');
		expect(openEditorModel(setup.monaco, './src/a.ts', 'let a = 1;\n')).toBe(model);
		expect(setup.models.size).toBe(1);
	});

	it('brings an existing model to the given value instead of replacing it', () => {
		const model = openEditorModel(setup.monaco, 'a.md', 'one\ntwo\n');
		openEditorModel(setup.monaco, 'a.md', 'one\nthree\n');
		expect(model.getValue()).toBe('one\nthree\n');
		expect(setup.models.size).toBe(1);
	});
});

describe('applyExternalValue', () => {
	it('edits only the changed span, as its own undo step', () => {
		const model = new FakeModel(
			'line one\nline two\n',
			'plaintext',
			new FakeUri('file', '/x'),
			new Map()
		);
		expect(applyExternalValue(asModel(model), 'line one\nline 2\n')).toBe(true);
		expect(model.getValue()).toBe('line one\nline 2\n');
		expect(model.log).toEqual(['stop', 'edit 14-17 "2"', 'stop']);
	});

	it('does nothing when the model already holds the value', () => {
		const model = new FakeModel('same', 'plaintext', new FakeUri('file', '/x'), new Map());
		expect(applyExternalValue(asModel(model), 'same')).toBe(false);
		expect(model.log).toEqual([]);
	});
});

describe('disposeEditorModel', () => {
	it('disposes the file model and forgets its view state', () => {
		const model = openEditorModel(setup.monaco, 'src/a.ts', '');
		rememberViewState('src/a.ts', viewState('a'));
		disposeEditorModel('src/a.ts');
		expect((model as unknown as FakeModel).disposed).toBe(true);
		expect(rememberedViewState('src/a.ts')).toBeNull();
	});

	it('is a no-op for unknown files, invalid paths and before Monaco has loaded', () => {
		expect(() => disposeEditorModel('never/opened.ts')).not.toThrow();
		expect(() => disposeEditorModel('../outside.ts')).not.toThrow();
		setLoadedMonaco(null);
		expect(() => disposeEditorModel('src/a.ts')).not.toThrow();
	});
});

describe('renameEditorModel', () => {
	it('moves the content and the view state to the new path', () => {
		const source = openEditorModel(setup.monaco, 'src/old.ts', 'export const a = 1;\n');
		rememberViewState('src/old.ts', viewState('old'));

		renameEditorModel('src/old.ts', 'src/new.tsx');

		expect((source as unknown as FakeModel).disposed).toBe(true);
		const moved = setup.monaco.editor.getModel(setup.monaco.Uri.file('/src/new.tsx'));
		expect(moved?.getValue()).toBe('export const a = 1;\n');
		expect((moved as unknown as FakeModel).languageId).toBe('typescript');
		expect(rememberedViewState('src/new.tsx')).toEqual(viewState('old'));
		expect(rememberedViewState('src/old.ts')).toBeNull();
	});

	it('writes into an existing model at the destination as an edit', () => {
		openEditorModel(setup.monaco, 'a.txt', 'from a');
		const destination = openEditorModel(setup.monaco, 'b.txt', 'old b');
		renameEditorModel('a.txt', 'b.txt');
		expect(destination.getValue()).toBe('from a');
		expect((destination as unknown as FakeModel).disposed).toBe(false);
		expect(setup.models.size).toBe(1);
	});

	it('does nothing for the same path, unknown files or invalid paths', () => {
		const model = openEditorModel(setup.monaco, 'a.txt', 'a');
		renameEditorModel('a.txt', './a.txt');
		renameEditorModel('missing.txt', 'b.txt');
		renameEditorModel('a.txt', '/etc/passwd');
		expect((model as unknown as FakeModel).disposed).toBe(false);
		expect(setup.models.size).toBe(1);
	});
});

describe('disposeAllEditorModels', () => {
	it('disposes file models only, leaving diff models to their diff editor', () => {
		openEditorModel(setup.monaco, 'a.txt', 'a');
		openEditorModel(setup.monaco, 'b.txt', 'b');
		const diff = setup.monaco.editor.createModel(
			'x',
			'plaintext',
			new FakeUri('threadline-diff', '/0/original/a.txt') as unknown as Monaco.Uri
		);
		disposeAllEditorModels();
		expect(setup.monaco.editor.getModels()).toEqual([diff]);
	});
});
