import type {
	QuickJSContext,
	QuickJSHandle,
	QuickJSRuntime,
	QuickJSWASMModule
} from 'quickjs-emscripten-core';
import { quickJsMemoryExhausted } from './load-quickjs.js';
import { quickJsPrelude } from './quickjs-prelude.js';

export interface QuickJsScriptLimits {
	/** Wall-clock milliseconds (Date.now()) after which the script is interrupted. */
	deadline: number;
	/**
	 * The script's own time, counted from when it starts (after the preludes, which are ours):
	 * the deadline is then the earlier of the two.
	 */
	timeLimitMs?: number;
	memoryBytes: number;
	/** stdout + stderr, in UTF-16 code units; the script is stopped past it. */
	maxOutputLength: number;
}

export interface QuickJsScript {
	source: string;
	/** Shown in stack traces and as `__filename`. */
	filename: string;
	/** `process.argv`: ['node', filename?, ...arguments]. */
	argv: string[];
	env: Record<string, string>;
	cwd: string;
	/** `node -p`: print the value of the script's last expression like console.log would. */
	printCompletionValue?: boolean;
	limits: QuickJsScriptLimits;
	/** Polled by the interrupt handler: true stops the script (Ctrl+C where the thread is free). */
	shouldStop?: () => boolean;
	/**
	 * How `source` runs: a global script (default, `node -e`), an ES module (`type: 'module'`:
	 * import/export, top-level await), or `main`: `__threadlineRunMain(filename)` loads the
	 * file as the CommonJS main module (the Node runtime's prelude defines it).
	 */
	kind?: 'script' | 'module' | 'main';
	/**
	 * Runs after the console/process prelude and before the script: the Node runtime
	 * (node-runtime/) installs its host functions, preludes and module loader here.
	 */
	extend?: (context: QuickJSContext, runtime: QuickJSRuntime) => void;
	/** Runs when the script has ended, before the context is freed (to read what it left). */
	finish?: (context: QuickJSContext) => void;
}

export interface QuickJsScriptResult {
	stdout: string;
	stderr: string;
	exitCode: number;
	/** Set when the script did not end by itself. */
	stoppedBy?: 'time-limit' | 'stop' | 'output-limit';
	/**
	 * True when QuickJS failed while tearing the runtime down (an emscripten abort): the module
	 * must not be used again.
	 */
	moduleBroken?: boolean;
}

/** QuickJS's own stack limit; below the host's (~1 MB) so deep recursion fails inside the VM. */
const maxStackBytes = 256 * 1024;
const maxStackTraceLines = 12;

/**
 * Runs one script in a fresh QuickJS runtime with Node-like console/process globals (see
 * quickJsPrelude), then its promise jobs and timers. Never throws for the script's own failures:
 * an uncaught exception is exit code 1 with the error on stderr, like Node.
 */
export function runQuickJsScript(
	module: QuickJSWASMModule,
	script: QuickJsScript
): QuickJsScriptResult {
	quickJsMemoryExhausted(module, true);
	const runtime = module.newRuntime();
	runtime.setMemoryLimit(script.limits.memoryBytes);
	runtime.setMaxStackSize(maxStackBytes);
	let stdout = '';
	let stderr = '';
	let requestedExit: number | undefined;
	let stoppedBy: QuickJsScriptResult['stoppedBy'];
	let deadline = script.limits.deadline;
	let preparing = true;
	runtime.setInterruptHandler(() => {
		if (stoppedBy || requestedExit !== undefined) return true;
		if (script.shouldStop?.()) stoppedBy = 'stop';
		else if (!preparing && Date.now() > deadline) stoppedBy = 'time-limit';
		return stoppedBy !== undefined;
	});
	const context = runtime.newContext();
	let result: QuickJsScriptResult;
	try {
		installHost(context, {
			write(fd, text) {
				if (requestedExit !== undefined || stoppedBy) return;
				if (stdout.length + stderr.length + text.length > script.limits.maxOutputLength) {
					stoppedBy = 'output-limit';
					return;
				}
				if (fd === 2) stderr += text;
				else stdout += text;
			},
			exit(code) {
				requestedExit ??= code;
			}
		});
		const prelude = context.evalCode(quickJsPrelude, 'threadline:prelude.js');
		context.unwrapResult(prelude).dispose();
		callGlobal(context, '__threadlineSetup', [
			script.argv,
			script.env,
			script.cwd,
			script.filename
		]).dispose();

		script.extend?.(context, runtime);
		preparing = false;
		if (script.limits.timeLimitMs !== undefined) {
			deadline = Math.min(deadline, Date.now() + script.limits.timeLimitMs);
		}

		let modulePromise: QuickJSHandle | undefined;
		let failure: QuickJSHandle | undefined;
		if (script.kind === 'module') {
			const evaluation = context.evalCode(script.source, script.filename, { type: 'module' });
			if (evaluation.error) failure = evaluation.error;
			else modulePromise = evaluation.value;
		} else if (script.kind === 'main') {
			const evaluation = context.evalCode(
				`__threadlineRunMain(${JSON.stringify(script.filename)})`,
				'threadline:main.js'
			);
			if (evaluation.error) failure = evaluation.error;
			else evaluation.value.dispose();
		} else {
			const evaluation = context.evalCode(script.source, script.filename);
			failure = evaluation.error;
			if (!evaluation.error) {
				if (script.printCompletionValue) failure = printValue(context, evaluation.value);
				evaluation.value.dispose();
			}
		}
		while (!failure && requestedExit === undefined && !stoppedBy) {
			const jobs = runtime.executePendingJobs();
			if (jobs.error) {
				failure = jobs.error;
				break;
			}
			if (modulePromise && promiseStateOf(context, modulePromise) === 'rejected') break;
			const next = context.evalCode(
				'__threadlineRunTicks() || __threadlineNextTimer() || (typeof __threadlineBeforeExit === "function" && __threadlineBeforeExit())',
				'threadline:timers.js'
			);
			if (next.error) {
				failure = next.error;
				break;
			}
			const more = context.dump(next.value) === true;
			next.value.dispose();
			if (!more) break;
		}
		let unsettledModule = false;
		if (modulePromise) {
			if (!failure && requestedExit === undefined && !stoppedBy) {
				const state = context.getPromiseState(modulePromise);
				if (state.type === 'rejected') failure = state.error;
				else if (state.type === 'pending') unsettledModule = true;
				else if (!state.notAPromise) state.value.dispose();
			}
			modulePromise.dispose();
		}

		if (!stoppedBy) script.finish?.(context);
		let exitCode = 0;
		if (requestedExit !== undefined) {
			exitCode = requestedExit;
		} else if (stoppedBy) {
			exitCode = stoppedBy === 'stop' ? 130 : 124;
			const message = stopMessage(stoppedBy, script);
			if (message) stderr += `${atLineStart(stdout + stderr) ? '' : '\n'}${message}`;
		} else if (failure && isOutOfMemory(context, failure, module)) {
			stderr += `${atLineStart(stdout + stderr) ? '' : '\n'}${outOfMemoryMessage(script.limits.memoryBytes)}`;
			exitCode = outOfMemoryExitCode;
		} else if (failure) {
			stderr += describeUncaught(context, failure);
			exitCode = 1;
		} else if (unsettledModule) {
			stderr +=
				'Warning: Detected unsettled top-level await (the module waits on a promise that nothing will settle)\n';
			exitCode = 13;
		} else {
			exitCode = readExitCode(context);
		}
		failure?.dispose();
		result = { stdout, stderr, exitCode, ...(stoppedBy ? { stoppedBy } : {}) };
	} catch (error) {
		disposeQuietly(context, runtime);
		// A trap inside the wasm (QuickJS using a NULL from a failed malloc, an emscripten
		// abort): the module's state is unknown, so it is dropped; the script gets a sentence.
		const exhausted = quickJsMemoryExhausted(module);
		const message = exhausted
			? outOfMemoryMessage(script.limits.memoryBytes)
			: `node: the runtime failed (${error instanceof Error ? error.message : String(error)}); the next command starts a fresh one.\n`;
		return {
			stdout,
			stderr: `${stderr}${atLineStart(stdout + stderr) ? '' : '\n'}${message}`,
			exitCode: exhausted ? outOfMemoryExitCode : 1,
			moduleBroken: true
		};
	}
	if (!disposeQuietly(context, runtime)) result.moduleBroken = true;
	return result;
}

/** The state alone, with the handles getPromiseState creates disposed (a leak aborts QuickJS). */
function promiseStateOf(context: QuickJSContext, promise: QuickJSHandle): string {
	const state = context.getPromiseState(promise);
	if (state.type === 'rejected') state.error.dispose();
	else if (state.type === 'fulfilled' && !state.notAPromise) state.value.dispose();
	return state.type;
}

/** Node's own exit code when V8 gives up on a full heap (SIGABRT). */
export const outOfMemoryExitCode = 134;

export function outOfMemoryMessage(memoryBytes: number): string {
	const mebibytes = Math.round((memoryBytes / (1024 * 1024)) * 10) / 10;
	return `node: out of memory (limit ${mebibytes} MiB): the script was stopped because it used more memory than the sandbox allows.\n`;
}

/**
 * QuickJS reports a failed allocation as `InternalError: out of memory`, or, when even that
 * error cannot be allocated, by throwing null or failing elsewhere: then the wasm memory has
 * refused to grow (see load-quickjs.ts).
 */
function isOutOfMemory(
	context: QuickJSContext,
	error: QuickJSHandle,
	module: QuickJSWASMModule
): boolean {
	if (quickJsMemoryExhausted(module)) return true;
	const dumped = context.dump(error) as { name?: unknown; message?: unknown } | null | undefined;
	if (dumped && typeof dumped === 'object') {
		return dumped.name === 'InternalError' && dumped.message === 'out of memory';
	}
	return false;
}

/** False when QuickJS aborted while freeing (it asserts that nothing leaked). */
function disposeQuietly(...disposables: { dispose(): void }[]): boolean {
	try {
		for (const disposable of disposables) disposable.dispose();
		return true;
	} catch {
		return false;
	}
}

function installHost(
	context: QuickJSContext,
	host: { write(fd: number, text: string): void; exit(code: number): void }
): void {
	const object = context.newObject();
	const write = context.newFunction('write', (fd, text) => {
		host.write(context.getNumber(fd), context.getString(text));
	});
	const exit = context.newFunction('exit', (code) => {
		host.exit(context.getNumber(code));
	});
	context.setProp(object, 'write', write);
	context.setProp(object, 'exit', exit);
	context.setProp(context.global, '__threadlineHost', object);
	write.dispose();
	exit.dispose();
	object.dispose();
}

/** Calls a global function with JSON-compatible arguments; throws on failure (prelude only). */
function callGlobal(context: QuickJSContext, name: string, values: unknown[]): QuickJSHandle {
	const fn = context.getProp(context.global, name);
	const args = values.map((value) => toHandle(context, value));
	try {
		return context.unwrapResult(context.callFunction(fn, context.undefined, ...args));
	} finally {
		fn.dispose();
		for (const arg of args) arg.dispose();
	}
}

function toHandle(context: QuickJSContext, value: unknown): QuickJSHandle {
	if (typeof value === 'string') return context.newString(value);
	if (Array.isArray(value)) {
		const array = context.newArray();
		value.forEach((item, index) => {
			const handle = toHandle(context, item);
			context.setProp(array, index, handle);
			handle.dispose();
		});
		return array;
	}
	if (typeof value === 'object' && value !== null) {
		const object = context.newObject();
		for (const [key, item] of Object.entries(value)) {
			const handle = toHandle(context, item);
			context.setProp(object, key, handle);
			handle.dispose();
		}
		return object;
	}
	return context.undefined;
}

/** console.log(value) inside the VM; the error handle when that throws. */
function printValue(context: QuickJSContext, value: QuickJSHandle): QuickJSHandle | undefined {
	const consoleObject = context.getProp(context.global, 'console');
	const log = context.getProp(consoleObject, 'log');
	try {
		const result = context.callFunction(log, consoleObject, value);
		if (result.error) return result.error;
		result.value.dispose();
		return undefined;
	} finally {
		log.dispose();
		consoleObject.dispose();
	}
}

function readExitCode(context: QuickJSContext): number {
	const result = context.evalCode(
		'typeof process === "object" && process.exitCode !== undefined ? Number(process.exitCode) | 0 : 0',
		'threadline:exit.js'
	);
	if (result.error) {
		result.error.dispose();
		return 0;
	}
	const code = context.getNumber(result.value);
	result.value.dispose();
	return code;
}

function describeUncaught(context: QuickJSContext, error: QuickJSHandle): string {
	let text: string | undefined;
	const formatter = context.getProp(context.global, '__threadlineFormatError');
	if (context.typeof(formatter) === 'function') {
		const formatted = context.callFunction(formatter, context.undefined, error);
		if (formatted.error) formatted.error.dispose();
		else {
			text = context.getString(formatted.value);
			formatted.value.dispose();
		}
	}
	formatter.dispose();
	if (text === undefined) {
		// The VM could not even format it (out of memory): what it threw is all there is.
		const dumped = context.dump(error) as { name?: unknown; message?: unknown } | null | undefined;
		text =
			dumped && typeof dumped === 'object' && typeof dumped.message === 'string'
				? `${String(dumped.name ?? 'Error')}: ${dumped.message}`
				: 'Uncaught exception';
	}
	const lines = text.split('\n');
	if (lines.length > maxStackTraceLines) {
		text = [
			...lines.slice(0, maxStackTraceLines),
			`    ... ${lines.length - maxStackTraceLines} more lines`
		].join('\n');
	}
	return `${text}\n`;
}

function atLineStart(text: string): boolean {
	return text === '' || text.endsWith('\n');
}

function stopMessage(
	reason: 'time-limit' | 'stop' | 'output-limit',
	script: QuickJsScript
): string {
	switch (reason) {
		case 'stop':
			return '';
		case 'output-limit':
			return `node: the script was stopped: it printed more than ${script.limits.maxOutputLength} characters.\n`;
		case 'time-limit':
			return 'node: the script was stopped: it ran past its time limit (scripts here are for small, quick programs; see node --help).\n';
	}
}
