// `npm run bench`: one JSON object on stdout, progress on stderr. See bench/README.md.
import { fullSizes, runBench } from './run-bench.js';

const started = performance.now();
try {
	const result = await runBench(fullSizes, (line) => {
		process.stderr.write(
			`[bench ${((performance.now() - started) / 1000).toFixed(1)} s] ${line}\n`
		);
	});
	process.stdout.write(`${JSON.stringify(result, null, '\t')}\n`);
} catch (error) {
	// A broken bench must not look like a result: no JSON, a non-zero exit.
	process.stderr.write(
		`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
	);
	process.exitCode = 1;
}
