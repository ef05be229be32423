import { readFileSync } from 'node:fs';
import { nodeContentHash } from '../bin/cli/node-ports.js';
import { megabyteChunks } from '../hooks/ledger/read-jsonl.js';
import { verifyLedger } from '../hooks/ledger/verify.js';
const dir = 'node_modules/.cache/threadline-bench/';
const audit = readFileSync(dir + 'audit.jsonl');
const trace = readFileSync(dir + 'agent_trace.jsonl');
for (let run = 0; run < 2; run++) {
	const t = performance.now();
	const r = await verifyLedger({ auditJsonl: megabyteChunks(audit), traceJsonl: megabyteChunks(trace), hasher: nodeContentHash });
	console.log(Math.round(performance.now() - t), r.ok);
}
