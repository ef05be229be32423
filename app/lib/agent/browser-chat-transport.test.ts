import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { APICallError, simulateReadableStream, type UIMessage, type UIMessageChunk } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { BrowserChatTransport } from './browser-chat-transport.js';
import type { ProviderSettings } from './provider-settings.js';

const usage = {
	inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
	outputTokens: { total: 1, text: 1, reasoning: undefined }
};

function textModel(text: string) {
	return new MockLanguageModelV4({
		doStream: async () => ({
			stream: simulateReadableStream<LanguageModelV4StreamPart>({
				chunks: [
					{ type: 'text-start', id: 't' },
					{ type: 'text-delta', id: 't', delta: text.slice(0, 5) },
					{ type: 'text-delta', id: 't', delta: text.slice(5) },
					{ type: 'text-end', id: 't' },
					{ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }
				]
			})
		})
	});
}

async function readAll(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
	const chunks: UIMessageChunk[] = [];
	const reader = stream.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return chunks;
		chunks.push(value);
	}
}

const userMessage = (id: string, text: string): UIMessage => ({
	id,
	role: 'user',
	parts: [{ type: 'text', text }]
});

function send(transport: BrowserChatTransport, messages: UIMessage[], abortSignal?: AbortSignal) {
	return transport.sendMessages({
		trigger: 'submit-message',
		chatId: 'chat-1',
		messageId: undefined,
		messages,
		abortSignal
	});
}

describe('BrowserChatTransport', () => {
	it('streams the model’s text as UI chunks, with the model id as message metadata', async () => {
		const model = textModel('Hello there, learner.');
		const transport = new BrowserChatTransport({
			resolveModel: () => ({ model, modelId: 'openai/gpt-5.4-mini' }),
			systemPrompt: () => 'system'
		});
		const chunks = await readAll(await send(transport, [userMessage('u1', 'hi')]));
		const start = chunks.find((chunk) => chunk.type === 'start');
		expect(start).toMatchObject({ messageMetadata: { modelId: 'openai/gpt-5.4-mini' } });
		const text = chunks
			.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : []))
			.join('');
		expect(text).toBe('Hello there, learner.');
		expect(chunks.at(-1)?.type).toBe('finish');
	});

	it('rebuilds the system prompt every turn', async () => {
		const model = textModel('ok ok ok');
		let turn = 0;
		const transport = new BrowserChatTransport({
			resolveModel: () => ({ model, modelId: 'm/m' }),
			systemPrompt: () => `<intent_context>turn ${++turn}</intent_context>`
		});
		await readAll(await send(transport, [userMessage('u1', 'one')]));
		await readAll(await send(transport, [userMessage('u1', 'one'), userMessage('u2', 'two')]));
		expect(model.doStreamCalls.map((call) => call.prompt[0])).toEqual([
			{ role: 'system', content: '<intent_context>turn 1</intent_context>' },
			{ role: 'system', content: '<intent_context>turn 2</intent_context>' }
		]);
	});

	it('offers the catalog’s tools and passes tool calls on to the Chat (no execute)', async () => {
		const model = new MockLanguageModelV4({
			doStream: async () => ({
				stream: simulateReadableStream<LanguageModelV4StreamPart>({
					chunks: [
						{
							type: 'tool-call',
							toolCallId: 'call_1',
							toolName: 'read_file',
							input: JSON.stringify({ path: 'src/a.ts' })
						},
						{ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage }
					]
				})
			})
		});
		const transport = new BrowserChatTransport({
			resolveModel: () => ({ model, modelId: 'm/m' }),
			systemPrompt: () => 'system'
		});
		const chunks = await readAll(await send(transport, [userMessage('u1', 'read it')]));
		expect(chunks).toContainEqual(
			expect.objectContaining({
				type: 'tool-input-available',
				toolCallId: 'call_1',
				toolName: 'read_file',
				input: { path: 'src/a.ts' }
			})
		);
		expect(chunks.some((chunk) => chunk.type === 'tool-output-available')).toBe(false);
		const offered = model.doStreamCalls[0]?.tools?.map((entry) => entry.name) ?? [];
		expect(offered).toContain('select_active_intent');
		expect(offered).toHaveLength(11);
	});

	it('sends tool outputs and errors back, and leaves out a call that has no result yet', async () => {
		const model = textModel('Continuing now.');
		const transport = new BrowserChatTransport({
			resolveModel: () => ({ model, modelId: 'm/m' }),
			systemPrompt: () => 'system'
		});
		const assistant = {
			id: 'a1',
			role: 'assistant',
			parts: [
				{
					type: 'tool-select_active_intent',
					toolCallId: 'call_ok',
					state: 'output-available',
					input: { intent_id: 'INT-001' },
					output: '<intent_context id="INT-001"/>'
				},
				{
					type: 'tool-write_to_file',
					toolCallId: 'call_blocked',
					state: 'output-error',
					input: {
						path: 'src/db/x.ts',
						content: '',
						intent_id: 'INT-001',
						mutation_class: 'INTENT_EVOLUTION'
					},
					errorText: '{"status":"error","code":"scope_violation","message":"m","suggestion":"s"}'
				},
				{
					type: 'tool-execute_command',
					toolCallId: 'call_pending',
					state: 'input-available',
					input: { command: 'rm -r src' }
				}
			]
		} as UIMessage;
		await readAll(
			await send(transport, [userMessage('u1', 'go'), assistant, userMessage('u2', 'stop that')])
		);
		const prompt = model.doStreamCalls[0]?.prompt ?? [];
		const results = prompt.flatMap((message) =>
			message.role === 'tool'
				? message.content.flatMap((part) => (part.type === 'tool-result' ? [part] : []))
				: []
		);
		expect(results.map((part) => [part.toolCallId, part.output.type])).toEqual([
			// A string output goes back as text, a ToolError as an error.
			['call_ok', 'text'],
			['call_blocked', 'error-text']
		]);
		const calls = prompt.flatMap((message) =>
			message.role === 'assistant'
				? message.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []))
				: []
		);
		expect(calls).not.toContain('call_pending');
	});

	it('keeps the conversation within the budget (the system prompt counts) and says so', async () => {
		const model = textModel('Fine, fine.');
		const pruned: number[] = [];
		const transport = new BrowserChatTransport({
			resolveModel: () => ({ model, modelId: 'm/m' }),
			systemPrompt: () => 's'.repeat(1000),
			contextBudget: { maxCharacters: 2000, keepRecentToolOutputs: 0 },
			onPruned: (result) => pruned.push(result.droppedMessages)
		});
		// 1,200 characters of old message fit in 2,000 but not beside a 1,000-character prompt.
		const old = userMessage('old', 'x'.repeat(1200));
		await readAll(await send(transport, [old, userMessage('u', 'latest question')]));
		const prompt = model.doStreamCalls[0]?.prompt ?? [];
		expect(pruned).toEqual([1]);
		expect(prompt).toHaveLength(2);
		expect(prompt[0]).toEqual({ role: 'system', content: 's'.repeat(1000) });
		expect(prompt[1]).toMatchObject({
			role: 'user',
			content: [{ type: 'text', text: 'latest question' }]
		});

		const roomy = new BrowserChatTransport({
			resolveModel: () => ({ model, modelId: 'm/m' }),
			systemPrompt: () => 'short',
			contextBudget: { maxCharacters: 2000, keepRecentToolOutputs: 0 }
		});
		await readAll(await send(roomy, [old, userMessage('u', 'latest question')]));
		expect(model.doStreamCalls[1]?.prompt).toHaveLength(3);
	});

	it('turns a provider error into plain words without the key', async () => {
		const settings: ProviderSettings = {
			provider: 'openai',
			model: 'gpt-5.4-mini',
			apiKey: 'sk-live-abcdef123456789'
		};
		const model = new MockLanguageModelV4({
			doStream: async () => {
				throw new APICallError({
					message: 'Incorrect API key provided: sk-live-abcdef123456789',
					url: 'https://api.openai.com/v1/responses',
					requestBodyValues: {},
					statusCode: 401,
					responseBody:
						'{"error":{"message":"Incorrect API key provided: sk-live-abcdef123456789"}}',
					isRetryable: false
				});
			}
		});
		const transport = new BrowserChatTransport({
			resolveModel: () => ({ model, modelId: 'openai/gpt-5.4-mini' }),
			systemPrompt: () => 'system',
			settings: () => settings
		});
		const chunks = await readAll(await send(transport, [userMessage('u1', 'hi')]));
		const error = chunks.find((chunk) => chunk.type === 'error');
		expect(error).toEqual({
			type: 'error',
			errorText: 'The API key was refused (401): check it in Settings.'
		});
		expect(JSON.stringify(chunks)).not.toContain('sk-live-abcdef123456789');
	});

	it('rejects with plain words when the model cannot be made', async () => {
		const transport = new BrowserChatTransport({
			resolveModel: () => {
				throw new TypeError('Failed to fetch dynamically imported module');
			},
			systemPrompt: () => 'system'
		});
		await expect(send(transport, [userMessage('u1', 'hi')])).rejects.toThrow(
			/could not be reached/
		);
	});

	it('honours the abort signal', async () => {
		const model = new MockLanguageModelV4({
			doStream: async ({ abortSignal }) => ({
				stream: new ReadableStream<LanguageModelV4StreamPart>({
					start(controller) {
						controller.enqueue({ type: 'text-start', id: 't' });
						controller.enqueue({ type: 'text-delta', id: 't', delta: 'Thinking' });
						abortSignal?.addEventListener('abort', () => controller.error(abortSignal.reason));
					}
				})
			})
		});
		const transport = new BrowserChatTransport({
			resolveModel: () => ({ model, modelId: 'm/m' }),
			systemPrompt: () => 'system'
		});
		const controller = new AbortController();
		const stream = await send(transport, [userMessage('u1', 'hi')], controller.signal);
		const reader = stream.getReader();
		const seen: UIMessageChunk[] = [];
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			seen.push(value);
			if (value.type === 'text-delta') controller.abort();
		}
		expect(model.doStreamCalls[0]?.abortSignal?.aborted).toBe(true);
		expect(seen.some((chunk) => chunk.type === 'abort')).toBe(true);
		expect(seen.some((chunk) => chunk.type === 'finish' && chunk.finishReason === 'stop')).toBe(
			false
		);
	});

	it('has no stream to reconnect to', async () => {
		const transport = new BrowserChatTransport({
			resolveModel: () => ({ model: textModel('x'), modelId: 'm/m' }),
			systemPrompt: () => 'system'
		});
		expect(await transport.reconnectToStream()).toBeNull();
	});
});

describe('BrowserChatTransport: tool calls with bad arguments', () => {
	function toolCallModel(toolName: string, input: string) {
		return new MockLanguageModelV4({
			doStream: async () => ({
				stream: simulateReadableStream<LanguageModelV4StreamPart>({
					chunks: [
						{ type: 'tool-call', toolCallId: 'call-1', toolName, input },
						{ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage }
					]
				})
			})
		});
	}

	async function chunksFor(toolName: string, input: string) {
		const model = toolCallModel(toolName, input);
		const transport = new BrowserChatTransport({
			resolveModel: () => ({ model, modelId: 'openai/gpt-5.4-mini' }),
			systemPrompt: () => 'system'
		});
		return readAll(await send(transport, [userMessage('u1', 'go')]));
	}

	it('hands arguments that miss the schema to the page (the pipeline answers them), not a raw zod error', async () => {
		const chunks = await chunksFor('write_to_file', JSON.stringify({ path: 3 }));
		expect(chunks).toContainEqual(
			expect.objectContaining({
				type: 'tool-input-available',
				toolCallId: 'call-1',
				input: { path: 3 }
			})
		);
		expect(chunks.some((chunk) => chunk.type === 'tool-input-error')).toBe(false);
	});

	it('answers arguments that are not JSON, and unknown tools, with an invalid_input ToolError in plain words', async () => {
		for (const [toolName, input, message] of <[string, string, string][]>[
			['read_file', '{"path": "a.ts"', 'The arguments for read_file are not valid JSON'],
			['make_coffee', '{}', 'Unknown tool "make_coffee".']
		]) {
			const chunks = await chunksFor(toolName, input);
			const refused = chunks.find((chunk) => chunk.type === 'tool-input-error');
			expect(refused, toolName).toBeDefined();
			const errorText = refused && 'errorText' in refused ? refused.errorText : '';
			const parsed = JSON.parse(errorText);
			expect(parsed).toMatchObject({ status: 'error', code: 'invalid_input' });
			expect(parsed.message).toContain(message);
			expect(errorText).not.toContain('The model call failed');
		}
	});
});
