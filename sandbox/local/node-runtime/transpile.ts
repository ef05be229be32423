/**
 * TypeScript, TSX and JSX for the offline runtime, by sucrase (3.35): it only removes types and
 * rewrites what the target needs, keeps every line where it was (so QuickJS's stack traces point
 * at the TypeScript source lines without a source map) and is small and fast: ~45 KiB gzip in
 * the browser (a lazy Worker chunk), a few ms per file. It is loaded on the first program that needs
 * it. Type errors are not its business (`tsc --noEmit` is).
 */

import { rewriteImportMeta } from './import-meta-rewrite.js';

type SucraseTransform = typeof import('sucrase').transform;

let loading: Promise<SucraseTransform> | undefined;

export function loadTranspiler(): Promise<SucraseTransform> {
	loading ??= import('sucrase').then(
		(module) => module.transform,
		(error: unknown) => {
			loading = undefined;
			throw error;
		}
	);
	return loading;
}

export function needsTranspiler(path: string): boolean {
	return /\.(ts|tsx|mts|cts|jsx)$/.test(path);
}

export interface TranspileRequest {
	path: string;
	source: string;
	/** `commonjs` also turns import/export into require/exports (a module loaded by require). */
	target: 'module' | 'commonjs';
	/** The file's own format; ESM sources loaded by require need the import rewrite. */
	sourceFormat: 'module' | 'commonjs';
}

export class TranspileError extends Error {
	constructor(
		message: string,
		readonly path: string,
		readonly line: number | undefined
	) {
		super(message);
		this.name = 'SyntaxError';
	}
}

export function transpile(
	transform: SucraseTransform | undefined,
	request: TranspileRequest
): string {
	const transforms: ('typescript' | 'jsx' | 'imports')[] = [];
	if (/\.(ts|tsx|mts|cts)$/.test(request.path)) transforms.push('typescript');
	if (/\.(tsx|jsx)$/.test(request.path)) transforms.push('jsx');
	if (request.target === 'commonjs' && request.sourceFormat === 'module')
		transforms.push('imports');
	let code = request.source;
	if (code.startsWith('#!')) code = `//${code.slice(2)}`;
	if (transforms.length > 0) {
		if (!transform) throw new Error('the TypeScript transpiler is not loaded');
		try {
			code = transform(code, {
				transforms,
				filePath: request.path,
				disableESTransforms: true,
				keepUnusedImports: false,
				preserveDynamicImport: true,
				jsxRuntime: 'classic',
				production: true
			}).code;
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			const line = /\((\d+):\d+\)/.exec(message)?.[1];
			throw new TranspileError(
				`${request.path}${line ? `:${line}` : ''}: ${message}`,
				request.path,
				line ? Number(line) : undefined
			);
		}
	}
	return replaceImportMeta(code, request.path);
}

/**
 * QuickJS leaves `import.meta` empty; Node's has url, filename, dirname and resolve. Replaced in
 * the source (on the same line) because the module loader cannot set it.
 */
function replaceImportMeta(code: string, path: string): string {
	const folder = path.slice(0, path.lastIndexOf('/')) || '/';
	const meta = `__threadlineImportMeta(${JSON.stringify(path)}, ${JSON.stringify(folder)})`;
	return rewriteImportMeta(code, meta);
}
