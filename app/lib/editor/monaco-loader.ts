/**
 * The one way the app gets Monaco. `loadMonaco()` imports monaco-editor (~1 MiB gzip) on first use
 * and configures it once. Nothing imports monaco-editor statically (components import this module
 * with `import()` in onMount), so Monaco stays out of the initial route bundle, and everything below
 * is behind `import.meta.env.SSR`, so it stays out of the server bundle too.
 *
 * Workers: the page is cross-origin isolated (COEP require-corp), so every worker is a same-origin
 * file bundled by Vite through a `?worker` import, one per Monaco worker label (worker-label.ts):
 * editor, TypeScript/JavaScript, JSON, CSS/SCSS/Less, HTML/Handlebars/Razor and YAML (monaco-yaml's
 * worker, entered through yaml.worker.ts; monaco-yaml creates it through the pre-0.53 API that
 * legacy-web-worker.ts adapts). Nothing comes from a CDN.
 *
 * Languages (language-defaults.ts): TypeScript reports syntactic and semantic errors (ES2022,
 * ESNext modules, strict, allowJs); models live at `file:///<path>` (editor-models.ts), so imports
 * between open files resolve; `.orchestration/active_intents.yaml` is validated against the JSON
 * schema generated from hooks' zod schema; tsconfig.json and *.jsonc may have comments.
 *
 * Build requirement: monaco-yaml's worker imports `monaco-editor/esm/vs/editor/editor.worker.js`,
 * which Monaco 0.57's exports map sends to a file that does not exist. vite.config.ts aliases it to
 * `monaco-editor/editor/editor.worker.js`; without that the YAML worker does not bundle.
 */

import type * as Monaco from 'monaco-editor';
import {
	jsonDiagnosticsOptions,
	jsxFallbackLibrary,
	typescriptCompilerOptions,
	typescriptDiagnosticsOptions,
	yamlOptions
} from './language-defaults.js';
import { monacoWithLegacyWorkers } from './legacy-web-worker.js';
import { setLoadedMonaco, type MonacoModule } from './monaco-instance.js';
import { workerKindForLabel, type MonacoWorkerKind } from './worker-label.js';
import { currentColorScheme, monacoThemeFor, watchColorScheme } from '../theme/color-scheme.js';
import { accessibleMonacoTheme } from '../theme/monaco-themes.js';

export type { MonacoModule };

type WorkerConstructor = new (options?: { name?: string }) => Worker;

interface MonacoEnvironmentHolder {
	MonacoEnvironment?: Monaco.Environment;
}

let loading: Promise<MonacoModule> | null = null;

/** Monaco, configured. Loads once; a failed load (e.g. offline chunk error) may be retried. */
export function loadMonaco(): Promise<MonacoModule> {
	if (import.meta.env.SSR) {
		return Promise.reject(new Error('Monaco runs only in the browser.'));
	}
	loading ??= initializeMonaco().then(
		(monaco) => {
			setLoadedMonaco(monaco);
			return monaco;
		},
		(error: unknown) => {
			loading = null;
			throw error;
		}
	);
	return loading;
}

/**
 * The build loads monaco-editor-features.ts (Monaco without the contributions the IDE never shows).
 * Vite's dev server, and Vitest's browser mode with it, pre-bundles monaco-editor, where
 * vite-plugins/monaco-contributions.ts cannot act: there a language mode loaded later registers
 * the left-out contributions after the editor's services exist, and the next editor fails
 * ("CodeLensContribution depends on UNKNOWN service ICodeLensCache"). So dev loads Monaco whole;
 * the build drops this branch (`import.meta.env.DEV` is false there), and the E2E tests run the
 * build.
 */
function loadMonacoModule(): Promise<MonacoModule> {
	return import.meta.env.DEV ? import('monaco-editor') : import('./monaco-editor-features.js');
}

async function initializeMonaco(): Promise<MonacoModule> {
	const [
		editorWorker,
		typescriptWorker,
		jsonWorker,
		cssWorker,
		htmlWorker,
		yamlWorker,
		monaco,
		{ configureMonacoYaml }
	] = await Promise.all([
		import('monaco-editor/editor/editor.worker?worker'),
		import('monaco-editor/language/typescript/ts.worker?worker'),
		import('monaco-editor/language/json/json.worker?worker'),
		import('monaco-editor/language/css/css.worker?worker'),
		import('monaco-editor/language/html/html.worker?worker'),
		import('./yaml.worker.js?worker'),
		loadMonacoModule(),
		import('monaco-yaml')
	]);

	const workers: Record<MonacoWorkerKind, WorkerConstructor> = {
		editor: editorWorker.default,
		typescript: typescriptWorker.default,
		json: jsonWorker.default,
		css: cssWorker.default,
		html: htmlWorker.default,
		yaml: yamlWorker.default
	};
	// The label names the worker in the browser's dev tools and task manager.
	const createWorker = (label: string): Worker =>
		new workers[workerKindForLabel(label)]({ name: label });

	(self as MonacoEnvironmentHolder).MonacoEnvironment = {
		getWorker: (_workerId: string, label: string) => createWorker(label)
	};

	for (const defaults of [
		monaco.typescript.typescriptDefaults,
		monaco.typescript.javascriptDefaults
	]) {
		defaults.setCompilerOptions(typescriptCompilerOptions);
		defaults.setDiagnosticsOptions(typescriptDiagnosticsOptions);
		// Syncs every open TS/JS model to the worker, so an import of another open file resolves
		// even before that file has been shown.
		defaults.setEagerModelSync(true);
		defaults.addExtraLib(jsxFallbackLibrary.content, jsxFallbackLibrary.filePath);
	}
	monaco.json.jsonDefaults.setDiagnosticsOptions(jsonDiagnosticsOptions());
	configureMonacoYaml(monacoWithLegacyWorkers(monaco, createWorker), yamlOptions());

	// Monaco's theme is global (one for every editor on the page): follow the system's light/dark
	// switch for as long as the page lives, as app.css does for the rest of the page.
	const { vs, vs_dark } = await import('monaco-editor/editor/standalone/common/themes.js');
	for (const [scheme, builtIn] of [
		['light', vs],
		['dark', vs_dark]
	] as const)
		monaco.editor.defineTheme(monacoThemeFor(scheme), accessibleMonacoTheme(scheme, builtIn));
	monaco.editor.setTheme(monacoThemeFor(currentColorScheme()));
	watchColorScheme((scheme) => monaco.editor.setTheme(monacoThemeFor(scheme)));

	return monaco;
}
