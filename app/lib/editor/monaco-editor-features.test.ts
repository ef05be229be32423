import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * monaco-editor-features.ts against monaco-editor's own entry (esm/vs/index.js), read as text:
 * Monaco needs a DOM to evaluate. Every module index.js imports must be imported by the IDE's
 * entry (directly or through one of Monaco's features/<name>/register.js) or be named below as
 * left out on purpose, so a Monaco upgrade that adds a contribution fails here.
 */

/** What the IDE leaves out, as Monaco's features/<name>/register.js names it (see the entry's comment). */
const leftOutFeatures = [
	'codelens',
	'colorPicker',
	'diffEditorBreadcrumbs',
	'floatingMenu',
	'gpu',
	'iPadShowKeyboard',
	'inlayHints',
	'inlineCompletions',
	'inspectTokens',
	'longLinesHelper',
	'middleScroll',
	'placeholderText',
	'sectionHeaders',
	'stickyScroll',
	'toggleHighContrast'
];

// esm/vs, found through a path the package's exports map allows.
const monacoRoot = dirname(
	dirname(createRequire(import.meta.url).resolve('monaco-editor/editor/editor.api.js'))
);
const entryText = readFileSync(new URL('./monaco-editor-features.ts', import.meta.url), 'utf8');

/** The module specifiers a file imports, resolved to paths under esm/vs (e.g. `editor/x.js`). */
function importsOf(text: string, fromFolder: string): string[] {
	return [...text.matchAll(/^import (?:[^'"]*? from )?'([^']+)';$/gm)].map(([, specifier]) =>
		specifier!.startsWith('monaco-editor/')
			? specifier!.slice('monaco-editor/'.length)
			: posix.normalize(posix.join(fromFolder, specifier!))
	);
}

function monacoFile(path: string): string {
	return readFileSync(join(monacoRoot, path), 'utf8');
}

/** features/<name>/register.js → the modules it imports. */
const featureModules = new Map(
	readdirSync(join(monacoRoot, 'features'), { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => [
			entry.name,
			importsOf(monacoFile(`features/${entry.name}/register.js`), `features/${entry.name}`)
		])
);

const entryImports = importsOf(entryText, 'app/lib/editor');
/** Every module the entry brings in: its own imports and what its feature registrations import. */
const covered = new Set(
	entryImports.flatMap((path) => {
		const feature = /^features\/([^/]+)\/register\.js$/.exec(path)?.[1];
		return [path, ...(feature ? (featureModules.get(feature) ?? []) : [])];
	})
);
const leftOutModules = new Set(leftOutFeatures.flatMap((name) => featureModules.get(name) ?? []));

describe("the IDE's Monaco entry", () => {
	const monacoIndex = monacoFile('index.js');
	const indexImports = importsOf(monacoIndex, '.');

	it('names only features that exist in this Monaco', () => {
		for (const name of leftOutFeatures) expect(featureModules.has(name), name).toBe(true);
		for (const path of entryImports) {
			if (path.startsWith('app/')) continue;
			expect(() => monacoFile(path), path).not.toThrow();
		}
	});

	it('imports every module of monaco-editor/index.js but the ones left out on purpose', () => {
		const languageDefinitions = new Set(
			importsOf(monacoFile('languages/definitions/register.all.js'), 'languages/definitions')
		);
		const missing = indexImports.filter(
			(path) =>
				!covered.has(path) &&
				!leftOutModules.has(path) &&
				!(covered.has('languages/definitions/register.all.js') && languageDefinitions.has(path)) &&
				// monaco.lsp, the LSP client (esm/external): the IDE runs no language server.
				path !== '../external/monaco-lsp-client/out/index.js' &&
				// Imported by the suggest widget, which the entry keeps.
				path !== 'base/browser/ui/codicons/codicon/codicon-modifiers.css'
		);
		expect(missing).toEqual([]);
	});

	it('leaves out what it says and nothing a kept feature needs', () => {
		for (const path of leftOutModules) expect(covered.has(path), path).toBe(false);
		expect(monacoFile('editor/contrib/suggest/browser/suggestWidget.js')).toContain(
			"codicon/codicon-modifiers.css'"
		);
	});

	it('is not undone by a module Monaco loads later: only workers.js, which a plugin strips', () => {
		// Language modes load lazily (tsMode.js and the like) and bring their own imports. A left-out
		// contribution imported there would come back with the first file of that language;
		// vite-plugins/monaco-contributions.ts removes workers.js's side-effect imports.
		const entries = new Set(['index.js', 'editor/editor.main.js', 'features/register.all.js']);
		for (const name of leftOutFeatures) entries.add(`features/${name}/register.js`);
		const importers = readdirSync(monacoRoot, { recursive: true, encoding: 'utf8' })
			.map((path) => path.split('\\').join('/'))
			.filter((path) => path.endsWith('.js') && !entries.has(path))
			.filter((path) =>
				importsOf(monacoFile(path), posix.dirname(path)).some((imported) =>
					leftOutModules.has(imported)
				)
			);
		expect(importers).toEqual(['internal/common/workers.js']);
	});

	it('exports the API of monaco-editor/index.js but the LSP client', () => {
		const exportedNames = (text: string) =>
			[...text.matchAll(/export \{([^}]+)\}/g)]
				.flatMap(([, names]) => names!.split(','))
				.map((name) =>
					name
						.trim()
						.split(/\s+as\s+/)
						.at(-1)!
				)
				.filter(Boolean)
				.sort();
		expect(exportedNames(entryText)).toEqual(
			exportedNames(monacoIndex).filter((name) => name !== 'lsp')
		);
	});
});
