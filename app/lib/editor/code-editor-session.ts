/**
 * One Monaco editor mounted in CodeEditor.svelte. It shows one file's model at a time and swaps
 * models on tab switches (never re-creating the editor), turns user edits into `onchange`, applies
 * outside changes without echoing them back, and reports the shown file's markers. Everything it
 * subscribes to is released by `dispose()`; the models themselves outlive it (editor-models.ts).
 */

import type * as Monaco from 'monaco-editor';
import { diagnosticsFromMarkers, sameDiagnostics, type EditorDiagnostic } from './diagnostics.js';
import {
	applyExternalValue,
	openEditorModel,
	rememberViewState,
	rememberedViewState
} from './editor-models.js';
import type { MonacoModule } from './monaco-instance.js';
import { currentColorScheme, monacoThemeFor } from '../theme/color-scheme.js';

export interface CodeEditorCallbacks {
	onchange?: (value: string) => void;
	onsave?: () => void;
	ondiagnostics?: (diagnostics: EditorDiagnostic[]) => void;
}

export interface CodeEditorSettings {
	path: string;
	value: string;
	readOnly: boolean;
	readOnlyMessage: string;
	label: string;
}

export class CodeEditorSession {
	private readonly editor: Monaco.editor.IStandaloneCodeEditor;
	private readonly subscriptions: Monaco.IDisposable[] = [];
	private modelSubscription: Monaco.IDisposable | null = null;
	private path: string | null = null;
	private value = '';
	/** True while we change the model ourselves: those changes are not the user's edits. */
	private applyingOutsideChange = false;
	private reportedDiagnostics: EditorDiagnostic[] | null = null;
	private disposed = false;

	constructor(
		private readonly monaco: MonacoModule,
		host: HTMLElement,
		settings: CodeEditorSettings,
		/** A getter, so the latest props are called, not the ones at mount time. */
		private readonly callbacks: () => CodeEditorCallbacks
	) {
		this.editor = monaco.editor.create(host, {
			model: null,
			automaticLayout: true,
			theme: monacoThemeFor(currentColorScheme()),
			ariaLabel: settings.label,
			readOnly: settings.readOnly,
			readOnlyMessage: { value: settings.readOnlyMessage },
			minimap: { enabled: false },
			scrollBeyondLastLine: false,
			// Hovers and suggestions may leave the editor pane instead of being clipped by it.
			fixedOverflowWidgets: true,
			fontSize: 13,
			tabSize: 2
		});

		// addAction, not addCommand: addCommand's keybinding is global and never released, so the
		// most recently created editor would take Ctrl+S from every other one.
		this.subscriptions.push(
			this.editor.addAction({
				id: 'threadline.save-file',
				label: 'Save File',
				keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS],
				run: () => this.callbacks().onsave?.()
			}),
			this.editor.onDidChangeModelContent(() => {
				if (this.applyingOutsideChange) return;
				const model = this.editor.getModel();
				if (!model) return;
				this.value = model.getValue();
				this.callbacks().onchange?.(this.value);
			}),
			monaco.editor.onDidChangeMarkers((uris) => {
				const uri = this.editor.getModel()?.uri.toString();
				if (uri && uris.some((changed) => changed.toString() === uri)) this.reportDiagnostics();
			})
		);

		// Monaco prevents the browser's "Save page" when its keybinding runs; this covers the moments
		// it does not (focus on the editor's chrome, a widget that swallows the key first).
		const preventBrowserSave = (event: KeyboardEvent) => {
			if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
				if (!event.defaultPrevented) this.callbacks().onsave?.();
				event.preventDefault();
			}
		};
		host.addEventListener('keydown', preventBrowserSave);
		this.subscriptions.push({
			dispose: () => host.removeEventListener('keydown', preventBrowserSave)
		});

		this.show(settings.path, settings.value);
	}

	/** Shows `path` with `value`; for the file already shown, applies `value` if it changed. */
	show(path: string, value: string): void {
		if (this.disposed) return;
		const current = this.editor.getModel();
		if (path === this.path && current && !current.isDisposed()) {
			if (value !== this.value) this.applyOutsideValue(current, value);
			return;
		}

		if (this.path !== null && current) rememberViewState(this.path, this.editor.saveViewState());
		const model = this.withoutEcho(() => openEditorModel(this.monaco, path, value));
		this.path = path;
		this.value = model.getValue();
		this.modelSubscription?.dispose();
		this.editor.setModel(model);
		const viewState = rememberedViewState(path);
		if (viewState) this.editor.restoreViewState(viewState);
		// The shown model was disposed (workspace reset, rename, deletion). If no other file is shown
		// by the end of this task (a rename or a closed tab switches `path` in the same task), the
		// tab is still open: show the file again from its last value, not a blank, dead editor.
		this.modelSubscription = model.onWillDispose(() => {
			this.path = null;
			setTimeout(() => {
				if (!this.disposed && this.path === null) this.show(path, this.value);
			}, 0);
		});
		this.reportedDiagnostics = null;
		this.reportDiagnostics();
	}

	setReadOnly(readOnly: boolean, message: string): void {
		if (this.disposed) return;
		this.editor.updateOptions({ readOnly, readOnlyMessage: { value: message } });
	}

	setLabel(label: string): void {
		if (this.disposed) return;
		this.editor.updateOptions({ ariaLabel: label });
	}

	focus(): void {
		if (!this.disposed) this.editor.focus();
	}

	dispose(): void {
		if (this.disposed) return;
		if (this.path !== null && this.editor.getModel()) {
			rememberViewState(this.path, this.editor.saveViewState());
		}
		this.disposed = true;
		this.modelSubscription?.dispose();
		for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
		// Detach first: the models belong to the page, not to this editor.
		this.editor.setModel(null);
		this.editor.dispose();
	}

	private applyOutsideValue(model: Monaco.editor.ITextModel, value: string): void {
		this.withoutEcho(() => applyExternalValue(model, value));
		// What we were given, not what the model holds: the model may normalise line endings, and
		// comparing against that would re-apply the same value on every update.
		this.value = value;
	}

	private withoutEcho<T>(change: () => T): T {
		this.applyingOutsideChange = true;
		try {
			return change();
		} finally {
			this.applyingOutsideChange = false;
		}
	}

	private reportDiagnostics(): void {
		const model = this.editor.getModel();
		const callback = this.callbacks().ondiagnostics;
		if (!model || !callback) return;
		const diagnostics = diagnosticsFromMarkers(
			this.monaco.editor.getModelMarkers({ resource: model.uri })
		);
		if (this.reportedDiagnostics && sameDiagnostics(this.reportedDiagnostics, diagnostics)) return;
		this.reportedDiagnostics = diagnostics;
		callback(diagnostics);
	}
}
