// `npm run bench`: one JSON object on stdout, progress on stderr. See bench/README.md.
// The IDE figures need the production build, which the npm script makes first.
import { browserSandboxFigures } from './browser-figures.js';
import { bundleReport } from './bundle-report.js';
import { editorInteractiveFigures } from './editor-interactive.js';
import { exportTenThousand, toolCallOverhead } from './agent-figures.js';
import { fullSizes, runBench } from './run-bench.js';
import { gradePageFigures } from './grade-page.js';

const started = performance.now();
const progress = (line: string) =>
	process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1)} s] ${line}\n`);
try {
	const core = await runBench(fullSizes, progress);
	progress('tool-call overhead through the pipeline (no human, no sandbox)');
	const toolCall = await toolCallOverhead();
	progress('export of 10k trace records');
	const exported = await exportTenThousand();
	progress('bundle report of the IDE route');
	const bundle = bundleReport();
	progress('browser sandbox figures (Vitest browser mode, Chromium)');
	const browserSandbox = await browserSandboxFigures();
	progress('editor interactive after navigation (Playwright, production server)');
	const editor = await editorInteractiveFigures();
	progress('grader page: 1 export of 10k events, 60 exports of 1k events (Playwright)');
	const grade = await gradePageFigures().catch((error: Error) => ({
		error: error.message,
		within_budget: false
	}));
	const browserWithin = Object.values(browserSandbox).every(
		(figure) =>
			typeof figure !== 'object' ||
			figure === null ||
			(figure as { within_budget?: boolean }).within_budget !== false
	);
	const result = {
		...core,
		ide: { bundle, browser_sandbox: browserSandbox, editor_interactive: editor, grade_page: grade },
		agent: { tool_call_overhead: toolCall, export_10k_records: exported },
		all_within_budget:
			core.all_within_budget &&
			bundle.within_budget &&
			browserWithin &&
			editor.within_budget &&
			grade.within_budget &&
			toolCall.within_budget &&
			exported.within_budget
	};
	process.stdout.write(`${JSON.stringify(result, null, '\t')}\n`);
} catch (error) {
	// A broken bench must not look like a result: no JSON, a non-zero exit.
	process.stderr.write(
		`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
	);
	process.exitCode = 1;
}
