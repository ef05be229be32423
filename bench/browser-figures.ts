import { spawn } from 'node:child_process';
import type { LedgerFiles } from './ledger-files.js';

/**
 * The figures only a real browser gives (grep -r over 1,000 files in the shell Worker, IndexedDB
 * restore of 1,000 files, IndexedDB ledger appends, the app's verify Worker over the bench's
 * 100k-event ledger, opening a stored ledger, the export Worker): runs the browser-bench project
 * of Vitest browser mode in Debian Chromium and reads its `THREADLINE_BENCH {json}` lines. A bench
 * file that fails leaves an `{error}` under `failures`; the other files' figures are kept.
 */
export async function browserFigures(ledger: LedgerFiles | null): Promise<Record<string, unknown>> {
	const { code, output } = await new Promise<{ code: number | null; output: string }>(
		(resolve, reject) => {
			const child = spawn(
				'npx',
				['vitest', 'run', '--config', 'vitest.browser.config.ts', '--project', 'browser-bench'],
				{
					env: {
						...process.env,
						NO_COLOR: '1',
						...(ledger
							? {
									THREADLINE_BENCH_AUDIT: ledger.auditPath,
									THREADLINE_BENCH_TRACE: ledger.tracePath
								}
							: {})
					},
					stdio: ['ignore', 'pipe', 'pipe']
				}
			);
			let text = '';
			child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
			child.stderr.on('data', () => undefined);
			child.on('error', reject);
			child.on('close', (exitCode) => resolve({ code: exitCode, output: text }));
		}
	);
	const lines = output.split('\n').filter((candidate) => candidate.includes('THREADLINE_BENCH '));
	if (lines.length === 0) {
		throw new Error(
			`the browser bench printed no THREADLINE_BENCH line (exit ${code}):\n${output.slice(-2_000)}`
		);
	}
	const figures = Object.assign(
		{},
		...lines.map(
			(line) =>
				JSON.parse(
					line.slice(line.indexOf('THREADLINE_BENCH ') + 'THREADLINE_BENCH '.length)
				) as Record<string, unknown>
		)
	) as Record<string, unknown>;
	if (code !== 0) {
		const failed = output
			.split('\n')
			.filter((line) => /FAIL|Error:/.test(line))
			.slice(0, 10)
			.join('\n');
		figures.failures = { error: `a browser bench file failed (exit ${code}): ${failed}` };
	}
	return figures;
}
