import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { start, type FakeOpenAIServer } from '../../../e2e/fixtures/fake-openai-server.js';
import { createLanguageModel } from './create-language-model.js';
import { handleChatRequest } from './server-chat-handler.js';
import { testConnection } from './test-connection.js';

const key = 'sk-test-connection-0123456789';

describe('testConnection against a real OpenAI-compatible server', () => {
	let server: FakeOpenAIServer;
	beforeEach(async () => {
		server = await start();
	});
	afterEach(async () => {
		await server.close();
	});

	const settings = () => ({
		provider: 'openai-compatible' as const,
		model: 'fake-model',
		apiKey: key,
		baseUrl: server.url
	});

	it('says connected, with the model and the time, after one small request', async () => {
		server.enqueue({ text: 'OK' });
		let clock = 1000;
		const result = await testConnection(settings(), { now: () => (clock += 250) });
		expect(result).toEqual({
			ok: true,
			message:
				'Connected: OpenAI-compatible (Ollama, LM Studio, vLLM) answered with "fake-model" in 250 ms.'
		});
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]?.body?.model).toBe('fake-model');
		expect(JSON.stringify(server.requests[0]?.body?.messages)).toContain('connection test');
	});

	it('names a refused key without showing it, and does not retry', async () => {
		server.enqueue({ status: 401 }, { text: 'never asked' });
		const result = await testConnection(settings());
		expect(result.ok).toBe(false);
		expect(result.message).toMatch(/The API key was refused \(401\): check it in these settings/);
		expect(result.message).not.toContain(key);
		expect(server.requests).toHaveLength(1);
	});

	it('names a model the provider does not have', async () => {
		server.enqueue({ status: 404, error: { message: 'The model `nope` does not exist' } });
		const result = await testConnection({ ...settings(), model: 'nope' });
		expect(result).toMatchObject({
			ok: false,
			message: expect.stringMatching(/"nope" was not found \(404\)/)
		});
	});

	it('gives up after the timeout and says so', async () => {
		server.enqueue({ text: 'too late', delayMs: 2000 });
		const result = await testConnection(settings(), { timeoutMs: 100 });
		expect(result).toEqual({
			ok: false,
			message:
				'OpenAI-compatible (Ollama, LM Studio, vLLM) did not answer within 100 ms: check the base URL and your connection, or try again.'
		});
	});

	it('says a closed port is unreachable', async () => {
		const url = server.url;
		await server.close();
		server = await start();
		const result = await testConnection({ ...settings(), baseUrl: url });
		expect(result.ok).toBe(false);
		expect(result.message).toMatch(/could not be reached/);
	});

	it('reaches the model through the Server route as the agent does', async () => {
		server.enqueue({ text: 'OK' });
		const environment = {
			THREADLINE_PROVIDER: 'openai-compatible',
			THREADLINE_MODEL: 'fake-model',
			THREADLINE_BASE_URL: server.url,
			OPENAI_API_KEY: key
		};
		const routeFetch: typeof fetch = async (input, init) =>
			handleChatRequest(
				new Request(new URL(String(input), 'http://127.0.0.1'), init),
				environment,
				{
					createModel: (routeSettings) => createLanguageModel(routeSettings)
				}
			);
		const result = await testConnection({ provider: 'server', model: '' }, { fetch: routeFetch });
		expect(result).toMatchObject({
			ok: true,
			message: expect.stringMatching(
				/^Connected: Server .*answered with the server’s model in \d+ ms\.$/
			)
		});
		expect(server.requests).toHaveLength(1);
	});

	it('shows the Server route’s own refusal whole (no model configured)', async () => {
		const routeFetch: typeof fetch = async (input, init) =>
			handleChatRequest(new Request(new URL(String(input), 'http://127.0.0.1'), init), {});
		const result = await testConnection({ provider: 'server', model: '' }, { fetch: routeFetch });
		expect(result.ok).toBe(false);
		expect(result.message).toMatch(
			/^The Server provider is not available: The server has no model configured\. Set THREADLINE_PROVIDER/
		);
	});
});

describe('testConnection without a network call', () => {
	it('needs no connection for the demo', async () => {
		const result = await testConnection({ provider: 'demo', model: 'scripted' });
		expect(result).toMatchObject({
			ok: true,
			message: expect.stringMatching(/needs no connection/)
		});
	});

	it('says what is missing before calling anything', async () => {
		let called = false;
		const result = await testConnection(
			{ provider: 'openai', model: 'gpt-5.4-mini' },
			{
				fetch: async () => {
					called = true;
					return new Response();
				}
			}
		);
		expect(result.ok).toBe(false);
		expect(result.message).toMatch(/^The settings are incomplete: /);
		expect(called).toBe(false);
	});
});
