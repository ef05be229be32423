import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright';
import { chromiumArguments, chromiumExecutablePath } from '../e2e/chromium.js';
import type { LedgerFiles } from './ledger-files.js';
import { startServer } from './start-server.js';

/** What `verify-in-worker.ts` posts and hears back: the built Worker speaks the same messages. */
interface BuiltVerifyRun {
	totalMs: number;
	workerStartMs: number;
	ok: boolean;
	firstFailure: string | null;
	events: number;
	records: number;
}

const workersFolder = 'build/client/_app/immutable/workers';
/** The bench's ledger (bench/run-bench.ts fullSizes), as verify-in-own-process.ts expects it. */
const expectedEvents = 100_000;
/** A verify that has not answered by then has hung: the bench reports it instead of waiting. */
const runTimeoutMs = 120_000;

function withTimeout<Value>(promise: Promise<Value>, ms: number, what: string): Promise<Value> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
	});
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The browser verify figure, on the code the app ships: the production build's verify Worker (one
 * bundled file from `server.js`, as the trace panel's Verify starts it), in Chromium, over the
 * bench's 100k-event ledger. Timed from handing over the bytes (transferred, as verifyInWorker
 * does) to the report, Worker start included; the median of three runs after a first one that
 * also fetched the Worker file. The page is a blank one of the server's origin, so nothing else
 * runs on the machine's two cores meanwhile.
 */
export async function verifyInBuiltWorker(ledger: LedgerFiles | null): Promise<{
	verify_ms: number;
	verify_runs_ms: number[];
	worker_start_ms: number;
	cold_first_run_ms: number;
	events: number;
	trace_records: number;
	verified_ok: boolean;
	worker: string;
}> {
	if (!ledger) throw new Error('no bench ledger was written');
	const workerFile = readdirSync(workersFolder).find((name) =>
		/^verify\.worker-.*\.js$/.test(name)
	);
	if (!workerFile) throw new Error(`no verify.worker-*.js in ${workersFolder}: run npm run build`);
	const port = 4300 + Math.floor(Math.random() * 500);
	const server = await startServer(port);
	let browser: Browser | null = null;
	try {
		browser = await chromium.launch({
			executablePath: chromiumExecutablePath,
			args: chromiumArguments
		});
		const context = await browser.newContext();
		const origin = `http://127.0.0.1:${port}`;
		// The server's own origin and headers (cross-origin isolated), with a page of nothing and
		// the ledger files from disk.
		await context.route(`${origin}/bench-blank`, (route) =>
			route.fulfill({
				contentType: 'text/html',
				headers: {
					'Cross-Origin-Opener-Policy': 'same-origin',
					'Cross-Origin-Embedder-Policy': 'require-corp'
				},
				body: '<!doctype html><title>verify</title>'
			})
		);
		await context.route(`${origin}/bench-ledger/audit.jsonl`, (route) =>
			route.fulfill({ path: ledger.auditPath, contentType: 'application/x-ndjson' })
		);
		await context.route(`${origin}/bench-ledger/agent_trace.jsonl`, (route) =>
			route.fulfill({ path: ledger.tracePath, contentType: 'application/x-ndjson' })
		);
		const page = await context.newPage();
		await page.goto(`${origin}/bench-blank`);
		const runs: BuiltVerifyRun[] = [];
		for (let run = 0; run < 4; run++) {
			const measured = page.evaluate(async (workerUrl) => {
				// No named functions in here: the bench runs through tsx, whose keepNames wraps them
				// in a helper the page does not have.
				const [audit, trace] = (await Promise.all(
					['audit.jsonl', 'agent_trace.jsonl'].map(async (name) => {
						const response = await fetch(`/bench-ledger/${name}`);
						if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
						return new Uint8Array(await response.arrayBuffer());
					})
				)) as [Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>];
				const started = performance.now();
				let firstProgressAt: number | undefined;
				const worker = new Worker(workerUrl, { type: 'module', name: 'threadline-verify' });
				const report = await new Promise<{
					ok: boolean;
					firstFailure: string | null;
					audit: { events: number };
					trace: { records: number };
				}>((resolve, reject) => {
					worker.onmessage = (message) => {
						const response = message.data;
						if (response.kind === 'progress') firstProgressAt ??= performance.now();
						else if (response.kind === 'done') resolve(response.report);
						else reject(new Error(response.message));
					};
					worker.onerror = (event) => reject(new Error(event.message || 'the Worker failed'));
					worker.postMessage({ kind: 'jsonl', audit, trace }, [audit.buffer, trace.buffer]);
				});
				const finished = performance.now();
				worker.terminate();
				return {
					totalMs: finished - started,
					workerStartMs: (firstProgressAt ?? finished) - started,
					ok: report.ok,
					firstFailure: report.firstFailure,
					events: report.audit.events,
					records: report.trace.records
				};
			}, `/_app/immutable/workers/${workerFile}`);
			runs.push(await withTimeout(measured, runTimeoutMs, `verify run ${run + 1}`));
		}
		const [cold, ...warm] = runs;
		const last = runs[runs.length - 1]!;
		// A figure only for verifies of the whole ledger that passed, every run: an empty or cut
		// file would verify fast, and ok.
		for (const run of runs)
			if (!run.ok || run.events !== expectedEvents)
				throw new Error(
					`the built verify Worker did not accept the bench ledger: ${run.events} of ${expectedEvents} events, ${run.firstFailure ?? 'ok'}`
				);
		const median = (values: number[]) => {
			const sorted = [...values].sort((left, right) => left - right);
			return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
		};
		return {
			verify_ms: median(warm.map((run) => run.totalMs)),
			verify_runs_ms: warm.map((run) => Math.round(run.totalMs)),
			worker_start_ms: median(warm.map((run) => run.workerStartMs)),
			cold_first_run_ms: Math.round(cold!.totalMs),
			events: last.events,
			trace_records: last.records,
			verified_ok: true,
			worker: join(workersFolder, workerFile)
		};
	} finally {
		await browser?.close();
		server.kill('SIGTERM');
	}
}
