import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream, type UIMessage, type UIMessageChunk } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ChatRequestGuard } from './chat-request-guard.js';
import { handleChatRequest, type ServerEnvironment } from './server-chat-handler.js';
import { createServerChatTransport, type ServerChatRequestBody } from './server-chat-transport.js';

const usage = {
	inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
	outputTokens: { total: 1, text: 1, reasoning: undefined }
};

const model = new MockLanguageModelV4({
	doStream: async () => ({
		stream: simulateReadableStream<LanguageModelV4StreamPart>({
			chunks: [
				{ type: 'text-start', id: 't' },
				{ type: 'text-delta', id: 't', delta: 'From the server.' },
				{ type: 'text-end', id: 't' },
				{ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage }
			]
		})
	})
});

/** A fetch that hands the request to the route's handler in-process, recording the bodies. */
function routeFetch(environment: ServerEnvironment, bodies: ServerChatRequestBody[]): typeof fetch {
	return async (input, init) => {
		const request = new Request(new URL(String(input), 'http://127.0.0.1'), init);
		bodies.push((await request.clone().json()) as ServerChatRequestBody);
		return handleChatRequest(request, environment, { createModel: async () => model });
	};
}

const messages: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }];

async function readAll(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
	const chunks: UIMessageChunk[] = [];
	const reader = stream.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return chunks;
		chunks.push(value);
	}
}

const configured = {
	THREADLINE_PROVIDER: 'anthropic',
	THREADLINE_MODEL: 'claude-sonnet-4-6',
	ANTHROPIC_API_KEY: 'sk-ant-server-0123456789'
};

describe('createServerChatTransport', () => {
	it('posts the messages and a freshly built system prompt to /api/chat every turn', async () => {
		const bodies: ServerChatRequestBody[] = [];
		let turn = 0;
		const transport = createServerChatTransport({
			systemPrompt: () => `prompt ${++turn}`,
			fetch: routeFetch(configured, bodies)
		});
		for (let index = 0; index < 2; index++) {
			const chunks = await readAll(
				await transport.sendMessages({
					trigger: 'submit-message',
					chatId: 'chat-7',
					messageId: undefined,
					messages,
					abortSignal: undefined
				})
			);
			expect(chunks.find((chunk) => chunk.type === 'text-delta')).toMatchObject({
				delta: 'From the server.'
			});
			expect(chunks.find((chunk) => chunk.type === 'start')).toMatchObject({
				messageMetadata: { modelId: 'anthropic/claude-sonnet-4-6' }
			});
		}
		expect(
			bodies.map((body) => [body.id, body.system, body.trigger, body.messages.length])
		).toEqual([
			['chat-7', 'prompt 1', 'submit-message', 1],
			['chat-7', 'prompt 2', 'submit-message', 1]
		]);
	});

	it('asks for the class passphrase once on 401, then sends it through the guard', async () => {
		const bodies: ServerChatRequestBody[] = [];
		const guard = new ChatRequestGuard();
		const environment = { ...configured, THREADLINE_CHAT_PASSPHRASE: 'blue whale' };
		const inner = routeFetch(environment, bodies);
		const asked: boolean[] = [];
		let remembered: string | null = null;
		const transport = createServerChatTransport({
			systemPrompt: () => 'prompt',
			fetch: async (input, init) => {
				const request = new Request(new URL(String(input), 'http://127.0.0.1'), init);
				const admitted = await guard.admit(request, 'client', environment);
				return admitted.ok
					? inner(admitted.request.url, {
							method: 'POST',
							headers: admitted.request.headers,
							body: await admitted.request.text()
						})
					: admitted.response;
			},
			passphrase: ({ ask }) => {
				asked.push(ask);
				if (ask) remembered = 'blue whale';
				return remembered;
			}
		});
		const chunks = await readAll(
			await transport.sendMessages({
				trigger: 'submit-message',
				chatId: 'chat-8',
				messageId: undefined,
				messages,
				abortSignal: undefined
			})
		);
		expect(chunks.some((chunk) => chunk.type === 'text-delta')).toBe(true);
		expect(asked).toEqual([false, true]);
		expect(bodies).toHaveLength(1);
	});

	it('turns the route’s refusal into an error that reads as a sentence', async () => {
		const transport = createServerChatTransport({
			systemPrompt: () => 'p',
			fetch: routeFetch({}, [])
		});
		await expect(
			transport.sendMessages({
				trigger: 'submit-message',
				chatId: 'c',
				messageId: undefined,
				messages,
				abortSignal: undefined
			})
		).rejects.toThrow(/^The server has no model configured\. Set THREADLINE_PROVIDER/);
	});

	it('explains an unreachable server and non-JSON failures', async () => {
		const unreachable = createServerChatTransport({
			systemPrompt: () => 'p',
			fetch: async () => {
				throw new TypeError('Failed to fetch');
			}
		});
		const request = {
			trigger: 'submit-message' as const,
			chatId: 'c',
			messageId: undefined,
			messages,
			abortSignal: undefined
		};
		await expect(unreachable.sendMessages(request)).rejects.toThrow(/server could not be reached/);

		const htmlError = createServerChatTransport({
			systemPrompt: () => 'p',
			fetch: async () => new Response('<html>Bad gateway</html>', { status: 502 })
		});
		await expect(htmlError.sendMessages(request)).rejects.toThrow(
			'The app’s server answered 502 to the chat request.'
		);
	});
});
