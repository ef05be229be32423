import { readFileSync } from 'node:fs';
import { type UIMessage, type UIMessageChunk } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { start, type FakeOpenAIServer } from '../../../e2e/fixtures/fake-openai-server.js';
import { createAgentChatTransport } from './agent-chat-transport.js';
import { createDemoLanguageModel } from './demo-language-model.js';
import type { ProviderSettings } from './provider-settings.js';
import { handleChatRequest } from './server-chat-handler.js';

const demoYaml = readFileSync(
	new URL('../../../public/scenarios/jwt-auth/demo.yaml', import.meta.url),
	'utf8'
);

async function readAll(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
	const chunks: UIMessageChunk[] = [];
	const reader = stream.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return chunks;
		chunks.push(value);
	}
}

const user = (id: string, text: string): UIMessage => ({
	id,
	role: 'user',
	parts: [{ type: 'text', text }]
});

describe('createAgentChatTransport', () => {
	let server: FakeOpenAIServer;
	beforeEach(async () => {
		server = await start();
	});
	afterEach(async () => {
		await server.close();
	});

	it('follows the settings every turn: demo, then a local model, then the app’s server', async () => {
		let settings: ProviderSettings = { provider: 'demo', model: 'scripted' };
		const demo = createDemoLanguageModel({
			script: demoYaml,
			sessionId: 'builder',
			scheduler: { delay: async () => {} }
		});
		const serverRequests: string[] = [];
		const transport = createAgentChatTransport({
			settings: () => settings,
			systemPrompt: () => `prompt for ${settings.provider}`,
			demoModel: () => ({ model: demo, modelId: demo.traceModelId }),
			fetch: async (input, init) => {
				const url = String(input);
				if (!url.startsWith('/api/chat')) return fetch(input, init);
				serverRequests.push(url);
				return handleChatRequest(new Request(new URL(url, 'http://127.0.0.1'), init), {
					THREADLINE_PROVIDER: 'openai-compatible',
					THREADLINE_MODEL: 'server-model',
					THREADLINE_BASE_URL: server.url
				});
			}
		});
		const send = async (messages: UIMessage[]) =>
			readAll(
				await transport.sendMessages({
					trigger: 'submit-message',
					chatId: 'chat',
					messageId: undefined,
					messages,
					abortSignal: undefined
				})
			);
		const metadataOf = (chunks: UIMessageChunk[]) =>
			(chunks.find((chunk) => chunk.type === 'start') as { messageMetadata?: unknown })
				.messageMetadata;

		const demoTurn = await send([user('u1', 'start')]);
		expect(metadataOf(demoTurn)).toEqual({ modelId: 'demo/scripted' });
		expect(demoTurn).toContainEqual(
			expect.objectContaining({ type: 'tool-input-available', toolName: 'list_files' })
		);

		settings = { provider: 'openai-compatible', model: 'local-model', baseUrl: server.url };
		server.enqueue({ text: 'Local model here.' });
		const localTurn = await send([user('u1', 'hello')]);
		expect(metadataOf(localTurn)).toEqual({ modelId: 'openai-compatible/local-model' });
		expect(server.requests[0]?.body?.model).toBe('local-model');
		expect(server.requests[0]?.body?.messages?.[0]).toEqual({
			role: 'system',
			content: 'prompt for openai-compatible'
		});

		settings = { provider: 'server', model: '' };
		server.enqueue({ text: 'Server model here.' });
		const serverTurn = await send([user('u1', 'hello')]);
		expect(serverRequests).toEqual(['/api/chat']);
		expect(metadataOf(serverTurn)).toEqual({ modelId: 'openai-compatible/server-model' });
		expect(server.requests[1]?.body?.model).toBe('server-model');
		expect(server.requests[1]?.body?.messages?.[0]).toEqual({
			role: 'system',
			content: 'prompt for server'
		});
	});

	it('round-trips a tool result through the UI messages to the provider', async () => {
		const settings: ProviderSettings = {
			provider: 'openai-compatible',
			model: 'm',
			baseUrl: server.url
		};
		const transport = createAgentChatTransport({
			settings: () => settings,
			systemPrompt: () => 'system',
			demoModel: () => {
				throw new Error('not the demo');
			}
		});
		server.enqueue(
			{
				toolCalls: [
					{
						id: 'call_w',
						name: 'write_to_file',
						arguments: {
							path: 'src/x.ts',
							content: '',
							intent_id: 'INT-001',
							mutation_class: 'INTENT_EVOLUTION'
						}
					}
				]
			},
			{ text: 'I need an intent first.' }
		);
		const first = await readAll(
			await transport.sendMessages({
				trigger: 'submit-message',
				chatId: 'c',
				messageId: undefined,
				messages: [user('u1', 'write x')],
				abortSignal: undefined
			})
		);
		const call = first.find((chunk) => chunk.type === 'tool-input-available');
		expect(call).toMatchObject({ toolCallId: 'call_w', toolName: 'write_to_file' });

		// The Chat adds the pipeline's ToolError with addToolOutput(state: 'output-error').
		const toolError = {
			status: 'error',
			code: 'intent_required',
			message: 'Select an intent first.',
			suggestion: 'Call select_active_intent.'
		};
		const assistant = {
			id: 'a1',
			role: 'assistant',
			parts: [
				{
					type: 'tool-write_to_file',
					toolCallId: 'call_w',
					state: 'output-error',
					input: (call as { input: unknown }).input,
					errorText: JSON.stringify(toolError)
				}
			]
		} as UIMessage;
		const second = await readAll(
			await transport.sendMessages({
				trigger: 'submit-message',
				chatId: 'c',
				messageId: undefined,
				messages: [user('u1', 'write x'), assistant],
				abortSignal: undefined
			})
		);
		expect(
			second
				.filter((chunk) => chunk.type === 'text-delta')
				.map((chunk) => (chunk as { delta: string }).delta)
				.join('')
		).toBe('I need an intent first.');
		const toolMessage = server.requests[1]?.body?.messages?.find(
			(message) => message.role === 'tool'
		);
		expect(toolMessage?.tool_call_id).toBe('call_w');
		expect(String(toolMessage?.content)).toContain('intent_required');
	});

	it('shows a 401 from the provider in plain words', async () => {
		const settings: ProviderSettings = {
			provider: 'openai-compatible',
			model: 'm',
			apiKey: 'sk-local-0123456789',
			baseUrl: server.url
		};
		const transport = createAgentChatTransport({
			settings: () => settings,
			systemPrompt: () => 'system',
			demoModel: () => {
				throw new Error('not the demo');
			}
		});
		server.enqueue({ status: 401 });
		const chunks = await readAll(
			await transport.sendMessages({
				trigger: 'submit-message',
				chatId: 'c',
				messageId: undefined,
				messages: [user('u1', 'hi')],
				abortSignal: undefined
			})
		);
		expect(chunks).toContainEqual({
			type: 'error',
			errorText: 'The API key was refused (401): check it in Settings.'
		});
	});

	it('explains incomplete settings instead of calling anyone', async () => {
		const transport = createAgentChatTransport({
			settings: () => ({ provider: 'openai', model: 'gpt-5.4-mini' }),
			systemPrompt: () => 'system',
			demoModel: () => {
				throw new Error('not the demo');
			}
		});
		await expect(
			transport.sendMessages({
				trigger: 'submit-message',
				chatId: 'c',
				messageId: undefined,
				messages: [user('u1', 'hi')],
				abortSignal: undefined
			})
		).rejects.toThrow(/^The model settings are incomplete: OpenAI needs an API key\.$/);
		expect(server.requests).toHaveLength(0);
	});
});
