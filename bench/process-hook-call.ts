import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { summarize, type TimingSummary } from './statistics.js';

export const processHookScript = fileURLToPath(new URL('./process-hook.js', import.meta.url));

/** What a command hook receives on stdin: the call and the intent it is checked against. */
export interface HookPayload {
	tool: string;
	tool_input: Record<string, unknown>;
	intent: { id: string; owned_scope: string[] };
}

export interface HookAnswer {
	decision: 'allow' | 'deny';
	reason?: string;
}

/** One spawn-and-answer round trip: start node, write the call, read the decision, wait for exit. */
export function callProcessHook(
	payload: HookPayload,
	script = processHookScript
): Promise<HookAnswer> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
		child.on('error', reject);
		child.on('close', (exitCode) => {
			if (exitCode !== 0) {
				reject(new Error(`hook exited with ${exitCode}: ${stderr.trim() || stdout.trim()}`));
				return;
			}
			try {
				resolve(JSON.parse(stdout) as HookAnswer);
			} catch {
				reject(new Error(`hook answered something that is not JSON: ${stdout.slice(0, 200)}`));
			}
		});
		child.stdin.end(JSON.stringify(payload));
	});
}

/** Sequential round trips; every answer must be the expected decision. */
export async function timeProcessHook(
	payloads: readonly HookPayload[],
	options: { warmup: number; samples: number; expected: HookAnswer['decision'] }
): Promise<TimingSummary> {
	if (payloads.length === 0) throw new Error('no calls to time');
	const check = (answer: HookAnswer, payload: HookPayload) => {
		if (answer.decision !== options.expected)
			throw new Error(
				`process hook answered ${answer.decision} for ${String(payload.tool_input.path)}, expected ${options.expected}`
			);
	};
	for (let round = 0; round < options.warmup; round++) {
		const payload = payloads[round % payloads.length] as HookPayload;
		check(await callProcessHook(payload), payload);
	}
	const durations: number[] = [];
	for (let round = 0; round < options.samples; round++) {
		const payload = payloads[round % payloads.length] as HookPayload;
		const started = performance.now();
		const answer = await callProcessHook(payload);
		durations.push(performance.now() - started);
		check(answer, payload);
	}
	return summarize(durations);
}
