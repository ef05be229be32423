import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { StartVerifyHelper, VerifiedPart } from '../../hooks/ledger/verify-parts.js';

/** What the helper thread answers to its one job: the parts it verified, or why it could not. */
export type VerifyHelperReply =
	{ kind: 'done'; parts: VerifiedPart[] } | { kind: 'failed'; message: string };

/** Where the helper's program is, and where its compiled form is kept. */
export interface VerifyHelperProgram {
	/** The TypeScript the thread runs. */
	entry: string;
	/** The compiled script, with the sha256 of every file it was compiled from. */
	cacheFile: string;
}

export const verifyHelperProgram: VerifyHelperProgram = {
	entry: fileURLToPath(new URL('./verify-helper-entry.ts', import.meta.url)),
	cacheFile: fileURLToPath(
		new URL('../../node_modules/.cache/threadline/verify-helper.json', import.meta.url)
	)
};

const esbuildPath = createRequire(import.meta.url).resolve('esbuild');

/**
 * The thread's first code, plain CommonJS. It runs the helper's TypeScript compiled into one
 * script by esbuild (the compiler tsx runs on), kept in a cache file with the sha256 of every file
 * it was compiled from: the thread hashes them again (a few milliseconds) and compiles anew, about
 * 100 ms more, only when one changed or the cache cannot be read. Starting tsx's loader in the
 * thread instead took 320–420 ms (its own hooks thread, and a round trip per module); this starts
 * in about 90. Anything that fails here fails the helper, never verify: its parts are verified on
 * the thread that started it.
 */
const bootstrap = `
const { workerData, threadId } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const vm = require('node:vm');
const { entry, cacheFile, esbuildPath } = workerData;
const digestOf = (inputs) => {
	const hash = crypto.createHash('sha256');
	for (const input of inputs) hash.update(input + '\\0').update(fs.readFileSync(input)).update('\\0');
	return hash.digest('hex');
};
let code = null;
try {
	const cached = JSON.parse(fs.readFileSync(cacheFile, 'utf8'));
	if (cached.entry === entry && typeof cached.code === 'string' && Array.isArray(cached.inputs) &&
		cached.digest === digestOf(cached.inputs)) code = cached.code;
} catch {}
if (code === null) {
	const built = require(esbuildPath).buildSync({
		entryPoints: [entry], bundle: true, format: 'cjs', platform: 'node', write: false,
		metafile: true, absWorkingDir: path.dirname(entry), logLevel: 'silent'
	});
	if (built.warnings.length > 0)
		throw new Error('compiling ' + entry + ': ' + built.warnings[0].text);
	code = built.outputFiles[0].text;
	const inputs = Object.keys(built.metafile.inputs)
		.map((input) => path.resolve(path.dirname(entry), input)).sort();
	try {
		fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
		const temporary = cacheFile + '.' + process.pid + '.' + threadId;
		fs.writeFileSync(temporary, JSON.stringify({ entry, inputs, digest: digestOf(inputs), code }));
		fs.renameSync(temporary, cacheFile);
	} catch {}
}
const compiled = { exports: {} };
vm.runInThisContext('(function (module, exports, require) {' + code + '\\n})', { filename: entry })(
	compiled, compiled.exports, require);
`;

/**
 * A verify helper in a worker thread of its own (verify-helper-entry.ts), started for a large
 * ledger: the machine's other core verifies parts of it at the same time
 * (hooks/ledger/verify-parts.ts). A worker thread receives its messages whatever this thread is
 * doing, so the job is handed over at once and this thread starts on its parts while the helper
 * is still starting.
 */
export function startVerifyHelperThreadOf(program: VerifyHelperProgram): StartVerifyHelper {
	return () => {
		const worker = new Worker(bootstrap, {
			eval: true,
			workerData: { ...program, esbuildPath }
		});
		return {
			verifyParts(job) {
				const results = new Promise<VerifiedPart[]>((resolve, reject) => {
					worker.once('message', (reply: VerifyHelperReply) => {
						if (reply.kind === 'done') resolve(reply.parts);
						else reject(new Error(`the verify helper failed: ${reply.message}`));
					});
					worker.once('error', (error) =>
						reject(new Error(`the verify helper failed: ${error.message}`))
					);
					worker.once('exit', () => reject(new Error('the verify helper stopped')));
				});
				// A rejection nobody waits for: verify went on without a helper that failed.
				results.catch(() => {});
				worker.postMessage(job);
				return { taken: Promise.resolve(), results };
			},
			close: () => void worker.terminate()
		};
	};
}

/** The helper thread the CLI starts (nodeVerifyPorts). */
export const startVerifyHelperThread: StartVerifyHelper =
	startVerifyHelperThreadOf(verifyHelperProgram);
