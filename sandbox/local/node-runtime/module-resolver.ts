import { joinPath, parentOf, type WorkspaceSnapshot } from './workspace-snapshot.js';

/**
 * Node's module resolution over the workspace snapshot, with tsx's TypeScript additions:
 * relative and absolute paths (and `file:` URLs), extension and `index` lookup, a `.js`
 * specifier finding its `.ts` source, `package.json` `main`/`exports`/`type`, and workspace
 * packages (a bare name found in a `node_modules` folder of the workspace or as the `name` of a
 * package.json inside it). Anything else is a package from npm, which cannot exist offline.
 */

export const builtinModuleNames = [
	'assert',
	'assert/strict',
	'buffer',
	'child_process',
	'crypto',
	'events',
	'fs',
	'fs/promises',
	'http',
	'https',
	'module',
	'net',
	'path',
	'path/posix',
	'process',
	'querystring',
	'stream',
	'stream/promises',
	'string_decoder',
	'test',
	'timers',
	'timers/promises',
	'url',
	'util',
	'util/types',
	'os'
] as const;

/** Node built-ins that exist in Node but not here: named in the error, not mistaken for npm. */
export const unavailableNodeModules: readonly string[] = [
	'cluster',
	'dgram',
	'dns',
	'http2',
	'inspector',
	'perf_hooks',
	'readline',
	'repl',
	'tls',
	'tty',
	'v8',
	'vm',
	'worker_threads',
	'zlib',
	'async_hooks',
	'diagnostics_channel',
	'sqlite'
];
const knownNodeModules = new Set(unavailableNodeModules);

export type ModuleFormat = 'module' | 'commonjs' | 'json';

export type Resolution =
	| { kind: 'builtin'; name: string }
	| { kind: 'file'; path: string }
	| { kind: 'error'; code: string; message: string };

const sourceExtensions = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx', '.json'];
/** A `.js` import written for the compiled output finds the TypeScript source (as tsx does). */
const typeScriptAlternatives: Record<string, string[]> = {
	'.js': ['.ts', '.tsx'],
	'.jsx': ['.tsx'],
	'.mjs': ['.mts'],
	'.cjs': ['.cts']
};

export class ModuleResolver {
	private readonly packageJsonCache = new Map<string, Record<string, unknown> | null>();

	constructor(private readonly snapshot: WorkspaceSnapshot) {}

	resolve(specifier: string, fromFile: string, mode: 'import' | 'require'): Resolution {
		const builtin = builtinName(specifier);
		if (builtin) return { kind: 'builtin', name: builtin };
		if (specifier.startsWith('node:')) {
			const name = specifier.slice(5);
			return {
				kind: 'error',
				code: 'ERR_UNKNOWN_BUILTIN_MODULE',
				message: knownNodeModules.has(name.split('/')[0] ?? '')
					? `node:${name} is not available in the offline runtime (see node --help for the modules it has); use the WebContainer sandbox for the rest of Node`
					: `No such built-in module: ${specifier}`
			};
		}
		if (knownNodeModules.has(specifier.split('/')[0] ?? '')) {
			return {
				kind: 'error',
				code: 'ERR_UNKNOWN_BUILTIN_MODULE',
				message: `'${specifier}' is not available in the offline runtime (see node --help for the modules it has); use the WebContainer sandbox for the rest of Node`
			};
		}
		const fromFolder = parentOf(fromFile);
		let target: string | undefined;
		if (specifier.startsWith('file://')) {
			target = decodeURIComponent(specifier.slice('file://'.length));
		} else if (specifier.startsWith('/')) {
			target = specifier;
		} else if (
			specifier === '.' ||
			specifier === '..' ||
			specifier.startsWith('./') ||
			specifier.startsWith('../')
		) {
			target = normalizePath(joinPath(fromFolder, specifier));
		}
		if (target !== undefined) {
			target = normalizePath(target);
			const found = this.resolveFile(target) ?? this.resolveDirectory(target, mode);
			if (found) return { kind: 'file', path: found };
			return notFound(specifier, fromFile, mode);
		}
		return this.resolvePackage(specifier, fromFile, mode);
	}

	/** How Node would run the file: by extension, else the nearest package.json's `type`. */
	formatOf(path: string, source: string): ModuleFormat {
		if (path.endsWith('.json')) return 'json';
		if (/\.m[jt]s$/.test(path)) return 'module';
		if (/\.c[jt]s$/.test(path)) return 'commonjs';
		const type = this.nearestPackageJson(parentOf(path))?.json.type;
		if (type === 'module') return 'module';
		if (type === 'commonjs') return 'commonjs';
		// No "type": like Node 22 and tsx, a file with import/export syntax is a module.
		return hasModuleSyntax(source) ? 'module' : 'commonjs';
	}

	private resolveFile(path: string): string | undefined {
		if (this.snapshot.isFile(path)) return path;
		const extension = extensionOf(path);
		for (const alternative of typeScriptAlternatives[extension] ?? []) {
			const candidate = path.slice(0, -extension.length) + alternative;
			if (this.snapshot.isFile(candidate)) return candidate;
		}
		for (const added of sourceExtensions) {
			if (this.snapshot.isFile(path + added)) return path + added;
		}
		return undefined;
	}

	private resolveDirectory(path: string, mode: 'import' | 'require'): string | undefined {
		if (!this.snapshot.isDirectory(path)) return undefined;
		const json = this.readPackageJson(path);
		if (json) {
			const entry =
				exportsEntry(json.exports, '.', mode) ??
				(typeof json.main === 'string' ? json.main : undefined);
			if (entry) {
				const target = normalizePath(joinPath(path, entry));
				const found = this.resolveFile(target) ?? this.resolveIndex(target);
				if (found) return found;
			}
		}
		return this.resolveIndex(path);
	}

	private resolveIndex(folder: string): string | undefined {
		for (const extension of sourceExtensions) {
			const candidate = joinPath(folder, `index${extension}`);
			if (this.snapshot.isFile(candidate)) return candidate;
		}
		return undefined;
	}

	private resolvePackage(
		specifier: string,
		fromFile: string,
		mode: 'import' | 'require'
	): Resolution {
		const parts = specifier.split('/');
		const packageName = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
		const subpath = `.${specifier.slice(packageName.length)}`;
		const folder = this.findPackageFolder(packageName, parentOf(fromFile));
		if (folder) {
			const json = this.readPackageJson(folder);
			if (json?.exports !== undefined) {
				const entry = exportsEntry(json.exports, subpath, mode);
				if (entry) {
					const found = this.resolveFile(normalizePath(joinPath(folder, entry)));
					if (found) return { kind: 'file', path: found };
				}
				return {
					kind: 'error',
					code: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
					message: `Package subpath '${subpath}' is not defined by "exports" in ${folder}/package.json`
				};
			}
			const target = subpath === '.' ? folder : normalizePath(joinPath(folder, subpath));
			const found = this.resolveFile(target) ?? this.resolveDirectory(target, mode);
			if (found) return { kind: 'file', path: found };
		}
		return {
			kind: 'error',
			code: mode === 'require' ? 'MODULE_NOT_FOUND' : 'ERR_MODULE_NOT_FOUND',
			message: `Cannot find package '${packageName}' imported from ${fromFile}: packages from npm are not available offline; use the WebContainer sandbox (or write the code in the workspace)`
		};
	}

	private findPackageFolder(name: string, fromFolder: string): string | undefined {
		for (let folder = fromFolder; ; folder = parentOf(folder)) {
			const candidate = joinPath(joinPath(folder, 'node_modules'), name);
			if (this.snapshot.isDirectory(candidate) && this.readPackageJson(candidate)) return candidate;
			if (folder === '/') break;
		}
		// A workspace package (npm workspaces link them into node_modules, which is not here).
		for (const folder of this.packageFolders()) {
			if (this.readPackageJson(folder)?.name === name) return folder;
		}
		return undefined;
	}

	private packageFolders(): string[] {
		const folders: string[] = [];
		const visit = (folder: string) => {
			for (const child of this.snapshot.list(folder)) {
				if (child.kind !== 'directory') {
					if (child.name === 'package.json') folders.push(folder);
					continue;
				}
				if (child.name === 'node_modules' || child.name.startsWith('.')) continue;
				visit(joinPath(folder, child.name));
			}
		};
		visit(this.snapshot.root);
		return folders;
	}

	private nearestPackageJson(
		folder: string
	): { folder: string; json: Record<string, unknown> } | undefined {
		for (let current = folder; ; current = parentOf(current)) {
			const json = this.readPackageJson(current);
			if (json) return { folder: current, json };
			if (current === '/') return undefined;
		}
	}

	private readPackageJson(folder: string): Record<string, unknown> | undefined {
		const path = joinPath(folder, 'package.json');
		if (!this.packageJsonCache.has(path)) {
			let json: Record<string, unknown> | null = null;
			if (this.snapshot.isFile(path)) {
				try {
					const parsed: unknown = JSON.parse(this.snapshot.readText(path));
					if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
						json = parsed as Record<string, unknown>;
					}
				} catch {
					json = null;
				}
			}
			this.packageJsonCache.set(path, json);
		}
		return this.packageJsonCache.get(path) ?? undefined;
	}
}

function builtinName(specifier: string): string | undefined {
	const name = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
	return (builtinModuleNames as readonly string[]).includes(name) ? name : undefined;
}

function notFound(specifier: string, fromFile: string, mode: 'import' | 'require'): Resolution {
	return {
		kind: 'error',
		code: mode === 'require' ? 'MODULE_NOT_FOUND' : 'ERR_MODULE_NOT_FOUND',
		message: `Cannot find module '${specifier}' imported from ${fromFile}`
	};
}

/** The target of `exports` for a subpath, with the conditions Node uses (no wildcards). */
function exportsEntry(
	exports: unknown,
	subpath: string,
	mode: 'import' | 'require'
): string | undefined {
	if (exports === undefined || exports === null) return undefined;
	if (typeof exports === 'string' || Array.isArray(exports)) {
		return subpath === '.' ? conditionalTarget(exports, mode) : undefined;
	}
	if (typeof exports !== 'object') return undefined;
	const map = exports as Record<string, unknown>;
	const keys = Object.keys(map);
	if (keys.length > 0 && keys.every((key) => !key.startsWith('.'))) {
		return subpath === '.' ? conditionalTarget(map, mode) : undefined;
	}
	if (subpath in map) return conditionalTarget(map[subpath], mode);
	for (const key of keys) {
		const star = key.indexOf('*');
		if (star === -1) continue;
		const prefix = key.slice(0, star);
		const suffix = key.slice(star + 1);
		if (
			subpath.startsWith(prefix) &&
			subpath.endsWith(suffix) &&
			subpath.length >= key.length - 1
		) {
			const middle = subpath.slice(prefix.length, subpath.length - suffix.length);
			return conditionalTarget(map[key], mode)?.replace(/\*/g, middle);
		}
	}
	return undefined;
}

function conditionalTarget(target: unknown, mode: 'import' | 'require'): string | undefined {
	if (typeof target === 'string') return target;
	if (Array.isArray(target)) {
		for (const item of target) {
			const found = conditionalTarget(item, mode);
			if (found) return found;
		}
		return undefined;
	}
	if (target && typeof target === 'object') {
		for (const [condition, value] of Object.entries(target)) {
			if (condition === mode || condition === 'node' || condition === 'default') {
				const found = conditionalTarget(value, mode);
				if (found) return found;
			}
		}
	}
	return undefined;
}

function extensionOf(path: string): string {
	const name = path.slice(path.lastIndexOf('/') + 1);
	const dot = name.lastIndexOf('.');
	return dot <= 0 ? '' : name.slice(dot);
}

export function normalizePath(path: string): string {
	const parts: string[] = [];
	for (const part of path.split('/')) {
		if (part === '' || part === '.') continue;
		if (part === '..') parts.pop();
		else parts.push(part);
	}
	return `/${parts.join('/')}`;
}

/** An `import`/`export` statement (not `import(`, not inside the first comment). */
export function hasModuleSyntax(source: string): boolean {
	return (
		/^\s*(import\s*[\w{*'"$]|import\s+type\b|export\s|export\{)/m.test(source) ||
		/\bimport\.meta\b/.test(source)
	);
}
