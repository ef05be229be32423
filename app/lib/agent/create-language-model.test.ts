import { generateText, streamText } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { start, type FakeOpenAIServer } from '../../../e2e/fixtures/fake-openai-server.js';
import { createLanguageModel } from './create-language-model.js';
import type { ProviderSettings } from './provider-settings.js';

interface RecordedCall {
	url: string;
	headers: Headers;
}

/** A fetch that records what the provider would send and answers 401, ending the call. */
function refusingFetch(calls: RecordedCall[]): typeof fetch {
	return async (input, init) => {
		const url = input instanceof Request ? input.url : String(input);
		calls.push({ url, headers: new Headers(init?.headers) });
		return new Response(JSON.stringify({ error: { message: 'invalid key' } }), {
			status: 401,
			headers: { 'content-type': 'application/json' }
		});
	};
}

async function firstRequest(settings: ProviderSettings): Promise<RecordedCall> {
	const calls: RecordedCall[] = [];
	const model = await createLanguageModel(settings, { fetch: refusingFetch(calls) });
	await expect(generateText({ model, prompt: 'Hi', maxRetries: 0 })).rejects.toMatchObject({
		statusCode: 401
	});
	expect(calls).toHaveLength(1);
	return calls[0] as RecordedCall;
}

describe('createLanguageModel', () => {
	it('OpenAI: the Responses API with a bearer key', async () => {
		const call = await firstRequest({
			provider: 'openai',
			model: 'gpt-5.4-mini',
			apiKey: 'sk-test-openai-1'
		});
		expect(call.url).toBe('https://api.openai.com/v1/responses');
		expect(call.headers.get('authorization')).toBe('Bearer sk-test-openai-1');
		// The SDK does add a user-agent; only the OpenAI-compatible provider strips it (below).
		expect(call.headers.get('user-agent')).toContain('ai-sdk');
	});

	it('Anthropic: sends the browser-access header the API requires from a page', async () => {
		const call = await firstRequest({
			provider: 'anthropic',
			model: 'claude-sonnet-4-6',
			apiKey: 'sk-ant-test-1'
		});
		expect(call.url).toBe('https://api.anthropic.com/v1/messages');
		expect(call.headers.get('anthropic-dangerous-direct-browser-access')).toBe('true');
		expect(call.headers.get('x-api-key')).toBe('sk-ant-test-1');
	});

	it('Google: the Gemini API with the key in a header, not the URL', async () => {
		const call = await firstRequest({
			provider: 'google',
			model: 'gemini-2.5-flash',
			apiKey: 'AIza-test-key-1'
		});
		expect(call.url).toMatch(/^https:\/\/generativelanguage\.googleapis\.com\/.*gemini-2\.5-flash/);
		expect(call.url).not.toContain('AIza-test-key-1');
		expect(call.headers.get('x-goog-api-key')).toBe('AIza-test-key-1');
	});

	it('OpenRouter: its chat completions endpoint', async () => {
		const call = await firstRequest({
			provider: 'openrouter',
			model: 'openai/gpt-5.4-mini',
			apiKey: 'sk-or-v1-test'
		});
		expect(call.url).toBe('https://openrouter.ai/api/v1/chat/completions');
		expect(call.headers.get('authorization')).toBe('Bearer sk-or-v1-test');
	});

	it('honours a base URL override (a proxy), with or without a trailing slash', async () => {
		const call = await firstRequest({
			provider: 'openai',
			model: 'gpt-5.4-mini',
			apiKey: 'sk-test-openai-1',
			baseUrl: 'https://proxy.example.test/openai/v1/'
		});
		expect(call.url).toBe('https://proxy.example.test/openai/v1/responses');
	});

	it('OpenAI-compatible: the base URL, an optional key and no user-agent header', async () => {
		const call = await firstRequest({
			provider: 'openai-compatible',
			model: 'llama3.1',
			baseUrl: 'http://localhost:11434/v1'
		});
		expect(call.url).toBe('http://localhost:11434/v1/chat/completions');
		expect(call.headers.has('user-agent')).toBe(false);
		expect(call.headers.has('authorization')).toBe(false);
	});

	it('refuses incomplete settings in plain words', async () => {
		await expect(
			createLanguageModel({ provider: 'openai', model: 'gpt-5.4-mini' })
		).rejects.toThrow('The model settings are incomplete: OpenAI needs an API key.');
	});

	it('does not make the demo or the server model', async () => {
		await expect(createLanguageModel({ provider: 'demo', model: 'scripted' })).rejects.toThrow(
			/not a model this page calls directly/
		);
		await expect(createLanguageModel({ provider: 'server', model: '' })).rejects.toThrow(
			/not a model this page calls directly/
		);
	});

	it('imports each provider package lazily (no static import in the module)', async () => {
		const { readFile } = await import('node:fs/promises');
		const source = await readFile(new URL('./create-language-model.ts', import.meta.url), 'utf8');
		const staticImports = [...source.matchAll(/^import .* from '([^']+)'/gm)].map(
			(match) => match[1]
		);
		expect(
			staticImports.filter((name) => name?.startsWith('@ai-sdk/') && name !== '@ai-sdk/provider')
		).toEqual([]);
		expect(staticImports).not.toContain('@openrouter/ai-sdk-provider');
	});
});

describe('createLanguageModel against the fake OpenAI-compatible server', () => {
	let server: FakeOpenAIServer;
	beforeEach(async () => {
		server = await start();
	});
	afterEach(async () => {
		await server.close();
	});

	it('streams from a local server and sends the key when one is set', async () => {
		server.enqueue({ text: 'Hello from a local model.' });
		const model = await createLanguageModel({
			provider: 'openai-compatible',
			model: 'qwen3',
			apiKey: 'local-token-123',
			baseUrl: server.url
		});
		const result = streamText({ model, prompt: 'Hi' });
		expect(await result.text).toBe('Hello from a local model.');
		const request = server.requests[0];
		expect(request?.body?.model).toBe('qwen3');
		expect(request?.headers.authorization).toBe('Bearer local-token-123');
		expect(String(request?.headers['user-agent'] ?? '')).not.toContain('ai-sdk');
	});
});
