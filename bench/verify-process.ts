// One `threadline verify`'s worth of verifying, in a process of its own: the CLI's code path (the
// ledger read into shared memory as the CLI reads it, node:crypto, Node's TextDecoder, and for a
// ledger this large a helper thread verifying parts of it: bin/cli/verify-helper-thread.ts) over
// the bench's 100k-event ledger, timed from the bytes in memory to the report (reading the files
// is not timed; starting the helper thread is). The bench's own process has built that ledger and
// holds it, so a verify there pays for a heap the CLI never has. Prints one JSON line.
// Usage: node bin/run-ts.js bench/verify-process.ts <audit> <trace>
import { nodeVerifyPorts } from '../bin/cli/node-ports.js';
import { readFileShared } from '../bin/cli/read-file-shared.js';
import { verifyHelperThreads } from '../bin/cli/verify-helper-thread.js';
import { verifyLedger } from '../hooks/ledger/verify.js';

const [auditPath, tracePath] = process.argv.slice(2);
if (!auditPath || !tracePath)
	throw new Error('usage: verify-process.ts <audit.jsonl> <agent_trace.jsonl>');
// As `threadline verify` does: the helper thread's program compiled while the files are read, and
// the files read into shared memory (read-export-source.ts).
void verifyHelperThreads.prepare();
const audit = await readFileShared(auditPath);
const trace = await readFileShared(tracePath);
const runs: number[] = [];
let events = 0;
let ok = true;
for (let run = 0; run < 5; run++) {
	const started = performance.now();
	const report = await verifyLedger({
		auditJsonl: audit,
		traceJsonl: trace,
		...nodeVerifyPorts
	});
	runs.push(performance.now() - started);
	events = report.audit.events;
	ok &&= report.ok;
}
const sorted = [...runs].sort((left, right) => left - right);
console.log(
	JSON.stringify({
		verify_ms: Math.round((sorted[2] ?? 0) * 10) / 10,
		runs_ms: runs.map((value) => Math.round(value)),
		events,
		verified_ok: ok
	})
);
