// `threadline transcript` of an export folder in a process of its own, as a grader runs it: the
// command's whole path (reading the export, verify of both chains and every .orchestration/ file,
// conversation.jsonl included, the transcript built and rendered as markdown), five runs, and
// `threadline verify` of the same folder for comparison. Prints one JSON line.
// Usage: node bin/run-ts.js bench/transcript-process.ts <export folder>
import { captureOutput } from '../bin/cli/capture-output.js';
import { main } from '../bin/cli/main.js';

const [folder] = process.argv.slice(2);
if (!folder) throw new Error('usage: transcript-process.ts <export folder>');
const median = (runs: number[]) => [...runs].sort((left, right) => left - right)[2] ?? 0;
const timed = async (command: string) => {
	const runs: number[] = [];
	let code = -1;
	for (let run = 0; run < 5; run++) {
		const streams = captureOutput();
		const started = performance.now();
		code = await main([command, folder], streams.output);
		runs.push(performance.now() - started);
	}
	return { median: Math.round(median(runs)), runs: runs.map(Math.round), code };
};
const transcript = await timed('transcript');
const verify = await timed('verify');
console.log(
	JSON.stringify({
		transcript_ms: transcript.median,
		transcript_runs_ms: transcript.runs,
		verify_ms_same_export: verify.median,
		verified_ok: transcript.code === 0
	})
);
process.exit(0);
