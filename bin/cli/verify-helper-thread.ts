import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
	StartVerifyHelper,
	VerifiedPart,
	VerifyHelper
} from '../../hooks/ledger/verify-parts.js';

/** What the helper thread answers to its one job: the parts it verified, or why it could not. */
export type VerifyHelperReply =
	{ kind: 'done'; parts: VerifiedPart[] } | { kind: 'failed'; message: string };

/** The TypeScript the helper thread runs. */
export const verifyHelperEntry = fileURLToPath(
	new URL('./verify-helper-entry.ts', import.meta.url)
);

/** How esbuild (the compiler tsx runs on) turns the entry into one script; packages stay required. */
const buildOptions = {
	bundle: true,
	format: 'cjs',
	platform: 'node',
	packages: 'external',
	write: false,
	logLevel: 'silent'
} as const;

/**
 * The thread's first code, plain CommonJS: it runs the helper's TypeScript compiled into one
 * script, compiling it there when it was not compiled beforehand (prepare), its packages (zod)
 * required from where the entry is. Nothing compiled is kept between runs of the CLI, so the
 * thread always runs the sources as they are. tsx's loader started in a thread instead took
 * 320–420 ms (its own hooks thread, a round trip per module). Anything that fails here fails the
 * helper, never verify: its parts are verified on the thread that started it.
 */
const bootstrap = `
const { workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const { runInThisContext } = require('node:vm');
const { entry, esbuildPath, buildOptions } = workerData;
let code = workerData.code;
if (code === null) {
	const built = require(esbuildPath).buildSync({ ...buildOptions, entryPoints: [entry] });
	if (built.warnings.length > 0) throw new Error('compiling ' + entry + ': ' + built.warnings[0].text);
	code = built.outputFiles[0].text;
}
const compiled = { exports: {} };
runInThisContext('(function (module, exports, require) {' + code + '\\n})', { filename: entry })(
	compiled, compiled.exports, createRequire(entry));
`;

/** Starts verify helper threads running `entry`, compiled beforehand when `prepare` was called. */
export interface VerifyHelperThreads {
	/**
	 * Compiles the entry now, in esbuild's own process (about 30 ms), so a helper started later
	 * runs at once: the CLI calls this before it reads an export, the compiling overlapping the
	 * reading. A helper started before it is done compiles the entry itself, in its thread, where
	 * that took 100–300 ms beside a verifying main thread. Settles when done (never rejects).
	 */
	prepare(): Promise<void>;
	start: StartVerifyHelper;
}

export function verifyHelperThreadsOf(entry: string): VerifyHelperThreads {
	let compiled: string | null = null;
	let compiling: Promise<void> | null = null;
	const esbuildPath = (): string => createRequire(import.meta.url).resolve('esbuild');
	return {
		prepare() {
			return (compiling ??= (async () => {
				try {
					const esbuild = (await import('esbuild')) as typeof import('esbuild');
					const built = await esbuild.build({ ...buildOptions, entryPoints: [entry] });
					if (built.warnings.length === 0) compiled = built.outputFiles[0]?.text ?? null;
				} catch {
					// The helper compiles the entry itself, and fails on its own if that fails too.
				}
			})());
		},
		start() {
			let worker: Worker;
			try {
				worker = new Worker(bootstrap, {
					eval: true,
					workerData: { entry, esbuildPath: esbuildPath(), buildOptions, code: compiled }
				});
			} catch (error) {
				return helperThatFailed(error);
			}
			// Heard from the start: a helper that fails before it is handed a job (or is never
			// handed one, for a ledger that could not be cut) must not take the process down.
			const ended = new Promise<never>((_, reject) => {
				worker.once('error', (error) =>
					reject(new Error(`the verify helper failed: ${error.message}`))
				);
				worker.once('exit', (code) =>
					reject(new Error(`the verify helper stopped (exit code ${code})`))
				);
			});
			ended.catch(() => {});
			return {
				verifyParts(job) {
					const answered = new Promise<VerifiedPart[]>((resolve, reject) => {
						worker.once('message', (reply: VerifyHelperReply) => {
							if (reply.kind === 'done') resolve(reply.parts);
							else reject(new Error(`the verify helper failed: ${reply.message}`));
						});
					});
					const results = Promise.race([answered, ended]);
					// A rejection nobody waits for: verify went on without a helper that failed.
					results.catch(() => {});
					worker.postMessage(job);
					return { taken: Promise.resolve(), results };
				},
				close: () => void worker.terminate()
			};
		}
	};
}

/** A helper that could not be started (no esbuild, no threads): verify goes on without it. */
function helperThatFailed(error: unknown): VerifyHelper {
	const reason = error instanceof Error ? error.message : String(error);
	const failed = Promise.reject(new Error(`the verify helper could not start: ${reason}`));
	failed.catch(() => {});
	return { verifyParts: () => ({ taken: failed, results: failed }), close() {} };
}

/** The CLI's helper threads (nodeVerifyPorts; verify and report prepare them). */
export const verifyHelperThreads = verifyHelperThreadsOf(verifyHelperEntry);
