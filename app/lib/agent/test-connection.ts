import { generateText, type LanguageModel, type UIMessage, type UIMessageChunk } from 'ai';
import { createLanguageModel } from './create-language-model.js';
import { describeProviderError } from './describe-provider-error.js';
import {
	providers,
	redactSecrets,
	validateSettings,
	type ProviderSettings
} from './provider-settings.js';
import { createServerChatTransport } from './server-chat-transport.js';

export interface ConnectionTestResult {
	ok: boolean;
	/** One sentence for the Settings dialog; never contains the key. */
	message: string;
}

export interface TestConnectionOptions {
	/** The fetch the provider (or the Server route) is called with; the page's by default. */
	fetch?: typeof globalThis.fetch;
	/** Cancels the test (the dialog closed). */
	signal?: AbortSignal;
	/** How long to wait for an answer before saying so. */
	timeoutMs?: number;
	/** Tests replace the clock. */
	now?: () => number;
	/** Tests may replace the model; the real provider client is made from the settings otherwise. */
	createModel?: (settings: ProviderSettings) => Promise<LanguageModel>;
}

export const defaultConnectionTimeoutMs = 20_000;

/** Short, so a test costs a handful of tokens. */
const testPrompt = 'This is a connection test. Reply with the single word OK.';

/**
 * "Test connection" in Settings: one tiny real request with the settings in the form (saved or
 * not), so a wrong key, model name, base URL or a browser-blocked provider shows up before the
 * learner's first message does. Direct providers are called with the AI SDK client the agent
 * uses; the Server provider through the app's /api/chat route, as the agent calls it.
 */
export async function testConnection(
	input: ProviderSettings,
	options: TestConnectionOptions = {}
): Promise<ConnectionTestResult> {
	const validation = validateSettings(input);
	if (!validation.ok) {
		return {
			ok: false,
			message: `The settings are incomplete: ${validation.problems.map((problem) => problem.message).join(' ')}`
		};
	}
	const settings = validation.settings;
	const label = providers[settings.provider].label;
	if (settings.provider === 'demo') {
		return {
			ok: true,
			message:
				'The demo agent runs in this page from the scenario’s script: it needs no connection.'
		};
	}

	const now = options.now ?? (() => performance.now());
	const timeoutMs = options.timeoutMs ?? defaultConnectionTimeoutMs;
	const timeout = new AbortController();
	const timer = setTimeout(() => timeout.abort(), timeoutMs);
	const signal = options.signal
		? AbortSignal.any([options.signal, timeout.signal])
		: timeout.signal;
	const started = now();
	try {
		if (settings.provider === 'server') await askServerRoute(options.fetch, signal);
		else await askModel(settings, options, signal);
		const elapsed = Math.round(now() - started);
		const model = settings.provider === 'server' ? 'the server’s model' : `"${settings.model}"`;
		return { ok: true, message: `Connected: ${label} answered with ${model} in ${elapsed} ms.` };
	} catch (error) {
		if (timeout.signal.aborted && !options.signal?.aborted) {
			return {
				ok: false,
				message: `${label} did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}: check the base URL and your connection, or try again.`
			};
		}
		const whereToFix =
			settings.provider === 'server' ? 'in the server’s environment' : 'in these settings';
		const described = describeProviderError(error, settings, { whereToFix });
		return { ok: false, message: redactSecrets(described.message, settings) };
	} finally {
		clearTimeout(timer);
	}
}

async function askModel(
	settings: ProviderSettings,
	options: TestConnectionOptions,
	signal: AbortSignal
): Promise<void> {
	const model = options.createModel
		? await options.createModel(settings)
		: await createLanguageModel(settings, { fetch: options.fetch });
	// No retries: the person is waiting, and a refusal should show at once.
	await generateText({ model, prompt: testPrompt, maxRetries: 0, abortSignal: signal });
}

/**
 * The Server provider holds its key in the server's environment, so the page cannot call the
 * model itself: send the route a one-message conversation and read its stream until the first
 * text (or its error chunk), then stop reading so the model is not kept generating.
 */
async function askServerRoute(
	fetch: typeof globalThis.fetch | undefined,
	signal: AbortSignal
): Promise<void> {
	const transport = createServerChatTransport<UIMessage>({
		systemPrompt: () => testPrompt,
		...(fetch ? { fetch } : {})
	});
	const stream = await transport.sendMessages({
		chatId: 'connection-test',
		messageId: undefined,
		trigger: 'submit-message',
		abortSignal: signal,
		messages: [{ id: 'connection-test', role: 'user', parts: [{ type: 'text', text: testPrompt }] }]
	});
	const reader = stream.getReader();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) return;
			const chunk = value as UIMessageChunk;
			if (chunk.type === 'error') throw new Error(chunk.errorText);
			if (chunk.type === 'text-delta' || chunk.type === 'finish') return;
		}
	} finally {
		await reader.cancel().catch(() => undefined);
	}
}
