import { readFileSync } from 'node:fs';
import { generateText, streamText, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { Scheduler } from '../../../hooks/pipeline/ports.js';
import { parseReplayScript } from '../../../hooks/replay/replay-script.js';
import { agentTools } from './agent-tools.js';
import { createDemoLanguageModel, DemoLanguageModel } from './demo-language-model.js';
import { parseDemoToolCallId, stepSessions } from './demo-script-plan.js';

const demoYaml = readFileSync(
	new URL('../../../public/scenarios/jwt-auth/demo.yaml', import.meta.url),
	'utf8'
);
const script = (() => {
	const parsed = parseReplayScript(demoYaml);
	if (!parsed.ok) throw new Error('jwt-auth demo.yaml does not parse');
	return parsed.script;
})();

/** Records the pauses instead of waiting, so the tests run at full speed. */
function recordingScheduler(): Scheduler & { delays: number[] } {
	const delays: number[] = [];
	return {
		delays,
		async delay(ms, signal) {
			signal?.throwIfAborted();
			delays.push(ms);
		}
	};
}

function demoModel(sessionId: string) {
	let counter = 0;
	return createDemoLanguageModel({
		script: demoYaml,
		sessionId,
		scheduler: recordingScheduler(),
		generateId: () => `id${++counter}`
	});
}

interface Step {
	text: string;
	toolName?: string;
	toolCallId?: string;
	input?: unknown;
	finishReason: string;
}

/** One model call through the AI SDK, as the browser transport makes it. */
async function step(model: DemoLanguageModel, messages: ModelMessage[]): Promise<Step> {
	const result = streamText({ model, instructions: 'system prompt', messages, tools: agentTools });
	const [text, toolCalls, finishReason, response] = await Promise.all([
		result.text,
		result.toolCalls,
		result.finishReason,
		result.response
	]);
	messages.push(...response.messages);
	const call = toolCalls[0];
	return {
		text,
		finishReason,
		...(call ? { toolName: call.toolName, toolCallId: call.toolCallId, input: call.input } : {})
	};
}

/** The result the script expects for a call: `ok`, or its ToolError (as the pipeline gives it). */
function expectedOutput(toolCallId: string) {
	const parsed = parseDemoToolCallId(toolCallId);
	const owners = stepSessions(script);
	const calls = script.steps.filter(
		(entry, index) => 'call' in entry && owners[index] === parsed?.sessionId
	);
	const called = parsed ? calls[parsed.ordinal] : undefined;
	const expected = called && 'call' in called ? called.expect : undefined;
	if (!expected || expected === 'ok') return { type: 'json' as const, value: { ok: true } };
	return {
		type: 'error-text' as const,
		value: JSON.stringify({ status: 'error', code: expected, message: 'm', suggestion: 's' })
	};
}

function answer(messages: ModelMessage[], taken: Step, output?: ToolResultOutput) {
	messages.push({
		role: 'tool',
		content: [
			{
				type: 'tool-result',
				toolCallId: taken.toolCallId as string,
				toolName: taken.toolName as string,
				output: output ?? expectedOutput(taken.toolCallId as string)
			}
		]
	});
}

type ToolResultOutput =
	{ type: 'json'; value: { ok: boolean } } | { type: 'error-text'; value: string };

/** Runs the agent loop (answering every call) until the model ends its turn. */
async function runTurn(model: DemoLanguageModel, messages: ModelMessage[]): Promise<Step[]> {
	const steps: Step[] = [];
	for (let guard = 0; guard < 50; guard++) {
		const taken = await step(model, messages);
		steps.push(taken);
		if (taken.finishReason !== 'tool-calls') return steps;
		answer(messages, taken);
	}
	throw new Error('the demo never ended its turn');
}

const builderCalls = script.steps.flatMap((entry) =>
	'call' in entry && entry.session === 'builder' ? [entry.call] : []
);

describe('DemoLanguageModel', () => {
	it('is a LanguageModelV4 named after the session’s model', () => {
		const builder = demoModel('builder');
		expect(builder.specificationVersion).toBe('v4');
		expect(builder.provider).toBe('demo');
		expect(builder.modelId).toBe('scripted');
		expect(builder.traceModelId).toBe('demo/scripted');
		expect(demoModel('refactorer').traceModelId).toBe('demo/refactorer');
	});

	it('refuses a script that is not valid, with line and column', () => {
		expect(() => createDemoLanguageModel({ script: 'steps: []\n', sessionId: 'agent' })).toThrow(
			/^The scenario's demo script is not valid: \d+:\d+ /
		);
	});

	it('plays the builder session of jwt-auth over several turns, pausing for the human edit', async () => {
		const model = demoModel('builder');
		const messages: ModelMessage[] = [{ role: 'user', content: 'Start the demo' }];

		const first = await runTurn(model, messages);
		// The first turn runs until the script asks a person to edit a file.
		expect(first.at(-1)?.finishReason).toBe('stop');
		expect(first.at(-1)?.text).toMatch(
			/\*\*Your turn \(demo step \d+\):\*\* open `src\/middleware\/require-session\.ts` in the editor/
		);
		expect(first.at(-1)?.text).toContain(
			'// Reviewed by the instructor: cookie names are case-sensitive'
		);
		expect(first.at(-1)?.text).toMatch(/Send any message when you are done/);
		const firstCalls = first.flatMap((taken) => (taken.toolName ? [taken.toolName] : []));
		expect(firstCalls).toEqual(builderCalls.slice(0, firstCalls.length));
		expect(firstCalls.at(-1)).toBe('read_file');
		expect(first[0]?.text).toBe('I will move authentication to JWT. First, a look around.');

		// The person edits the file and says so in any words; the script goes on where it was.
		messages.push({ role: 'user', content: 'done!! 👍' });
		const second = await runTurn(model, messages);
		expect(second[0]?.toolName).toBe('apply_diff');
		expect(second[0]?.text).toBe('');
		const allCalls = [
			...firstCalls,
			...second.flatMap((taken) => (taken.toolName ? [taken.toolName] : []))
		];
		expect(allCalls).toEqual(builderCalls);
		expect(second.at(-1)?.text).toBe(
			'That was the last step of the scripted demo for Builder. Every call above is in the trace; choose a real model in Settings to keep going.'
		);

		// Typing after the end does not replay anything.
		messages.push({ role: 'user', content: 'again?' });
		const third = await runTurn(model, messages);
		expect(third).toHaveLength(1);
		expect(third[0]?.text).toBe(
			'The scripted demo for Builder has no steps left. To keep working, choose a real model in Settings.'
		);
	});

	it('sends the script’s inputs as tool calls with unique ids that name the session', async () => {
		const model = demoModel('builder');
		const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
		const steps = await runTurn(model, messages);
		const ids = steps.flatMap((taken) => (taken.toolCallId ? [taken.toolCallId] : []));
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.map((id) => parseDemoToolCallId(id)?.sessionId)).toEqual(ids.map(() => 'builder'));
		const firstWrite = steps.find((taken) => taken.toolName === 'write_to_file');
		expect(firstWrite?.input).toEqual({
			path: 'src/auth/jwt.ts',
			content: 'export {};\n',
			intent_id: 'INT-001',
			mutation_class: 'INTENT_EVOLUTION'
		});
	});

	it('moves on after a ToolError like after any result (the script expects the blocks)', async () => {
		const model = demoModel('builder');
		const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
		const listing = await step(model, messages);
		answer(messages, listing);
		const write = await step(model, messages);
		expect(write.toolName).toBe('write_to_file');
		messages.push({
			role: 'tool',
			content: [
				{
					type: 'tool-result',
					toolCallId: write.toolCallId as string,
					toolName: 'write_to_file',
					output: {
						type: 'error-text',
						value: JSON.stringify({
							status: 'error',
							code: 'intent_required',
							message: 'm',
							suggestion: 's'
						})
					}
				}
			]
		});
		const next = await step(model, messages);
		expect(next.text).toBe('Blocked: no change without an intent. Refresh tokens sound related…');
		expect(next.input).toEqual({ intent_id: 'INT-003' });
	});

	it('repeats a call whose result never came (the person stopped it)', async () => {
		const model = demoModel('builder');
		const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
		const listing = await step(model, messages);
		// The call was cancelled: convertToModelMessages drops it, the person types on.
		messages.length = 1;
		messages.push({ role: 'user', content: 'continue please' });
		const retried = await step(model, messages);
		expect(retried.toolName).toBe(listing.toolName);
		expect(retried.toolCallId).not.toBe(listing.toolCallId);
	});

	it('keeps its place when older messages were pruned away', async () => {
		const model = demoModel('builder');
		const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
		for (let count = 0; count < 4; count++) answer(messages, await step(model, messages));
		const expected = await step(model, [...messages]);
		// Only the latest user message and the last answered call remain.
		const pruned: ModelMessage[] = [{ role: 'user', content: 'go' }, ...messages.slice(-2)];
		const afterPruning = await step(model, pruned);
		expect(afterPruning.toolName).toBe(expected.toolName);
		expect(afterPruning.input).toEqual(expected.input);
	});

	it('plays only its own steps: the refactorer session', async () => {
		const model = demoModel('refactorer');
		const messages: ModelMessage[] = [{ role: 'user', content: 'Run the demo' }];
		const steps = await runTurn(model, messages);
		expect(steps.flatMap((taken) => (taken.toolName ? [taken.toolName] : []))).toEqual([
			'select_active_intent',
			'select_active_intent',
			'read_file',
			'apply_diff',
			'complete_intent'
		]);
		expect(steps.at(-1)?.text).toMatch(/last step of the scripted demo for Refactorer/);
	});

	it('streams in small pieces with pauses from the injected scheduler', async () => {
		const scheduler = recordingScheduler();
		const model = createDemoLanguageModel({
			script,
			sessionId: 'builder',
			scheduler,
			chunkDelayMs: 7
		});
		const result = streamText({
			model,
			messages: [{ role: 'user', content: 'go' }],
			tools: agentTools
		});
		const kinds: string[] = [];
		for await (const part of result.stream) kinds.push(part.type);
		expect(kinds.filter((kind) => kind === 'text-delta').length).toBeGreaterThan(2);
		expect(kinds).toContain('tool-input-start');
		expect(kinds).toContain('tool-input-delta');
		expect(kinds).toContain('tool-call');
		expect(kinds.indexOf('text-end')).toBeLessThan(kinds.indexOf('tool-input-start'));
		expect(scheduler.delays.length).toBeGreaterThan(3);
		expect(new Set(scheduler.delays)).toEqual(new Set([7]));
	});

	it('stops streaming when aborted', async () => {
		const controller = new AbortController();
		let pauses = 0;
		const scheduler: Scheduler = {
			async delay(_ms, signal) {
				if (++pauses === 2) controller.abort();
				signal?.throwIfAborted();
			}
		};
		const model = createDemoLanguageModel({ script, sessionId: 'builder', scheduler });
		const { stream } = await model.doStream({
			prompt: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
			abortSignal: controller.signal
		});
		const reader = stream.getReader();
		const seen: string[] = [];
		await expect(
			(async () => {
				for (;;) {
					const { done, value } = await reader.read();
					if (done) return;
					seen.push(value.type);
				}
			})()
		).rejects.toMatchObject({ name: 'AbortError' });
		expect(seen).not.toContain('finish');
		expect(pauses).toBe(2);
	});

	it('answers non-streaming calls the same way', async () => {
		const result = await generateText({
			model: demoModel('builder'),
			messages: [{ role: 'user', content: 'go' }],
			tools: agentTools
		});
		expect(result.text).toBe('I will move authentication to JWT. First, a look around.');
		expect(result.toolCalls.map((call) => call.toolName)).toEqual(['list_files']);
		expect(result.finishReason).toBe('tool-calls');
	});
});
