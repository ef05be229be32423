import type { LanguageModelV4 } from '@ai-sdk/provider';
import { providers, validateSettings, type ProviderSettings } from './provider-settings.js';
import { withoutUserAgent } from './without-user-agent.js';

export interface CreateLanguageModelOptions {
	/** The fetch the provider uses; the page's fetch by default (tests point it elsewhere). */
	fetch?: typeof globalThis.fetch;
}

/**
 * The AI SDK model for settings that name a real provider. Each provider package is imported
 * on first use, so none of them is in the page's initial bundle. The demo model and the Server
 * provider are not made here: the demo plays the scenario's script and the server holds its own
 * key (see agent-chat-transport.ts).
 */
export async function createLanguageModel(
	settings: ProviderSettings,
	options: CreateLanguageModelOptions = {}
): Promise<LanguageModelV4> {
	const validation = validateSettings(settings);
	if (!validation.ok) {
		throw new Error(
			`The model settings are incomplete: ${validation.problems.map((problem) => problem.message).join(' ')}`
		);
	}
	const { provider, model, apiKey, baseUrl } = validation.settings;
	const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
	// Settings carry no trailing-slash rules; the SDKs join paths onto the base URL themselves.
	const baseURL = baseUrl?.replace(/\/+$/, '');
	switch (provider) {
		case 'openai': {
			const { createOpenAI } = await import('@ai-sdk/openai');
			return createOpenAI({ apiKey, baseURL, fetch })(model);
		}
		case 'anthropic': {
			const { createAnthropic } = await import('@ai-sdk/anthropic');
			return createAnthropic({
				apiKey,
				baseURL,
				fetch,
				// Anthropic refuses calls from a page unless the caller says it knows the key is exposed.
				headers: { 'anthropic-dangerous-direct-browser-access': 'true' }
			})(model);
		}
		case 'google': {
			const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
			return createGoogleGenerativeAI({ apiKey, baseURL, fetch })(model);
		}
		case 'openrouter': {
			const { createOpenRouter } = await import('@openrouter/ai-sdk-provider');
			return createOpenRouter({ apiKey, baseURL, fetch, compatibility: 'strict' })(model);
		}
		case 'openai-compatible': {
			const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
			return createOpenAICompatible({
				name: 'openai-compatible',
				baseURL: baseURL as string,
				apiKey,
				includeUsage: true,
				fetch: withoutUserAgent(fetch)
			})(model);
		}
		case 'demo':
		case 'server':
			throw new Error(
				`${providers[provider].label} is not a model this page calls directly; use the agent chat transport for it.`
			);
	}
}
