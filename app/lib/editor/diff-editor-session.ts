/**
 * One read-only diff (side by side; inline for a new or deleted file) mounted in DiffEditor.svelte, for reviewing a proposed change
 * before approving it. Its two models are its own (scheme `threadline-diff`, one folder per diff),
 * so they never touch the editable model of the same file and are disposed with the diff.
 */

import type * as Monaco from 'monaco-editor';
import { diffLayout, hiddenUnchangedRegions } from './diff-view-options.js';
import { languageForPath } from './language-for-path.js';
import type { MonacoModule } from './monaco-instance.js';
import { diffModelPath, diffModelScheme } from './model-uri.js';
import { currentColorScheme, monacoThemeFor } from '../theme/color-scheme.js';

export interface DiffContent {
	path: string;
	/** null: the file is new. */
	original: string | null;
	/** null: the file is deleted. */
	modified: string | null;
}

let nextDiffId = 0;

export class DiffEditorSession {
	private readonly diffEditor: Monaco.editor.IStandaloneDiffEditor;
	private readonly diffId = nextDiffId++;
	private models: {
		path: string;
		original: Monaco.editor.ITextModel;
		modified: Monaco.editor.ITextModel;
	} | null = null;
	private disposed = false;

	constructor(
		private readonly monaco: MonacoModule,
		host: HTMLElement,
		content: DiffContent,
		label: string
	) {
		this.diffEditor = monaco.editor.createDiffEditor(host, {
			automaticLayout: true,
			theme: monacoThemeFor(currentColorScheme()),
			readOnly: true,
			originalEditable: false,
			...diffLayout(content),
			// A narrow modal falls back to the inline view rather than two unreadable columns.
			useInlineViewWhenSpaceIsLimited: true,
			hideUnchangedRegions: { ...hiddenUnchangedRegions },
			// A reviewer must see every change the agent makes, whitespace included.
			ignoreTrimWhitespace: false,
			renderOverviewRuler: true,
			minimap: { enabled: false },
			scrollBeyondLastLine: false,
			fixedOverflowWidgets: true,
			fontSize: 13,
			originalAriaLabel: `${label}: before`,
			modifiedAriaLabel: `${label}: after`
		});
		this.show(content);
	}

	show({ path, original, modified }: DiffContent): void {
		if (this.disposed) return;
		this.diffEditor.updateOptions(diffLayout({ original, modified }));
		if (this.models && this.models.path === path) {
			const originalChanged = setIfChanged(this.models.original, original ?? '');
			const modifiedChanged = setIfChanged(this.models.modified, modified ?? '');
			if (originalChanged || modifiedChanged) this.diffEditor.revealFirstDiff();
			return;
		}
		const previous = this.models;
		this.models = {
			path,
			original: this.createModel('original', path, original ?? ''),
			modified: this.createModel('modified', path, modified ?? '')
		};
		this.diffEditor.setModel({ original: this.models.original, modified: this.models.modified });
		// The change under review, not line 1: Monaco waits for the diff, then scrolls to it.
		this.diffEditor.revealFirstDiff();
		previous?.original.dispose();
		previous?.modified.dispose();
	}

	setLabel(label: string): void {
		if (this.disposed) return;
		this.diffEditor.getOriginalEditor().updateOptions({ ariaLabel: `${label}: before` });
		this.diffEditor.getModifiedEditor().updateOptions({ ariaLabel: `${label}: after` });
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		// The editor first: disposing a model a live diff editor still shows makes it recompute.
		this.diffEditor.setModel(null);
		this.diffEditor.dispose();
		this.models?.original.dispose();
		this.models?.modified.dispose();
		this.models = null;
	}

	private createModel(side: 'original' | 'modified', path: string, text: string) {
		const uri = this.monaco.Uri.from({
			scheme: diffModelScheme,
			path: diffModelPath(this.diffId, side, path)
		});
		// A leftover from a diff of the same id and path would make createModel throw.
		this.monaco.editor.getModel(uri)?.dispose();
		return this.monaco.editor.createModel(text, languageForPath(path), uri);
	}
}

function setIfChanged(model: Monaco.editor.ITextModel, text: string): boolean {
	if (model.getValue() === text) return false;
	model.setValue(text);
	return true;
}
