import { readFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { intentsJsonSchema } from '../../../hooks/intents/intent-schema.js';
import {
	activeIntentsModelUri,
	activeIntentsYamlSchema,
	activeIntentsSchemaUri,
	ignoredTypeScriptDiagnostics,
	jsonDiagnosticsOptions,
	jsonWithCommentsSchemaUri,
	jsxFallbackLibrary,
	typescriptCompilerOptions,
	typescriptDiagnosticsOptions,
	yamlOptions
} from './language-defaults.js';
import { modelPathForFile } from './model-uri.js';
// @ts-expect-error Monaco ships no types for its internal modules; this is the class `monaco.Uri` is.
import { URI as untypedUri } from 'monaco-editor/base/common/uri.js';

interface UriLike {
	path: string;
	query: string;
	fragment: string;
	toString(): string;
}
const URI = untypedUri as {
	file(path: string): UriLike;
	parse(value: string): UriLike;
	from(components: { scheme: string; path: string }): UriLike;
};

describe('active_intents.yaml schema wiring', () => {
	it('matches exactly the URI the editor gives the intents file', () => {
		const modelUri = URI.file(modelPathForFile('.orchestration/active_intents.yaml')).toString();
		expect(activeIntentsModelUri).toBe(modelUri);
		expect(activeIntentsYamlSchema().fileMatch).toEqual([modelUri]);
	});

	it('uses the schema generated from the zod schema in hooks/, inline', () => {
		const settings = activeIntentsYamlSchema();
		expect(settings.schema).toEqual(intentsJsonSchema());
		// An inline schema must not be fetched: requests are off for the whole page.
		expect(yamlOptions().enableSchemaRequest).toBe(false);
		expect(yamlOptions().schemas).toEqual([settings]);
		expect(settings.uri).not.toMatch(/^https?:/);
	});

	it('uses schema ids that the language services read back unchanged', () => {
		// They normalise ids with URI.parse(id).toString(); a changed id makes the inline schema
		// unreachable (the worker then tries to fetch it).
		for (const id of [activeIntentsSchemaUri, jsonWithCommentsSchemaUri]) {
			expect(URI.parse(id).toString()).toBe(id);
		}
		expect(URI.parse('urn:threadline:schema:x').toString()).not.toBe('urn:threadline:schema:x');
	});

	const validate = new Ajv({ strict: false, allErrors: true }).compile(
		activeIntentsYamlSchema().schema ?? {}
	);

	it("accepts this repository's own intents file", async () => {
		const text = await readFile(
			new URL('../../../.orchestration/active_intents.yaml', import.meta.url),
			'utf8'
		);
		expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
	});

	it('accepts criteria as sentences or {description, run}, and keeps unknown fields', () => {
		const document = {
			active_intents: [
				{
					id: 'INT-001',
					name: 'JWT',
					status: 'DRAFT',
					acceptance_criteria: ['a sentence', { description: 'tests pass', run: 'npm test' }],
					instructor_note: 'kept'
				}
			]
		};
		expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
	});

	it('flags what an instructor gets wrong: a bad status, a missing id, a missing list', () => {
		expect(validate({ active_intents: [{ id: 'INT-001', name: 'x', status: 'DONE' }] })).toBe(
			false
		);
		expect(validate.errors?.some((error) => error.instancePath.endsWith('/status'))).toBe(true);

		expect(validate({ active_intents: [{ name: 'x', status: 'DRAFT' }] })).toBe(false);
		expect(validate({ intents: [] })).toBe(false);
	});
});

describe('TypeScript defaults', () => {
	it('reports semantic and syntactic diagnostics', () => {
		expect(typescriptDiagnosticsOptions.noSemanticValidation).toBe(false);
		expect(typescriptDiagnosticsOptions.noSyntaxValidation).toBe(false);
	});

	it('silences only "cannot find module", never type errors', () => {
		expect(typescriptDiagnosticsOptions.diagnosticCodesToIgnore).toEqual([
			...ignoredTypeScriptDiagnostics
		]);
		// 2322: Type 'x' is not assignable to type 'y' — the error the end-to-end test introduces.
		expect(typescriptDiagnosticsOptions.diagnosticCodesToIgnore).not.toContain(2322);
	});

	it('targets ES2022 modules, strict, with JavaScript allowed (TypeScript enum values)', () => {
		expect(typescriptCompilerOptions).toMatchObject({
			target: 9,
			module: 99,
			moduleResolution: 100,
			strict: true,
			allowJs: true,
			allowNonTsExtensions: true
		});
	});
});

describe('JSX fallback', () => {
	it('declares permissive intrinsic elements in a file the worker treats as a declaration', () => {
		expect(jsxFallbackLibrary.filePath).toMatch(/\.d\.ts$/);
		expect(jsxFallbackLibrary.content).toContain('interface IntrinsicElements');
		expect(jsxFallbackLibrary.content).toContain('[element: string]: any;');
	});
});

describe('JSON defaults', () => {
	it('lets tsconfig.json and .jsonc files have comments, other JSON stays strict', () => {
		const options = jsonDiagnosticsOptions();
		expect(options.validate).toBe(true);
		const [withComments] = options.schemas ?? [];
		expect(withComments?.schema).toEqual({ allowComments: true, allowTrailingCommas: true });
		expect(withComments?.fileMatch).toEqual(expect.arrayContaining(['tsconfig.json', '*.jsonc']));
		expect(withComments?.fileMatch).not.toContain('*.json');
	});
});
