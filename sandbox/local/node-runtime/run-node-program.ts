import type { IFileSystem } from 'just-bash';
import type {
	QuickJSContext,
	QuickJSHandle,
	QuickJSRuntime,
	QuickJSWASMModule
} from 'quickjs-emscripten-core';
import {
	runQuickJsScript,
	type QuickJsScriptLimits,
	type QuickJsScriptResult
} from '../quickjs-script.js';
import { bytesToLatin1, fromHex, latin1ToBytes, toHex } from './host-crypto.js';
import { digest, hashAlgorithms, hmac, normalizeHashName } from './host-hash-algorithms.js';
import { builtinModuleNames, ModuleResolver, type ModuleFormat } from './module-resolver.js';
import { assertPrelude } from './assert-prelude.js';
import { bufferPrelude } from './buffer-prelude.js';
import { errorsPrelude } from './errors-prelude.js';
import { eventsPrelude } from './events-prelude.js';
import { answerIntlRequest, type IntlRequest } from './host-intl.js';
import { intlPrelude } from './intl-prelude.js';
import { offlineModulesPrelude } from './offline-modules-prelude.js';
import { querystringPrelude } from './querystring-prelude.js';
import { nodeRuntimePrelude } from './runtime-prelude.js';
import { streamPrelude } from './stream-prelude.js';
import { stringDecoderPrelude } from './string-decoder-prelude.js';
import { utilPrelude } from './util-prelude.js';
import { testMockPrelude } from './test-mock-prelude.js';
import { testRunnerPrelude } from './test-runner-prelude.js';
import { loadTranspiler, needsTranspiler, transpile, TranspileError } from './transpile.js';
import { FileSystemError, WorkspaceSnapshot } from './workspace-snapshot.js';

/**
 * Runs one Node program on QuickJS: `node file.ts`, `node -e`, a test file of `node --test`.
 * Reads the workspace into a snapshot first (modules and `fs.*Sync` need synchronous reads,
 * see workspace-snapshot.ts), loads the TypeScript transpiler when a `.ts`/`.tsx` file is
 * there, runs the program with the Node preludes, then writes what the program changed through
 * the shell's file system (so the shell transaction records and checks every write).
 */

export interface NodeProgram {
	/** `file`: run `entry` (absolute path); `eval`/`print`: run `source` as a script. */
	mode: 'file' | 'eval' | 'print';
	entry?: string;
	source?: string;
	argv: string[];
	env: Record<string, string>;
	/** Absolute current folder. */
	cwd: string;
	/** Absolute folder preloaded and writable (the workspace mount). */
	root: string;
	/** `deadline` is the command's; the program's own time limit starts when it starts running. */
	limits: QuickJsScriptLimits & { timeLimitMs: number };
	shouldStop?: () => boolean;
	/** node --test: number tests after the files before, and leave the summary to the caller. */
	testRun?: { numberOffset: number; quietHeader: boolean };
}

export interface NodeProgramResult extends QuickJsScriptResult {
	/** node --test: the file's counts (tests, pass, fail, …) and its last top-level number. */
	testCounts?: { counts: Record<string, number>; last: number };
}

export async function runNodeProgram(
	fileSystem: IFileSystem,
	module: QuickJSWASMModule,
	program: NodeProgram,
	snapshotReady?: WorkspaceSnapshot
): Promise<NodeProgramResult> {
	const snapshot = snapshotReady ?? (await WorkspaceSnapshot.load(fileSystem, program.root));
	const resolver = new ModuleResolver(snapshot);
	let entrySource = program.source ?? '';
	let kind: 'script' | 'module' | 'main' = 'script';
	const filename =
		program.mode === 'file' && program.entry ? program.entry : `${program.cwd}/[eval]`;
	let transform: Awaited<ReturnType<typeof loadTranspiler>> | undefined;
	if (program.mode === 'file' && program.entry) {
		let raw: string;
		try {
			raw = snapshot.readText(program.entry);
		} catch (error) {
			return failed(`node: cannot open ${program.entry}: ${describe(error)}\n`);
		}
		const format = resolver.formatOf(program.entry, raw);
		if (workspaceNeedsTranspiler(snapshot, program.entry)) transform = await loadTranspiler();
		if (format === 'module') {
			try {
				entrySource = transpile(transform, {
					path: program.entry,
					source: raw,
					target: 'module',
					sourceFormat: 'module'
				});
			} catch (error) {
				return failed(`${describe(error)}\n`);
			}
			kind = 'module';
		} else {
			kind = 'main';
		}
	} else if (workspaceHasTypeScript(snapshot)) {
		transform = await loadTranspiler();
	}

	const host = new NodeHost(snapshot, resolver, transform, program.cwd);
	let testCounts: NodeProgramResult['testCounts'];
	const result = runQuickJsScript(module, {
		source: entrySource,
		filename,
		argv: program.argv,
		env: program.env,
		cwd: program.cwd,
		printCompletionValue: program.mode === 'print',
		// Loading the workspace, the transpiler and the preludes is not the program's time.
		limits: program.limits,
		...(program.shouldStop ? { shouldStop: program.shouldStop } : {}),
		kind,
		extend: (context, runtime) => {
			host.install(context, runtime);
			if (program.testRun) {
				setGlobalJson(context, '__threadlineTestOptions', { ...program.testRun, collect: true });
			}
			for (const [source, name] of nodePreludes) evaluatePrelude(context, source, name);
			host.readBuiltinExports(context);
		},
		finish: (context) => {
			host.readTestCounts();
			// Node's 'exit' event at the natural end (process.exit emits it itself).
			const emitted = context.evalCode(
				'typeof __threadlineEmitExit === "function" && __threadlineEmitExit(process.exitCode === undefined ? 0 : Number(process.exitCode) | 0)',
				'threadline:exit-event.js'
			);
			if (emitted.error) emitted.error.dispose();
			else emitted.value.dispose();
		}
	});
	if (program.testRun) testCounts = host.testCounts;
	const failures = await snapshot.flush(fileSystem);
	if (failures.length > 0) {
		result.stderr += failures.map((failure) => `node: could not write ${failure}\n`).join('');
		if (result.exitCode === 0) result.exitCode = 1;
	}
	return { ...result, ...(testCounts ? { testCounts } : {}) };
}

/** Any TypeScript/JSX in the workspace may be imported: load the transpiler up front. */
function workspaceNeedsTranspiler(snapshot: WorkspaceSnapshot, entry: string): boolean {
	return needsTranspiler(entry) || workspaceHasTypeScript(snapshot);
}

function workspaceHasTypeScript(snapshot: WorkspaceSnapshot): boolean {
	return snapshot.hasFileMatching((path) => needsTranspiler(path));
}

function failed(stderr: string): NodeProgramResult {
	return { stdout: '', stderr, exitCode: 1 };
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The Node runtime's preludes, in the order they build on each other. */
const nodePreludes: readonly (readonly [string, string])[] = [
	[intlPrelude, 'threadline:intl.js'],
	[errorsPrelude, 'threadline:errors.js'],
	[eventsPrelude, 'threadline:events.js'],
	[nodeRuntimePrelude, 'threadline:node-runtime.js'],
	[bufferPrelude, 'threadline:buffer.js'],
	[utilPrelude, 'threadline:util.js'],
	[stringDecoderPrelude, 'threadline:string-decoder.js'],
	[streamPrelude, 'threadline:stream.js'],
	[querystringPrelude, 'threadline:querystring.js'],
	[offlineModulesPrelude, 'threadline:offline-modules.js'],
	[assertPrelude, 'threadline:assert.js'],
	[testMockPrelude, 'threadline:test-mock.js'],
	[testRunnerPrelude, 'threadline:node-test.js']
];

function evaluatePrelude(context: QuickJSContext, source: string, name: string): void {
	context.unwrapResult(context.evalCode(source, name)).dispose();
}

function setGlobalJson(context: QuickJSContext, name: string, value: unknown): void {
	const parsed = context.unwrapResult(
		context.evalCode(`(${JSON.stringify(JSON.stringify(value))})`, 'threadline:options.js')
	);
	const json = context.getProp(context.global, 'JSON');
	const parse = context.getProp(json, 'parse');
	const object = context.unwrapResult(context.callFunction(parse, json, parsed));
	context.setProp(context.global, name, object);
	for (const handle of [object, parse, json, parsed]) handle.dispose();
}

/** The host side of `__threadlineNodeHost` and of the ES module loader. */
class NodeHost {
	private builtinExports: Record<string, string[]> = {};
	testCounts: NodeProgramResult['testCounts'];

	constructor(
		private readonly snapshot: WorkspaceSnapshot,
		private readonly resolver: ModuleResolver,
		private readonly transform: Awaited<ReturnType<typeof loadTranspiler>> | undefined,
		private readonly cwd: string
	) {}

	install(context: QuickJSContext, runtime: QuickJSRuntime): void {
		const object = context.newObject();
		const functions: Record<
			string,
			(...args: QuickJSHandle[]) => QuickJSHandle | { error: QuickJSHandle } | undefined
		> = {
			resolve: (specifier, from, mode) =>
				context.newString(
					JSON.stringify(
						this.resolver.resolve(
							context.getString(specifier),
							this.baseFile(context.getString(from)),
							context.getString(mode) === 'require' ? 'require' : 'import'
						)
					)
				),
			loadCommonJs: (path) =>
				context.newString(JSON.stringify(this.loadCommonJs(context.getString(path)))),
			compile: (source, filename) => {
				const result = context.evalCode(context.getString(source), context.getString(filename));
				if (result.error) return { error: result.error };
				return result.value;
			},
			fs: (operation, args) =>
				context.newString(
					JSON.stringify(
						this.fileSystemCall(context.getString(operation), JSON.parse(context.getString(args)))
					)
				),
			// The prelude checks names first; an unknown one here is refused, never hashed as another.
			digest: (algorithm, data) => {
				const name = normalizeHashName(context.getString(algorithm));
				if (!name) return { error: context.newError('unsupported digest algorithm') };
				return context.newString(toHex(digest(name, fromHex(context.getString(data)))));
			},
			hmac: (algorithm, key, data) => {
				const name = normalizeHashName(context.getString(algorithm));
				if (!name) return { error: context.newError('unsupported HMAC algorithm') };
				return context.newString(
					toHex(hmac(name, fromHex(context.getString(key)), fromHex(context.getString(data))))
				);
			},
			hashNames: () => context.newString(JSON.stringify(hashAlgorithms)),
			intl: (request) =>
				context.newString(
					JSON.stringify(answerIntlRequest(JSON.parse(context.getString(request)) as IntlRequest))
				),
			builtinNames: () => context.newString(JSON.stringify(builtinModuleNames)),
			random: (size) => {
				const bytes = new Uint8Array(Math.max(0, Math.min(65536, context.getNumber(size))));
				crypto.getRandomValues(bytes);
				return context.newString(toHex(bytes));
			},
			url: (input, base, hasBase) =>
				context.newString(
					parseUrl(
						context.getString(input),
						context.getString(base),
						context.dump(hasBase) === true
					)
				)
		};
		for (const [name, implementation] of Object.entries(functions)) {
			const handle = context.newFunction(name, implementation);
			context.setProp(object, name, handle);
			handle.dispose();
		}
		context.setProp(context.global, '__threadlineNodeHost', object);
		object.dispose();

		runtime.setModuleLoader(
			(name) => this.loadModule(name),
			(base, requested) => this.normalizeModuleName(base, requested)
		);
	}

	readBuiltinExports(context: QuickJSContext): void {
		const result = context.unwrapResult(
			context.evalCode('__threadlineBuiltinExports()', 'threadline:builtins.js')
		);
		this.builtinExports = JSON.parse(context.getString(result)) as Record<string, string[]>;
		result.dispose();
		// node --test collects the file's counts when the program ends (see test-runner-prelude.ts).
		this.readTestCounts = () => {
			const counts = context.evalCode(
				'globalThis.__threadlineTestCounts || ""',
				'threadline:counts.js'
			);
			if (counts.error) {
				counts.error.dispose();
				return;
			}
			const text = context.getString(counts.value);
			counts.value.dispose();
			if (text) this.testCounts = JSON.parse(text) as NodeProgramResult['testCounts'];
		};
	}

	readTestCounts: () => void = () => {};

	private baseFile(from: string): string {
		return from.startsWith('/') ? from : `${this.cwd}/[eval]`;
	}

	private normalizeModuleName(base: string, requested: string): string {
		const resolution = this.resolver.resolve(requested, this.baseFile(base), 'import');
		if (resolution.kind === 'builtin') return `node:${resolution.name}`;
		if (resolution.kind === 'file') return resolution.path;
		return `threadline-error:${JSON.stringify(resolution)}`;
	}

	private loadModule(name: string): string | { error: Error } {
		if (name.startsWith('threadline-error:')) {
			const resolution = JSON.parse(name.slice('threadline-error:'.length)) as {
				code: string;
				message: string;
			};
			const error = new Error(resolution.message);
			error.name = `Error [${resolution.code}]`;
			return { error };
		}
		if (name.startsWith('node:')) {
			const builtin = name.slice(5);
			const names = this.builtinExports[builtin] ?? [];
			return `const m = globalThis.__threadlineBuiltin(${JSON.stringify(builtin)});\nexport default m;\n${exportNames(names)}`;
		}
		let source: string;
		try {
			source = this.snapshot.readText(name);
		} catch (error) {
			return { error: new Error(describe(error)) };
		}
		const format: ModuleFormat = this.resolver.formatOf(name, source);
		if (format === 'json') {
			return `export default ${jsonModuleValue(source)};`;
		}
		if (format === 'commonjs') {
			const names = commonJsExportNames(source);
			return `const m = globalThis.__threadlineRequireModule(${JSON.stringify(name)});\nexport default m;\n${exportNames(names)}`;
		}
		try {
			return transpile(this.transform, {
				path: name,
				source,
				target: 'module',
				sourceFormat: 'module'
			});
		} catch (error) {
			const syntax = new SyntaxError(describe(error));
			return { error: syntax };
		}
	}

	private loadCommonJs(path: string): {
		source?: string;
		json?: string;
		error?: { name: string; code: string; message: string };
	} {
		let source: string;
		try {
			source = this.snapshot.readText(path);
		} catch (error) {
			return {
				error: {
					name: 'Error',
					code: 'MODULE_NOT_FOUND',
					message: `Cannot find module '${path}': ${describe(error)}`
				}
			};
		}
		const format = this.resolver.formatOf(path, source);
		if (format === 'json') return { json: source };
		try {
			return {
				source: transpile(this.transform, {
					path,
					source,
					target: 'commonjs',
					sourceFormat: format
				})
			};
		} catch (error) {
			return {
				error: {
					name: error instanceof TranspileError ? 'SyntaxError' : 'Error',
					code: 'ERR_TRANSPILE',
					message: describe(error)
				}
			};
		}
	}

	private fileSystemCall(operation: string, args: Record<string, unknown>): unknown {
		const path = String(args.path ?? '');
		try {
			switch (operation) {
				case 'read': {
					const bytes = this.snapshot.readBytes(path);
					return args.utf8
						? { text: new TextDecoder().decode(bytes) }
						: { latin1: bytesToLatin1(bytes) };
				}
				case 'write':
					this.snapshot.write(path, latin1ToBytes(String(args.latin1 ?? '')), args.append === true);
					return {};
				case 'stat': {
					const entry = this.snapshot.get(path);
					if (!entry) return { entry: null };
					return {
						entry: {
							kind: entry.kind,
							size: entry.kind === 'file' ? entry.size : 4096,
							mtimeMs: entry.mtimeMs
						}
					};
				}
				case 'list':
					return { entries: this.list(path, args.recursive === true) };
				case 'mkdir':
					return { first: this.snapshot.makeDirectory(path, args.recursive === true) };
				case 'rm':
					this.snapshot.remove(path, {
						recursive: args.recursive === true,
						force: args.force === true,
						directoryOnly: args.directoryOnly === true
					});
					return {};
				case 'rename':
					this.snapshot.rename(String(args.from), String(args.to));
					return {};
				default:
					return {
						error: {
							code: 'ENOSYS',
							syscall: operation,
							path,
							message: `ENOSYS: ${operation} is not supported`
						}
					};
			}
		} catch (error) {
			if (error instanceof FileSystemError) {
				return {
					error: {
						code: error.code,
						syscall: error.syscall,
						path: error.path,
						message: error.message
					}
				};
			}
			return { error: { code: 'EIO', syscall: operation, path, message: describe(error) } };
		}
	}

	private list(path: string, recursive: boolean): { name: string; kind: string }[] {
		const entries: { name: string; kind: string }[] = [];
		for (const child of this.snapshot.list(path)) {
			entries.push(child);
			if (recursive && child.kind === 'directory') {
				for (const nested of this.list(`${path === '/' ? '' : path}/${child.name}`, true)) {
					entries.push({ name: `${child.name}/${nested.name}`, kind: nested.kind });
				}
			}
		}
		return entries;
	}
}

function exportNames(names: readonly string[]): string {
	const unique = [...new Set(names)].filter(
		(name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default'
	);
	return unique.map((name) => `export const ${name} = m[${JSON.stringify(name)}];`).join('\n');
}

function jsonModuleValue(source: string): string {
	try {
		return JSON.stringify(JSON.parse(source));
	} catch (error) {
		return `(() => { throw new SyntaxError(${JSON.stringify(describe(error))}); })()`;
	}
}

/** Like Node's cjs-module-lexer, roughly: the names a CommonJS file visibly exports. */
export function commonJsExportNames(source: string): string[] {
	const names: string[] = [];
	for (const match of source.matchAll(/\b(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/g))
		names.push(match[1] ?? '');
	for (const match of source.matchAll(
		/Object\.defineProperty\(\s*(?:module\.)?exports\s*,\s*['"]([A-Za-z_$][\w$]*)['"]/g
	)) {
		names.push(match[1] ?? '');
	}
	const literal = /module\.exports\s*=\s*\{([^}]*)\}/.exec(source);
	if (literal?.[1]) {
		for (const part of literal[1].split(',')) {
			const name = /^\s*([A-Za-z_$][\w$]*)/.exec(part)?.[1];
			if (name) names.push(name);
		}
	}
	return names.filter((name) => name !== '__esModule');
}

function parseUrl(input: string, base: string, hasBase: boolean): string {
	try {
		const url = hasBase ? new URL(input, base) : new URL(input);
		return JSON.stringify({
			href: url.href,
			protocol: url.protocol,
			username: url.username,
			password: url.password,
			host: url.host,
			hostname: url.hostname,
			port: url.port,
			pathname: url.pathname,
			search: url.search,
			hash: url.hash,
			origin: url.origin
		});
	} catch {
		return JSON.stringify({ error: true });
	}
}
