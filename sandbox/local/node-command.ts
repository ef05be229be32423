import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import { forgetQuickJs, loadQuickJs } from './load-quickjs.js';
import { runNodeProgram, type NodeProgram } from './node-runtime/run-node-program.js';
import { findTestFiles } from './node-runtime/test-files.js';
import { WorkspaceSnapshot } from './node-runtime/workspace-snapshot.js';
import { workspaceMountPoint } from './shell-command.js';

export interface NodeCommandLimits {
	/** Longest a script may run, in milliseconds (also capped by the command's own deadline). */
	timeLimitMs: number;
	memoryLimitBytes: number;
}

/**
 * 60 s: QuickJS runs real suites 5–20× slower than V8 (a test file Node runs in 2 s can take
 * 10–20 s here), and the limit is there to stop runaway programs; the command's own deadline
 * (exec's timeout, a criterion's) still ends it sooner when that is earlier.
 */
export const defaultNodeCommandLimits: Readonly<NodeCommandLimits> = Object.freeze({
	timeLimitMs: 60_000,
	memoryLimitBytes: 64 * 1024 * 1024
});

export interface NodeCommandOptions {
	limits: NodeCommandLimits;
	/** When the whole command line must end (its timeout), as a Date.now() value. */
	deadline: number;
	/** True once the command line was asked to stop (Ctrl+C, dispose). */
	shouldStop: () => boolean;
	loadModule?: (memoryLimitBytes: number) => Promise<QuickJSWASMModule>;
}

export const nodeCommandHelp = `Usage: node [options] [script.js | script.ts | -e "script" | -p "expression"] [arguments]
       node --test [files or folders]

The offline sandbox's Node.js: a Node-compatible runtime on QuickJS, inside the sandbox.
  -e, --eval <script>     run the script
  -p, --print <expr>      run the expression and print its value
  --test [paths]          run test files (*.test.js/ts, *-test.*, *_test.*, test-*.*, test/**)
  -h, --help              show this help
  -v, --version           show the version
  script.js | script.ts   run a file of the workspace (relative to the current folder)
  (no script)             run the script piped on stdin, e.g. echo 'console.log(1)' | node

What programs have: ES modules and CommonJS from the workspace (relative imports, index files,
package.json type/main/exports, workspace packages), TypeScript/TSX (types stripped, lines kept),
node:fs and node:fs/promises over the workspace, node:path, node:url, node:assert, node:test
(with t.assert, t.plan, mocks and mock timers), node:events, node:stream, node:string_decoder,
node:querystring, node:util, node:buffer, node:module, node:os, node:crypto (SHA-256, HMAC,
random bytes), node:timers, process (an EventEmitter), console, timers (on virtual time: they
run once the code is done, without waiting), TextEncoder/Decoder, URL, structuredClone,
AbortController, EventTarget, crypto.subtle (SHA-256 digest, HMAC sign/verify), atob/btoa and
Buffer.
What they do not have: packages from npm (node_modules is not read), the network (node:http
loads but cannot serve or request), child processes, workers, and reports of unhandled promise
rejections (catch them yourself). Programs stop after a time limit and a memory limit. For
real Node.js and npm, use the WebContainer sandbox.
`;

/** The `node` command for just-bash: QuickJS, loaded on first use (see load-quickjs.ts). */
export function createNodeCommand(options: NodeCommandOptions): Command {
	return {
		name: 'node',
		trusted: true,
		execute: (args, context) => runNodeCommand(args, context, options)
	};
}

type ParsedArguments =
	| { kind: 'help' }
	| { kind: 'version' }
	| { kind: 'error'; message: string }
	| { kind: 'test'; paths: string[] }
	| {
			kind: 'run';
			mode: 'eval' | 'print' | 'file' | 'stdin';
			script: string;
			scriptArguments: string[];
	  };

/** Reads node's command line; everything after the script belongs to the script. */
export function parseNodeArguments(args: readonly string[]): ParsedArguments {
	let optionsEnded = false;
	let testMode = false;
	for (let index = 0; index < args.length; index += 1) {
		const argument = args[index] ?? '';
		const rest = args.slice(index + 1);
		if (testMode && (optionsEnded || !argument.startsWith('-'))) {
			return { kind: 'test', paths: args.slice(index).filter((path) => !path.startsWith('-')) };
		}
		if (optionsEnded || !argument.startsWith('-')) {
			return { kind: 'run', mode: 'file', script: argument, scriptArguments: rest };
		}
		if (ignoredNodeOptions.test(argument)) continue;
		if (
			argument === '--import' ||
			argument === '--require' ||
			argument === '-r' ||
			argument === '--loader'
		) {
			const value = args[index + 1] ?? '';
			// tsx's hooks are built in: TypeScript runs without them.
			if (!/^(tsx|tsx\/.*|ts-node\/.*|ts-node)$/.test(value)) {
				return {
					kind: 'error',
					message: `node: ${argument} ${value}: preloading modules is not supported offline`
				};
			}
			index += 1;
			continue;
		}
		if (argument === '--test') {
			testMode = true;
			continue;
		}
		const [name = '', ...valueParts] = argument.split('=');
		const inlineValue = valueParts.length > 0 ? valueParts.join('=') : undefined;
		switch (name) {
			case '-h':
			case '--help':
				return { kind: 'help' };
			case '-v':
			case '--version':
				return { kind: 'version' };
			case '-e':
			case '--eval':
			case '-p':
			case '--print': {
				const mode = name === '-p' || name === '--print' ? 'print' : 'eval';
				if (inlineValue !== undefined) {
					return { kind: 'run', mode, script: inlineValue, scriptArguments: rest };
				}
				const script = args[index + 1];
				if (script === undefined) {
					return { kind: 'error', message: `node: ${argument} requires an argument` };
				}
				return { kind: 'run', mode, script, scriptArguments: args.slice(index + 2) };
			}
			case '-':
				return { kind: 'run', mode: 'stdin', script: '', scriptArguments: rest };
			case '--':
				optionsEnded = true;
				break;
			default:
				return {
					kind: 'error',
					message: `node: bad option: ${argument} (this node knows -e, -p, --test, --help and --version)`
				};
		}
	}
	if (testMode) return { kind: 'test', paths: [] };
	return { kind: 'run', mode: 'stdin', script: '', scriptArguments: [] };
}

/** Flags of real Node that change nothing here (warnings, source maps, experimental loaders). */
const ignoredNodeOptions =
	/^--(no-warnings|no-deprecation|enable-source-maps|experimental-[a-z-]+|test-reporter(=.*)?|test-reporter-destination(=.*)?|input-type=(module|commonjs)|trace-uncaught|stack-trace-limit=\d+|max-old-space-size=\d+|conditions=\S+|disable-warning=\S+|import=tsx|loader=tsx)$/;

async function runNodeCommand(
	args: string[],
	context: ResolvedCommandContext,
	options: NodeCommandOptions
): Promise<ExecResult> {
	const parsed = parseNodeArguments(args);
	if (parsed.kind === 'help') return { stdout: nodeCommandHelp, stderr: '', exitCode: 0 };
	if (parsed.kind === 'version') return { stdout: `${nodeVersion}\n`, stderr: '', exitCode: 0 };
	if (parsed.kind === 'error') return { stdout: '', stderr: `${parsed.message}\n`, exitCode: 9 };
	if (parsed.kind === 'test') {
		return runNodeTests(context, options, parsed.paths);
	}

	let module: QuickJSWASMModule;
	try {
		module = await (options.loadModule ?? loadQuickJs)(options.limits.memoryLimitBytes);
	} catch (error) {
		return quickJsUnavailable(error);
	}
	const program = baseProgram(context, options);
	if (parsed.mode === 'file') {
		const path = context.fs.resolvePath(context.cwd, parsed.script);
		if (!(await context.fs.exists(path)) || !(await context.fs.stat(path)).isFile) {
			return {
				stdout: '',
				stderr: `node: cannot find module '${path}' (no such file: ${parsed.script})\n`,
				exitCode: 1
			};
		}
		program.mode = 'file';
		program.entry = path;
		program.argv = ['node', path, ...parsed.scriptArguments];
	} else {
		program.mode = parsed.mode === 'print' ? 'print' : 'eval';
		program.source =
			parsed.mode === 'stdin' ? utf8FromLatin1(context.stdin as unknown as string) : parsed.script;
		if (program.source.startsWith('#!')) program.source = `//${program.source.slice(2)}`;
		program.argv = ['node', ...parsed.scriptArguments];
	}
	const result = await runNodeProgram(context.fs, module, program);
	if (result.moduleBroken) forgetQuickJs();
	return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
}

export const nodeVersion = 'v20.0.0-quickjs';

function quickJsUnavailable(error: unknown): ExecResult {
	return {
		stdout: '',
		stderr: `node: QuickJS could not be loaded: ${error instanceof Error ? error.message : String(error)}\n`,
		exitCode: 1
	};
}

function baseProgram(context: ResolvedCommandContext, options: NodeCommandOptions): NodeProgram {
	const env = context.exportedEnv ?? Object.fromEntries(context.env);
	return {
		mode: 'eval',
		argv: ['node'],
		env,
		cwd: context.cwd,
		root:
			context.cwd === workspaceMountPoint || context.cwd.startsWith(`${workspaceMountPoint}/`)
				? workspaceMountPoint
				: context.cwd,
		limits: {
			deadline: options.deadline,
			timeLimitMs: options.limits.timeLimitMs,
			memoryBytes: options.limits.memoryLimitBytes,
			maxOutputLength: context.limits.maxOutputSize
		},
		shouldStop: () => options.shouldStop() || context.signal?.aborted === true
	};
}

/**
 * `node --test`: each file in a fresh runtime (as Node runs each in its own process), numbered
 * on from the files before, then one summary and exit code 1 when anything failed.
 */
async function runNodeTests(
	context: ResolvedCommandContext,
	options: NodeCommandOptions,
	paths: string[]
): Promise<ExecResult> {
	let module: QuickJSWASMModule;
	try {
		module = await (options.loadModule ?? loadQuickJs)(options.limits.memoryLimitBytes);
	} catch (error) {
		return quickJsUnavailable(error);
	}
	const template = baseProgram(context, options);
	const snapshot = await WorkspaceSnapshot.load(context.fs, template.root);
	const { files, missing } = findTestFiles(snapshot, context.cwd, paths);
	if (missing.length > 0) {
		return {
			stdout: '',
			stderr: `node --test: could not find ${missing.join(', ')}\n`,
			exitCode: 1
		};
	}
	let stdout = 'TAP version 13\n';
	let stderr = '';
	const totals: Record<string, number> = {
		tests: 0,
		suites: 0,
		pass: 0,
		fail: 0,
		cancelled: 0,
		skipped: 0,
		todo: 0
	};
	let number = 0;
	const started = Date.now();
	let exitCode = 0;
	for (const file of files) {
		// Each file sees the workspace as the files before it left it.
		const fileSnapshot = await WorkspaceSnapshot.load(context.fs, template.root);
		const result = await runNodeProgram(
			context.fs,
			module,
			{
				...template,
				mode: 'file',
				entry: file,
				argv: ['node', file],
				testRun: { numberOffset: number, quietHeader: true }
			},
			fileSnapshot
		);
		if (result.moduleBroken) forgetQuickJs();
		stdout += result.stdout;
		stderr += result.stderr;
		if (result.stoppedBy) {
			exitCode = result.exitCode;
			break;
		}
		if (result.testCounts) {
			number = result.testCounts.last;
			for (const [name, count] of Object.entries(result.testCounts.counts))
				totals[name] = (totals[name] ?? 0) + count;
		}
		const failedTests =
			(result.testCounts?.counts.fail ?? 0) + (result.testCounts?.counts.cancelled ?? 0);
		const fileFailed = result.exitCode !== 0 && failedTests === 0;
		if (!result.testCounts || fileFailed) {
			// A file without node:test tests counts as one test, passed when it exits with 0
			// (as in Node); one that fails outside any test (a syntax error, an uncaught
			// exception) is a failed test named after the file.
			number += 1;
			totals.tests = (totals.tests ?? 0) + 1;
			const name = file.startsWith(`${context.cwd}/`) ? file.slice(context.cwd.length + 1) : file;
			if (fileFailed) {
				totals.fail = (totals.fail ?? 0) + 1;
				stdout += `# Subtest: ${name}\nnot ok ${number} - ${name}\n  ---\n  duration_ms: 0\n  failureType: 'testCodeFailure'\n  exitCode: ${result.exitCode}\n  error: 'test failed'\n  code: 'ERR_TEST_FAILURE'\n  ...\n`;
			} else {
				totals.pass = (totals.pass ?? 0) + 1;
				stdout += `# Subtest: ${name}\nok ${number} - ${name}\n  ---\n  duration_ms: 0\n  ...\n`;
			}
		}
	}
	stdout += `1..${number}\n`;
	for (const name of ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) {
		stdout += `# ${name} ${totals[name] ?? 0}\n`;
	}
	stdout += `# duration_ms ${Date.now() - started}\n`;
	if (exitCode === 0 && (totals.fail ?? 0) + (totals.cancelled ?? 0) > 0) exitCode = 1;
	if (files.length === 0) stderr += 'node --test: no test files found\n';
	return { stdout, stderr, exitCode };
}

/**
 * just-bash hands stdin over as a latin1 byte string (one char per byte); its decoder is not
 * exported by the browser bundle, so decode here.
 */
function utf8FromLatin1(bytes: string): string {
	const buffer = Uint8Array.from(bytes, (character) => character.charCodeAt(0) & 0xff);
	return new TextDecoder().decode(buffer);
}
