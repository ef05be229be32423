import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { describeProviderError } from './describe-provider-error.js';
import type { ProviderSettings } from './provider-settings.js';

const key = 'sk-proj-Secret1234567890abcdef';
const openai: ProviderSettings = { provider: 'openai', model: 'gpt-5.4-mini', apiKey: key };

function apiError(statusCode: number | undefined, responseBody?: string, cause?: unknown) {
	return new APICallError({
		message: statusCode
			? `Request failed with ${statusCode}`
			: 'Cannot connect to API: Failed to fetch',
		url: 'https://api.openai.com/v1/responses',
		requestBodyValues: { model: 'gpt-5.4-mini' },
		statusCode,
		responseBody,
		cause,
		isRetryable: statusCode === undefined || statusCode === 429 || statusCode >= 500
	});
}

describe('describeProviderError', () => {
	it('401 and 403: the key was refused, check it in Settings', () => {
		for (const status of [401, 403]) {
			const description = describeProviderError(
				apiError(
					status,
					JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } })
				),
				openai
			);
			expect(description.kind).toBe('auth');
			expect(description.status).toBe(status);
			expect(description.message).toBe(
				`The API key was refused (${status}): check it in Settings.`
			);
		}
	});

	it('says where to fix the key when it is not in Settings', () => {
		const description = describeProviderError(apiError(401), openai, {
			whereToFix: "in the server's environment (OPENAI_API_KEY)"
		});
		expect(description.message).toBe(
			"The API key was refused (401): check it in the server's environment (OPENAI_API_KEY)."
		);
	});

	it('429: rate limit or quota, try later, with the provider’s words', () => {
		const description = describeProviderError(
			apiError(429, JSON.stringify({ error: { message: 'You exceeded your current quota.' } })),
			openai
		);
		expect(description.kind).toBe('rate-limit');
		expect(description.message).toMatch(
			/^OpenAI is limiting requests or the quota is used up \(429\)/
		);
		expect(description.message).toMatch(/wait a minute and try again/);
		expect(description.message).toContain('You exceeded your current quota.');
	});

	it('unwraps the RetryError the SDK throws after retrying', () => {
		const retry = new RetryError({
			message: 'Failed after 3 attempts',
			reason: 'maxRetriesExceeded',
			errors: [apiError(500), apiError(429)]
		});
		expect(describeProviderError(retry, openai).kind).toBe('rate-limit');
	});

	it('network failures and CORS: could not be reached, suggest the Server provider or a proxy', () => {
		const failures = [
			apiError(undefined, undefined, new TypeError('Failed to fetch')),
			new TypeError('NetworkError when attempting to fetch resource.'),
			new TypeError('Load failed'),
			Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })
		];
		for (const failure of failures) {
			const description = describeProviderError(failure, {
				provider: 'openai-compatible',
				model: 'llama3.1'
			});
			expect(description.kind).toBe('network');
			expect(description.message).toMatch(/could not be reached/);
			expect(description.message).toMatch(/Server provider or an OpenAI-compatible proxy/);
		}
	});

	it('404: the model was not found, naming it', () => {
		const description = describeProviderError(
			apiError(404, JSON.stringify({ error: { message: 'The model `gpt-9` does not exist' } })),
			{ ...openai, model: 'gpt-9' }
		);
		expect(description.kind).toBe('model-not-found');
		expect(description.message).toMatch(/^"gpt-9" was not found \(404\): check the model name/);
	});

	it('5xx: a problem on the provider’s side', () => {
		const description = describeProviderError(apiError(503, '<html>Service Unavailable</html>'), {
			provider: 'anthropic',
			model: 'claude-sonnet-4-6'
		});
		expect(description).toEqual({
			kind: 'server',
			status: 503,
			message:
				'Anthropic had a problem on its side (503): try again in a moment, or pick another model.'
		});
	});

	it('the Server provider’s 503: the route’s whole sentence, not cut off, no "try again"', () => {
		const sentence =
			'The server has no model configured. Set THREADLINE_PROVIDER (openai, anthropic, google, openrouter, openai-compatible), THREADLINE_MODEL and the provider’s key (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, OPENROUTER_API_KEY; THREADLINE_BASE_URL for openai-compatible) in the server’s environment and restart it, or choose another provider in Settings.';
		expect(sentence.length).toBeGreaterThan(300);
		for (const error of [new Error(sentence), apiError(503, JSON.stringify({ error: sentence }))]) {
			const description = describeProviderError(error, { provider: 'server', model: '' });
			expect(description.kind).toBe('server');
			expect(description.message).toBe(`The Server provider is not available: ${sentence}`);
			expect(description.message).not.toMatch(/try again in a moment|…/);
		}
	});

	it('other 4xx: the request was rejected, with the provider’s reason', () => {
		const description = describeProviderError(
			apiError(
				400,
				JSON.stringify({ error: { message: 'tools are not supported by this model' } })
			),
			{ provider: 'openai-compatible', model: 'tinyllama' }
		);
		expect(description.kind).toBe('bad-request');
		expect(description.message).toContain('tools are not supported by this model');
	});

	it('never shows the key, even inside the provider’s own message', () => {
		const bodies = [
			JSON.stringify({ error: { message: `Key ${key} is over quota` } }),
			`plain text mentioning ${key}`
		];
		for (const body of bodies) {
			const description = describeProviderError(apiError(429, body), openai);
			expect(description.message).not.toContain(key);
			expect(description.message).toContain('[redacted]');
		}
		const unknown = describeProviderError(new Error(`boom with ${key}`), openai);
		expect(unknown.kind).toBe('unknown');
		expect(unknown.message).toBe('The model call failed: boom with [redacted]');
	});

	it('an abort is just "Stopped."', () => {
		const abort = new DOMException('The operation was aborted.', 'AbortError');
		expect(describeProviderError(abort)).toEqual({ kind: 'aborted', message: 'Stopped.' });
	});

	it('copes with values that are not errors', () => {
		expect(describeProviderError('weird').message).toBe('The model call failed: weird');
		expect(describeProviderError(undefined).kind).toBe('unknown');
		expect(describeProviderError({ status: 401 }).kind).toBe('auth');
	});

	it('shortens very long provider messages', () => {
		const long = 'x'.repeat(2000);
		const description = describeProviderError(
			apiError(400, JSON.stringify({ error: { message: long } }))
		);
		expect(description.message.length).toBeLessThan(600);
		expect(description.message).toContain('…');
	});
});
