import { spawn } from 'node:child_process';

/**
 * The sandbox figures only a real browser gives (grep -r over 1,000 files in the shell Worker,
 * IndexedDB restore of 1,000 files): runs the browser-bench project of Vitest browser mode in
 * Debian Chromium and reads its one `THREADLINE_BENCH {json}` line.
 */
export async function browserSandboxFigures(): Promise<Record<string, unknown>> {
	const output = await new Promise<string>((resolve, reject) => {
		const child = spawn(
			'npx',
			['vitest', 'run', '--config', 'vitest.browser.config.ts', '--project', 'browser-bench'],
			{
				env: { ...process.env, NO_COLOR: '1' },
				stdio: ['ignore', 'pipe', 'pipe']
			}
		);
		let text = '';
		child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
		child.stderr.on('data', () => undefined);
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0
				? resolve(text)
				: reject(new Error(`browser bench exited with ${code}:\n${text.slice(-2_000)}`))
		);
	});
	// One line per bench file (sandbox, ledger): merged into one object.
	const lines = output.split('\n').filter((candidate) => candidate.includes('THREADLINE_BENCH '));
	if (lines.length === 0) throw new Error('the browser bench printed no THREADLINE_BENCH line');
	return Object.assign(
		{},
		...lines.map(
			(line) =>
				JSON.parse(
					line.slice(line.indexOf('THREADLINE_BENCH ') + 'THREADLINE_BENCH '.length)
				) as Record<string, unknown>
		)
	) as Record<string, unknown>;
}
