/**
 * monaco-yaml 5.5 (through monaco-worker-manager 2) still calls
 * `monaco.editor.createWebWorker({ moduleId, label, createData })`, the form Monaco dropped in 0.53:
 * 0.57 wants `{ worker }` and, given the old form, silently runs the YAML language service nowhere
 * (remcohaszing/monaco-yaml#272). This adapter speaks the old form on top of the new one, the way
 * Monaco's own language features do (vs/internal/common/workers.js): make the worker, then send it
 * an "ignore" message (it starts listening) and the createData (its settings).
 */

import type * as Monaco from 'monaco-editor';
import type { MonacoModule } from './monaco-instance.js';

type CreateWebWorker = MonacoModule['editor']['createWebWorker'];

/** The pre-0.53 options object. */
export interface LegacyWebWorkerOptions {
	moduleId?: string;
	label?: string;
	createData?: unknown;
	host?: Record<string, (...args: never[]) => unknown>;
	keepIdleModels?: boolean;
}

export function legacyCreateWebWorker(
	createWebWorker: CreateWebWorker,
	createWorker: (label: string) => Worker
): (
	options: LegacyWebWorkerOptions | Monaco.editor.IInternalWebWorkerOptions
) => ReturnType<CreateWebWorker> {
	return (options) => {
		if ('worker' in options) return createWebWorker(options);
		const worker = Promise.resolve().then(() => {
			const created = createWorker(options.label ?? 'editorWorkerService');
			created.postMessage('ignore');
			created.postMessage(options.createData);
			return created;
		});
		return createWebWorker({
			worker,
			host: options.host as Monaco.editor.IInternalWebWorkerOptions['host'],
			keepIdleModels: options.keepIdleModels
		});
	};
}

/**
 * A view of the Monaco module for monaco-yaml: everything is Monaco's own except
 * `editor.createWebWorker`. The real module is left untouched for everyone else. Typed as the
 * whole of monaco-editor, as monaco-yaml asks for it; monaco-yaml 5.5 predates and never reads
 * `lsp`, the one export the IDE's Monaco leaves out (monaco-editor-features.ts).
 */
export function monacoWithLegacyWorkers(
	monaco: MonacoModule,
	createWorker: (label: string) => Worker
): typeof Monaco {
	return {
		...monaco,
		editor: {
			...monaco.editor,
			createWebWorker: legacyCreateWebWorker(monaco.editor.createWebWorker, createWorker)
		}
	} as typeof Monaco;
}
