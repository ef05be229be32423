import { expect, it } from 'vitest';
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
	const audit = new Uint8Array(await auditResponse.arrayBuffer());
	const trace = new Uint8Array(await traceResponse.arrayBuffer());
	const megabytes = Math.round(((audit.length + trace.length) / 1024 / 1024) * 100) / 100;
	const started = performance.now();
	const report = await verifyInWorker({ kind: 'jsonl', audit, trace });
	const verifyMs = Math.round((performance.now() - started) * 10) / 10;
	expect(report.firstFailure).toBeNull();
	const figures = {
		chain_verify_browser: {
			events: report.audit.events,
			trace_records: report.trace.records,
			jsonl_mb: megabytes,
			verify_ms: verifyMs,
			verified_ok: report.ok,
			hasher: 'hash-wasm SHA-256 in the verify Worker (the trace panel’s Verify)'
		}
	};
	console.log(`THREADLINE_BENCH ${JSON.stringify(figures)}`);
});
