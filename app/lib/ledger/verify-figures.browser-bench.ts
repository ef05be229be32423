import { expect, it } from 'vitest';
import type { VerifyReport } from '../../../hooks/ledger/verify.js';
import { verifyInWorker } from './verify-in-worker.js';

// Figures, not assertions: prints `THREADLINE_BENCH {json}` with the time the app's verify Worker
// takes over the bench's 100k-event ledger (left by `npm run bench` in
// node_modules/.cache/threadline-bench/), from handing over the bytes to the report.

const folder = '/node_modules/.cache/threadline-bench';

it('measures the browser verify of the 100k-event ledger', async () => {
	const [auditResponse, traceResponse] = await Promise.all([
		fetch(`${folder}/audit.jsonl`),
		fetch(`${folder}/agent_trace.jsonl`)
	]);
	if (!auditResponse.ok || !traceResponse.ok) {
		console.log(
			`THREADLINE_BENCH ${JSON.stringify({ chain_verify_browser: { error: 'no bench ledger: run npm run bench' } })}`
		);
		return;
	}
	const auditBytes = await auditResponse.arrayBuffer();
	const traceBytes = await traceResponse.arrayBuffer();
	const megabytes =
		Math.round(((auditBytes.byteLength + traceBytes.byteLength) / 1024 / 1024) * 100) / 100;
	// The first run also pays for the dev server transforming the Worker's modules one request at
	// a time (the built app loads one bundled Worker file), so it is reported apart; the figure is
	// the median of the runs after it, each with a fresh Worker and fresh copies of the bytes.
	const runs: { totalMs: number; workerStartMs: number; report: VerifyReport }[] = [];
	for (let run = 0; run < 4; run++) {
		const audit = new Uint8Array(auditBytes.slice(0));
		const trace = new Uint8Array(traceBytes.slice(0));
		const started = performance.now();
		let firstProgressAt: number | undefined;
		const report = await verifyInWorker(
			{ kind: 'jsonl', audit, trace },
			{ onProgress: () => (firstProgressAt ??= performance.now()) }
		);
		const finished = performance.now();
		runs.push({
			totalMs: finished - started,
			workerStartMs: (firstProgressAt ?? finished) - started,
			report
		});
	}
	const [cold, ...warm] = runs;
	const report = runs[runs.length - 1]!.report;
	const median = (values: number[]) => {
		const sorted = [...values].sort((left, right) => left - right);
		return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
	};
	const verifyMs = median(warm.map((run) => run.totalMs));
	expect(report.firstFailure).toBeNull();
	const figures = {
		chain_verify_browser: {
			events: report.audit.events,
			trace_records: report.trace.records,
			jsonl_mb: megabytes,
			verify_ms: verifyMs,
			verify_runs_ms: warm.map((run) => Math.round(run.totalMs)),
			worker_start_ms: median(warm.map((run) => run.workerStartMs)),
			cold_first_run_ms: Math.round(cold!.totalMs),
			verified_ok: report.ok,
			hasher: 'plain-JS SHA-256 in the verify Worker (the trace panel’s Verify)'
		}
	};
	console.log(`THREADLINE_BENCH ${JSON.stringify(figures)}`);
});
