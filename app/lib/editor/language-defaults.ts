/**
 * The language settings Monaco starts with, kept apart from the loader so they can be tested in
 * Node without a DOM. The loader applies them once.
 */

import type * as Monaco from 'monaco-editor';
import type { JSONSchema, MonacoYamlOptions, SchemasSettings } from 'monaco-yaml';
import { intentsJsonSchema } from '../../../hooks/intents/intent-schema.js';
import { activeIntentsPath } from '../../../hooks/pipeline/governance-state.js';
import { modelPathForFile } from './model-uri.js';

type CompilerOptions = Monaco.typescript.CompilerOptions;
type TypeScriptDiagnosticsOptions = Monaco.typescript.DiagnosticsOptions;

// TypeScript's own enum values: Monaco's declarations stop at ES2020 and Node10 resolution, but the
// worker hands the numbers to the real compiler (5.9), which knows these.
const scriptTargetEs2022 = 9 as Monaco.typescript.ScriptTarget;
const moduleKindEsNext = 99 as Monaco.typescript.ModuleKind;
const moduleResolutionBundler = 100 as Monaco.typescript.ModuleResolutionKind;
const jsxPreserve = 1 as Monaco.typescript.JsxEmit;

/** Also used for JavaScript, so `allowJs` projects see one set of rules. */
export const typescriptCompilerOptions: CompilerOptions = {
	target: scriptTargetEs2022,
	module: moduleKindEsNext,
	// Resolves `./x.js` to `x.ts` and extensionless imports, as Vite and the scenarios do.
	moduleResolution: moduleResolutionBundler,
	strict: true,
	allowJs: true,
	// Monaco's own default, which setCompilerOptions would otherwise drop: model names are URIs.
	allowNonTsExtensions: true,
	allowImportingTsExtensions: true,
	esModuleInterop: true,
	isolatedModules: true,
	skipLibCheck: true,
	// .tsx files without it report "Cannot use JSX unless the '--jsx' flag is provided".
	jsx: jsxPreserve,
	noEmit: true
};

/**
 * There is no node_modules in the browser, so every `import express from 'express'` would be a
 * red squiggle a learner cannot fix. Those two codes ("Cannot find module …") are silenced; type
 * errors, which are what the editor is for, are not.
 */
export const ignoredTypeScriptDiagnostics = [2307, 2792] as const;

export const typescriptDiagnosticsOptions: TypeScriptDiagnosticsOptions = {
	noSemanticValidation: false,
	noSyntaxValidation: false,
	diagnosticCodesToIgnore: [...ignoredTypeScriptDiagnostics]
};

/**
 * There is no node_modules in the browser, so no React (or other) JSX types: without this, every
 * element in a .tsx file is "JSX element implicitly has type 'any'" under strict. Declarations a
 * project brings merge with it.
 */
export const jsxFallbackLibrary = {
	filePath: 'ts:threadline/jsx-fallback.d.ts',
	content: [
		'declare namespace JSX {',
		'\tinterface IntrinsicElements {',
		'\t\t[element: string]: any;',
		'\t}',
		'}',
		''
	].join('\n')
};

/** The model URI of the intents file, as monaco-yaml matches it (the whole URI, root only). */
export const activeIntentsModelUri = `file://${modelPathForFile(activeIntentsPath)}`;

/**
 * Ids of inline schemas, never fetched (schema requests are off). They must read the same after
 * the language services' `URI.parse(id).toString()`: an id that changes there (a colon in a `urn:`
 * path becomes %3A) is looked up under the other spelling, misses, and the schema is "requested"
 * instead ("Unable to load schema … No content"). monaco-yaml shows the name in hovers.
 */
export const activeIntentsSchemaUri = 'threadline-schema:/active-intents.json';
export const jsonWithCommentsSchemaUri = 'threadline-schema:/json-with-comments.json';

export function activeIntentsYamlSchema(): SchemasSettings {
	return {
		uri: activeIntentsSchemaUri,
		fileMatch: [activeIntentsModelUri],
		schema: intentsJsonSchema() as JSONSchema
	};
}

export function yamlOptions(): MonacoYamlOptions {
	return {
		// Nothing leaves the page: schemas are inline, and the page is cross-origin isolated anyway.
		enableSchemaRequest: false,
		validate: true,
		completion: true,
		hover: true,
		format: { enable: true, singleQuote: false },
		schemas: [activeIntentsYamlSchema()]
	};
}

/**
 * Files that are JSON with comments and trailing commas by convention. Monaco has no JSONC language:
 * an inline schema with `allowComments` tells the JSON worker not to flag them.
 */
export const jsonWithCommentsFileMatch = [
	'*.jsonc',
	'tsconfig.json',
	'tsconfig.*.json',
	'jsconfig.json',
	'jsconfig.*.json',
	'.vscode/*.json',
	'.eslintrc.json',
	'.babelrc'
];

export function jsonDiagnosticsOptions(): Monaco.json.DiagnosticsOptions {
	return {
		validate: true,
		enableSchemaRequest: false,
		schemas: [
			{
				uri: jsonWithCommentsSchemaUri,
				fileMatch: jsonWithCommentsFileMatch,
				schema: { allowComments: true, allowTrailingCommas: true }
			}
		]
	};
}
