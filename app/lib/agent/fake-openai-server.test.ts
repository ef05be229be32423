import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText, type ModelMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { start, type FakeOpenAIServer } from '../../../e2e/fixtures/fake-openai-server.js';
import { agentTools } from './agent-tools.js';
import { describeProviderError } from './describe-provider-error.js';

describe('the fake OpenAI-compatible server (e2e/fixtures)', () => {
	let server: FakeOpenAIServer;
	beforeEach(async () => {
		server = await start();
	});
	afterEach(async () => {
		await server.close();
	});

	const model = () =>
		createOpenAICompatible({ name: 'fake', baseURL: server.url, apiKey: 'sk-test-1234567890' })(
			'fake-model'
		);

	it('listens on 127.0.0.1 with a /v1 base URL', () => {
		expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
	});

	it('streams text deltas the real client reassembles', async () => {
		server.enqueue({ text: 'Hello from the fake model, streamed in small pieces.', chunkSize: 5 });
		const result = streamText({ model: model(), prompt: 'Say hello' });
		const deltas: string[] = [];
		for await (const delta of result.textStream) deltas.push(delta);
		expect(deltas.length).toBeGreaterThan(3);
		expect(deltas.join('')).toBe('Hello from the fake model, streamed in small pieces.');
		expect(await result.finishReason).toBe('stop');
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]?.body?.stream).toBe(true);
	});

	it('round-trips a tool call: the client sends the tool result and system prompt back', async () => {
		server.enqueue(
			{ text: 'Reading it.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] },
			{ text: 'The file exports nothing.' }
		);
		const system = 'You are a governed agent. <intent_context>INT-001</intent_context>';
		const messages: ModelMessage[] = [{ role: 'user', content: 'What is in src/a.ts?' }];

		const first = streamText({ model: model(), instructions: system, messages, tools: agentTools });
		const toolCalls = await first.toolCalls;
		expect(await first.finishReason).toBe('tool-calls');
		expect(toolCalls).toHaveLength(1);
		const call = toolCalls[0];
		expect(call?.toolName).toBe('read_file');
		expect(call?.input).toEqual({ path: 'src/a.ts' });

		messages.push(...(await first.response).messages);
		messages.push({
			role: 'tool',
			content: [
				{
					type: 'tool-result',
					toolCallId: call?.toolCallId as string,
					toolName: 'read_file',
					output: { type: 'json', value: { path: 'src/a.ts', content: 'export {};\n' } }
				}
			]
		});
		const second = streamText({
			model: model(),
			instructions: system,
			messages,
			tools: agentTools
		});
		expect(await second.text).toBe('The file exports nothing.');

		const sent = server.requests[1]?.body;
		expect(sent?.messages?.[0]).toEqual({ role: 'system', content: system });
		const assistant = sent?.messages?.find((message) => message.role === 'assistant');
		expect(assistant?.tool_calls?.[0]?.id).toBe(call?.toolCallId);
		expect(JSON.parse(assistant?.tool_calls?.[0]?.function.arguments ?? '{}')).toEqual({
			path: 'src/a.ts'
		});
		const toolMessage = sent?.messages?.find((message) => message.role === 'tool');
		expect(toolMessage?.tool_call_id).toBe(call?.toolCallId);
		expect(JSON.parse(String(toolMessage?.content))).toEqual({
			path: 'src/a.ts',
			content: 'export {};\n'
		});
		// The tool set went out with the catalog's strict schema.
		const readFile = sent?.tools?.find((entry) => entry.function.name === 'read_file');
		expect(readFile?.function.parameters).toMatchObject({
			type: 'object',
			required: ['path'],
			additionalProperties: false
		});
		expect(server.pending()).toBe(0);
	});

	it('streams several tool calls in one response with unique ids', async () => {
		server.enqueue({
			toolCalls: [
				{ name: 'list_files', arguments: {} },
				{ name: 'read_file', arguments: { path: 'README.md' } }
			]
		});
		const result = streamText({ model: model(), prompt: 'Look around', tools: agentTools });
		const calls = await result.toolCalls;
		expect(calls.map((call) => call.toolName)).toEqual(['list_files', 'read_file']);
		expect(new Set(calls.map((call) => call.toolCallId)).size).toBe(2);
	});

	it('answers a scripted 401 with an OpenAI-style error body', async () => {
		server.enqueue({ status: 401 });
		const result = streamText({ model: model(), prompt: 'Hi', maxRetries: 0, onError: () => {} });
		let failure: unknown;
		for await (const part of result.stream) if (part.type === 'error') failure = part.error;
		expect(failure).toMatchObject({ statusCode: 401 });
		expect(String((failure as { responseBody?: string }).responseBody)).toContain(
			'invalid_api_key'
		);
		expect(describeProviderError(failure).kind).toBe('auth');
	});

	it('uses a custom error message when the test gives one', async () => {
		server.enqueue({ status: 429, error: { message: 'Slow down, please.', code: 'rate_limit' } });
		await expect(
			generateText({ model: model(), prompt: 'Hi', maxRetries: 0 })
		).rejects.toMatchObject({
			statusCode: 429,
			responseBody: expect.stringContaining('Slow down, please.')
		});
	});

	it('answers plain JSON when the client does not stream', async () => {
		server.enqueue({ text: 'Not streamed.' });
		const result = await generateText({ model: model(), prompt: 'Hi' });
		expect(result.text).toBe('Not streamed.');
		expect(server.requests[0]?.body?.stream).not.toBe(true);
	});

	it('fails loudly when a test forgot to queue a response', async () => {
		await expect(
			generateText({ model: model(), prompt: 'Hi', maxRetries: 0 })
		).rejects.toMatchObject({
			statusCode: 500,
			responseBody: expect.stringContaining('no response queued')
		});
	});

	it('answers CORS preflights for any header and records what was asked', async () => {
		const response = await fetch(`${server.url}/chat/completions`, {
			method: 'OPTIONS',
			headers: {
				origin: 'http://127.0.0.1:4173',
				'access-control-request-method': 'POST',
				'access-control-request-headers': 'authorization, content-type, x-custom'
			}
		});
		expect(response.status).toBe(204);
		expect(response.headers.get('access-control-allow-origin')).toBe('*');
		expect(response.headers.get('access-control-allow-headers')).toBe(
			'authorization, content-type, x-custom'
		);
		expect(server.preflights).toEqual([
			{
				path: '/v1/chat/completions',
				origin: 'http://127.0.0.1:4173',
				requestHeaders: ['authorization', 'content-type', 'x-custom']
			}
		]);
		expect(server.requests).toHaveLength(0);
	});

	it('sends CORS headers on answers and errors alike', async () => {
		server.enqueue({ status: 401 });
		const response = await fetch(`${server.url}/chat/completions`, {
			method: 'POST',
			body: JSON.stringify({ model: 'x', messages: [] })
		});
		expect(response.status).toBe(401);
		expect(response.headers.get('access-control-allow-origin')).toBe('*');
		const body = (await response.json()) as { error: { code: string } };
		expect(body.error.code).toBe('invalid_api_key');
	});
});
