import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import { forgetQuickJs, loadQuickJs } from './load-quickjs.js';
import { runQuickJsScript } from './quickjs-script.js';

export interface NodeCommandLimits {
	/** Longest a script may run, in milliseconds (also capped by the command's own deadline). */
	timeLimitMs: number;
	memoryLimitBytes: number;
}

export const defaultNodeCommandLimits: Readonly<NodeCommandLimits> = Object.freeze({
	timeLimitMs: 10_000,
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

export const nodeCommandHelp = `Usage: node [options] [script.js | -e "script" | -p "expression"] [arguments]

A small-script stand-in for Node.js, running on QuickJS inside the sandbox.
  -e, --eval <script>     run the script
  -p, --print <expr>      run the expression and print its value
  -h, --help              show this help
  -v, --version           show the version
  script.js               run a file of the workspace (relative to the current folder)
  (no script)             run the script piped on stdin, e.g. echo 'console.log(1)' | node

What scripts have: the JavaScript language (ES2023), console.log/error, process.argv, process.env,
process.exit, setTimeout/setInterval (on virtual time: they run once the script's code is done,
without waiting), Promise and async/await.
What they do not have: require/import of modules, the file system, the network, Buffer, and
reports of unhandled promise rejections (catch them yourself). Scripts stop after a time limit and
a memory limit. For real Node.js and npm, use the WebContainer sandbox.
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
	| {
			kind: 'run';
			mode: 'eval' | 'print' | 'file' | 'stdin';
			script: string;
			scriptArguments: string[];
	  };

/** Reads node's command line; everything after the script belongs to the script. */
export function parseNodeArguments(args: readonly string[]): ParsedArguments {
	let optionsEnded = false;
	for (let index = 0; index < args.length; index += 1) {
		const argument = args[index] ?? '';
		const rest = args.slice(index + 1);
		if (optionsEnded || !argument.startsWith('-')) {
			return { kind: 'run', mode: 'file', script: argument, scriptArguments: rest };
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
					message: `node: bad option: ${argument} (this node knows -e, -p, --help and --version)`
				};
		}
	}
	return { kind: 'run', mode: 'stdin', script: '', scriptArguments: [] };
}

async function runNodeCommand(
	args: string[],
	context: ResolvedCommandContext,
	options: NodeCommandOptions
): Promise<ExecResult> {
	const parsed = parseNodeArguments(args);
	if (parsed.kind === 'help') return { stdout: nodeCommandHelp, stderr: '', exitCode: 0 };
	if (parsed.kind === 'version') {
		return {
			stdout: 'v0.0.0-quickjs (QuickJS, not Node.js: see node --help)\n',
			stderr: '',
			exitCode: 0
		};
	}
	if (parsed.kind === 'error') return { stdout: '', stderr: `${parsed.message}\n`, exitCode: 9 };

	let source = parsed.script;
	let filename = '[eval]';
	if (parsed.mode === 'file') {
		const path = context.fs.resolvePath(context.cwd, parsed.script);
		try {
			source = await context.fs.readFile(path);
		} catch {
			return {
				stdout: '',
				stderr: `node: cannot find '${parsed.script}' (looked for ${path})\n`,
				exitCode: 1
			};
		}
		filename = path;
	} else if (parsed.mode === 'stdin') {
		source = utf8FromLatin1(context.stdin as unknown as string);
		filename = '[stdin]';
	}
	// A shebang line is allowed in Node scripts but is not JavaScript.
	if (source.startsWith('#!')) source = `//${source.slice(2)}`;

	let module: QuickJSWASMModule;
	try {
		module = await (options.loadModule ?? loadQuickJs)(options.limits.memoryLimitBytes);
	} catch (error) {
		return {
			stdout: '',
			stderr: `node: QuickJS could not be loaded: ${error instanceof Error ? error.message : String(error)}\n`,
			exitCode: 1
		};
	}
	const env = context.exportedEnv ?? Object.fromEntries(context.env);
	const argv = ['node', ...(parsed.mode === 'file' ? [filename] : []), ...parsed.scriptArguments];
	const result = runQuickJsScript(module, {
		source,
		filename,
		argv,
		env,
		cwd: context.cwd,
		printCompletionValue: parsed.mode === 'print',
		limits: {
			deadline: Math.min(options.deadline, Date.now() + options.limits.timeLimitMs),
			memoryBytes: options.limits.memoryLimitBytes,
			maxOutputLength: context.limits.maxOutputSize
		},
		shouldStop: () => options.shouldStop() || context.signal?.aborted === true
	});
	if (result.moduleBroken) forgetQuickJs();
	return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
}

/**
 * just-bash hands stdin over as a latin1 byte string (one char per byte); its decoder is not
 * exported by the browser bundle, so decode here.
 */
function utf8FromLatin1(bytes: string): string {
	const buffer = Uint8Array.from(bytes, (character) => character.charCodeAt(0) & 0xff);
	return new TextDecoder().decode(buffer);
}
