import { readFileSync } from 'node:fs';
import { timeVerify } from './chain-verify.js';
import { nodeContentHash } from '../bin/cli/node-ports.js';
const exported = {
	auditJsonl: readFileSync('/work/scratch/audit.jsonl', 'utf8'),
	traceJsonl: readFileSync('/work/scratch/agent_trace.jsonl', 'utf8')
};
for (let run = 0; run < 3; run++) {
	const cpu = process.cpuUsage();
	const result = await timeVerify(exported, nodeContentHash);
	const used = process.cpuUsage(cpu);
	console.log(
		run,
		'wall',
		Math.round(result.durationMs),
		'cpu',
		Math.round((used.user + used.system) / 1000),
		result.report.ok
	);
}
