// One `threadline verify`'s worth of verifying, in a process of its own: the CLI's code path
// (the files' bytes in megabyte chunks, node:crypto, Node's TextDecoder) over the bench's 100k-event ledger, timed
// from the bytes in memory to the report (reading the files is not timed). The bench's own
// process has built that ledger and holds it, so a verify there pays for a heap the CLI never
// has. Prints one JSON line. Usage: node bin/run-ts.js bench/verify-process.ts <audit> <trace>
import { readFileSync } from 'node:fs';
import { nodeVerifyPorts } from '../bin/cli/node-ports.js';
import { megabyteChunks } from '../hooks/ledger/read-jsonl.js';
import { verifyLedger } from '../hooks/ledger/verify.js';

const [auditPath, tracePath] = process.argv.slice(2);
if (!auditPath || !tracePath)
	throw new Error('usage: verify-process.ts <audit.jsonl> <agent_trace.jsonl>');
const audit = readFileSync(auditPath);
const trace = readFileSync(tracePath);
const runs: number[] = [];
let events = 0;
let ok = true;
for (let run = 0; run < 3; run++) {
	const started = performance.now();
	const report = await verifyLedger({
		auditJsonl: megabyteChunks(audit),
		traceJsonl: megabyteChunks(trace),
		...nodeVerifyPorts
	});
	runs.push(performance.now() - started);
	events = report.audit.events;
	ok &&= report.ok;
}
const sorted = [...runs].sort((left, right) => left - right);
console.log(
	JSON.stringify({
		verify_ms: Math.round((sorted[1] ?? 0) * 10) / 10,
		runs_ms: runs.map((value) => Math.round(value)),
		events,
		verified_ok: ok
	})
);
