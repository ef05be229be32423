import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The production server (`server.js` over the current build) on 127.0.0.1:`port`, resolved once
 * it says it is listening; the caller stops it with `kill('SIGTERM')`. `environment` adds to this
 * process's (class mode, rate limits). Every bench that needs the real server starts it here.
 */
export async function startServer(
	port: number,
	options: { environment?: Record<string, string>; startTimeoutMs?: number } = {}
): Promise<ChildProcess> {
	const startTimeoutMs = options.startTimeoutMs ?? 20_000;
	// e.g. THREADLINE_BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/profiles" to profile the
	// server under a bench's load (Node refuses --cpu-prof in NODE_OPTIONS).
	const nodeArguments = (process.env.THREADLINE_BENCH_SERVER_NODE_ARGS ?? '')
		.split(' ')
		.filter(Boolean);
	const child = spawn(process.execPath, [...nodeArguments, 'server.js'], {
		env: { ...process.env, ...options.environment, PORT: String(port), HOST: '127.0.0.1' },
		stdio: ['ignore', 'pipe', 'pipe']
	});
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill('SIGTERM');
			reject(
				new Error(
					`server.js did not start within ${startTimeoutMs / 1000} s (run \`npm run build\` first)`
				)
			);
		}, startTimeoutMs);
		child.stdout?.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('listening')) {
				clearTimeout(timer);
				resolve();
			}
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`server.js exited with ${code} (run \`npm run build\` first)`));
		});
	});
	return child;
}
