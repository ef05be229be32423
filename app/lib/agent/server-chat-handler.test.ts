import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { APICallError, simulateReadableStream, type UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { start, type FakeOpenAIServer } from '../../../e2e/fixtures/fake-openai-server.js';
import { handleChatRequest, serverSettingsFromEnvironment } from './server-chat-handler.js';

const usage = {
	inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
	outputTokens: { total: 1, text: 1, reasoning: undefined }
};

const openAiEnvironment = {
	THREADLINE_PROVIDER: 'openai',
	THREADLINE_MODEL: 'gpt-5.4-mini',
	OPENAI_API_KEY: 'sk-server-secret-0123456789'
};

const messages: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }];

function post(body: unknown, headers: Record<string, string> = {}): Request {
	return new Request('http://127.0.0.1/api/chat', {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body)
	});
}

function textModel(text: string) {
	return new MockLanguageModelV4({
		doStream: async () => ({
			stream: simulateReadableStream<LanguageModelV4StreamPart>({
				chunks: [
					{ type: 'text-start', id: 't' },
					{ type: 'text-delta', id: 't', delta: text },
					{ type: 'text-end', id: 't' },
					{ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }
				]
			})
		})
	});
}

/** The JSON chunks of a UI message stream response (SSE `data:` lines). */
async function chunksOf(response: Response): Promise<Record<string, unknown>[]> {
	const text = await response.text();
	return text
		.split('\n')
		.filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
		.map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

describe('serverSettingsFromEnvironment', () => {
	it('says which variables to set when nothing is configured', () => {
		const result = serverSettingsFromEnvironment({});
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.missing).toEqual(['THREADLINE_PROVIDER', 'THREADLINE_MODEL']);
		expect(result.message).toMatch(
			/^The server has no model configured\. Set THREADLINE_PROVIDER \(openai, anthropic, google, openrouter, openai-compatible\), THREADLINE_MODEL/
		);
		expect(result.message).toContain(
			'OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, OPENROUTER_API_KEY'
		);
	});

	it('names the provider’s own key variable when it is missing', () => {
		const cases: [Record<string, string>, string][] = [
			[
				{ THREADLINE_PROVIDER: 'anthropic', THREADLINE_MODEL: 'claude-sonnet-4-6' },
				'ANTHROPIC_API_KEY'
			],
			[
				{ THREADLINE_PROVIDER: 'google', THREADLINE_MODEL: 'gemini-2.5-flash' },
				'GOOGLE_GENERATIVE_AI_API_KEY'
			],
			[
				{
					THREADLINE_PROVIDER: 'openrouter',
					THREADLINE_MODEL: 'x/y',
					OPENAI_API_KEY: 'sk-wrong-variable'
				},
				'OPENROUTER_API_KEY'
			],
			[
				{ THREADLINE_PROVIDER: 'openai-compatible', THREADLINE_MODEL: 'llama3.1' },
				'THREADLINE_BASE_URL'
			],
			[{ THREADLINE_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-abcdefgh' }, 'THREADLINE_MODEL']
		];
		for (const [environment, variable] of cases) {
			const result = serverSettingsFromEnvironment(environment);
			expect(result.ok).toBe(false);
			if (!result.ok) {
				expect(result.missing).toEqual([variable]);
				expect(result.message).toContain(`${variable} is not set in the server's environment`);
			}
		}
	});

	it('refuses providers the server cannot use', () => {
		for (const provider of ['demo', 'server', 'gpt']) {
			const result = serverSettingsFromEnvironment({
				THREADLINE_PROVIDER: provider,
				THREADLINE_MODEL: 'm'
			});
			expect(result.ok).toBe(false);
			if (!result.ok) expect(result.message).toContain(`THREADLINE_PROVIDER is "${provider}"`);
		}
	});

	it('reads a complete configuration, trimming whitespace', () => {
		expect(
			serverSettingsFromEnvironment({ ...openAiEnvironment, THREADLINE_MODEL: ' gpt-5.4-mini\n' })
		).toEqual({
			ok: true,
			settings: { provider: 'openai', model: 'gpt-5.4-mini', apiKey: 'sk-server-secret-0123456789' }
		});
		expect(
			serverSettingsFromEnvironment({
				THREADLINE_PROVIDER: 'openai-compatible',
				THREADLINE_MODEL: 'llama3.1',
				THREADLINE_BASE_URL: 'http://ollama:11434/v1'
			})
		).toEqual({
			ok: true,
			settings: {
				provider: 'openai-compatible',
				model: 'llama3.1',
				baseUrl: 'http://ollama:11434/v1'
			}
		});
	});
});

describe('handleChatRequest', () => {
	it('answers 503 with a JSON error in plain words when no model is configured', async () => {
		const response = await handleChatRequest(post({ messages, system: 's' }), {});
		expect(response.status).toBe(503);
		expect(response.headers.get('content-type')).toMatch(/^application\/json/);
		const body = (await response.json()) as { error: string; missing: string[] };
		expect(body.error).toMatch(/^The server has no model configured/);
		expect(body.missing).toContain('THREADLINE_PROVIDER');
	});

	it('refuses bodies that are not a chat request', async () => {
		const environment = openAiEnvironment;
		const createModel = async () => textModel('never');
		const cases: [Request, number, RegExp][] = [
			[post('{nope'), 400, /not JSON/],
			[post([1, 2]), 400, /no system prompt/],
			[post({ messages }), 400, /no system prompt/],
			[post({ messages: [{ role: 'user' }], system: 's' }), 400, /messages are not valid/],
			[
				post({ messages, system: 'x'.repeat(101) }),
				413,
				/101 characters; the server accepts at most 100/
			]
		];
		for (const [request, status, message] of cases) {
			const response = await handleChatRequest(request, environment, {
				createModel,
				maxSystemPromptLength: 100
			});
			expect(response.status).toBe(status);
			expect(((await response.json()) as { error: string }).error).toMatch(message);
		}
	});

	it('refuses bodies over the size limit, declared or not', async () => {
		const big = { messages, system: 'x'.repeat(2000) };
		const declared = await handleChatRequest(
			post(big, { 'content-length': '999999999' }),
			openAiEnvironment,
			{
				maxBodyBytes: 1000
			}
		);
		expect(declared.status).toBe(413);
		const actual = await handleChatRequest(post(big), openAiEnvironment, { maxBodyBytes: 1000 });
		expect(actual.status).toBe(413);
		expect(((await actual.json()) as { error: string }).error).toMatch(/start a new conversation/);
	});

	it('streams the answer with the client’s system prompt, the tools and the model id', async () => {
		const model = textModel('Server says hi.');
		const response = await handleChatRequest(
			post({ messages, system: '<intent_context id="INT-001"/>' }),
			openAiEnvironment,
			{ createModel: async () => model }
		);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
		const chunks = await chunksOf(response);
		expect(chunks.find((chunk) => chunk.type === 'start')).toMatchObject({
			messageMetadata: { modelId: 'openai/gpt-5.4-mini' }
		});
		expect(
			chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.delta)
		).toEqual(['Server says hi.']);
		const call = model.doStreamCalls[0];
		expect(call?.prompt[0]).toEqual({ role: 'system', content: '<intent_context id="INT-001"/>' });
		expect(call?.tools).toHaveLength(11);
	});

	it('hands every tool call the model returned to onToolCalls (the class witness)', async () => {
		const model = new MockLanguageModelV4({
			doStream: async () => ({
				stream: simulateReadableStream<LanguageModelV4StreamPart>({
					chunks: [
						{
							type: 'tool-call',
							toolCallId: 'call_7',
							toolName: 'read_file',
							input: JSON.stringify({ path: 'src/a.ts' })
						},
						{ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage }
					]
				})
			})
		});
		const heard: unknown[] = [];
		const response = await handleChatRequest(post({ messages, system: 's' }), openAiEnvironment, {
			createModel: async () => model,
			onToolCalls: (calls, modelId) => {
				heard.push({ calls, modelId });
			}
		});
		await chunksOf(response);
		expect(heard).toEqual([
			{
				calls: [{ toolCallId: 'call_7', toolName: 'read_file', input: { path: 'src/a.ts' } }],
				modelId: 'openai/gpt-5.4-mini'
			}
		]);
	});

	it('reports provider errors in plain words, pointing at the server’s environment, without the key', async () => {
		const model = new MockLanguageModelV4({
			doStream: async () => {
				throw new APICallError({
					message: 'Incorrect API key provided: sk-server-secret-0123456789',
					url: 'https://api.openai.com/v1/responses',
					requestBodyValues: {},
					statusCode: 401,
					isRetryable: false
				});
			}
		});
		const response = await handleChatRequest(post({ messages, system: 's' }), openAiEnvironment, {
			createModel: async () => model
		});
		const text = await response.text();
		expect(text).not.toContain('sk-server-secret');
		expect(text).toContain(
			"The API key was refused (401): check it in the server's environment (OPENAI_API_KEY, THREADLINE_MODEL)."
		);
	});

	describe('with a real OpenAI-compatible server', () => {
		let server: FakeOpenAIServer;
		beforeEach(async () => {
			server = await start();
		});
		afterEach(async () => {
			await server.close();
		});

		it('calls the configured model with THREADLINE_BASE_URL', async () => {
			server.enqueue({ toolCalls: [{ name: 'list_files', arguments: { recursive: true } }] });
			const response = await handleChatRequest(post({ messages, system: 'the page’s prompt' }), {
				THREADLINE_PROVIDER: 'openai-compatible',
				THREADLINE_MODEL: 'fake-model',
				THREADLINE_BASE_URL: server.url
			});
			const chunks = await chunksOf(response);
			expect(chunks).toContainEqual(
				expect.objectContaining({
					type: 'tool-input-available',
					toolName: 'list_files',
					input: { recursive: true }
				})
			);
			expect(server.requests[0]?.body?.messages?.[0]).toEqual({
				role: 'system',
				content: 'the page’s prompt'
			});
		});
	});
});
