import {
	convertToModelMessages,
	createUIMessageStreamResponse,
	safeValidateUIMessages,
	streamText,
	toUIMessageStream,
	type LanguageModel,
	type UIMessage
} from 'ai';
import { agentTools, type AgentMessageMetadata } from './agent-tools.js';
import { createLanguageModel } from './create-language-model.js';
import { describeProviderError } from './describe-provider-error.js';
import { describeToolInputError } from './describe-tool-input-error.js';
import {
	modelIdOf,
	providers,
	validateSettings,
	type ProviderSettings
} from './provider-settings.js';
import { defaultContextBudget, pruneConversation } from './prune-conversation.js';

/** The environment variables the route reads (`$env/dynamic/private` in SvelteKit). */
export type ServerEnvironment = Record<string, string | undefined>;

/** The key variable each provider's own SDK documents. */
export const providerKeyVariables = {
	openai: 'OPENAI_API_KEY',
	anthropic: 'ANTHROPIC_API_KEY',
	google: 'GOOGLE_GENERATIVE_AI_API_KEY',
	openrouter: 'OPENROUTER_API_KEY',
	'openai-compatible': 'OPENAI_API_KEY'
} as const;

type ServerProvider = keyof typeof providerKeyVariables;
const serverProviders = Object.keys(providerKeyVariables) as ServerProvider[];

export type ServerSettingsResult =
	{ ok: true; settings: ProviderSettings } | { ok: false; message: string; missing: string[] };

/**
 * The model the server uses, from THREADLINE_PROVIDER, THREADLINE_MODEL, the provider's key
 * variable and (for openai-compatible) THREADLINE_BASE_URL, or a sentence saying what to set.
 */
export function serverSettingsFromEnvironment(
	environment: ServerEnvironment
): ServerSettingsResult {
	const read = (name: string) => environment[name]?.trim() || undefined;
	const provider = read('THREADLINE_PROVIDER');
	const model = read('THREADLINE_MODEL');
	const choices = serverProviders.join(', ');
	const keyList = [...new Set(Object.values(providerKeyVariables))].join(', ');
	if (!provider) {
		return {
			ok: false,
			missing: ['THREADLINE_PROVIDER', 'THREADLINE_MODEL'],
			message: `The server has no model configured. Set THREADLINE_PROVIDER (${choices}), THREADLINE_MODEL and the provider's key (${keyList}; THREADLINE_BASE_URL for openai-compatible) in the server's environment and restart it, or choose another provider in Settings.`
		};
	}
	if (!(serverProviders as string[]).includes(provider)) {
		return {
			ok: false,
			missing: ['THREADLINE_PROVIDER'],
			message: `THREADLINE_PROVIDER is "${provider}", which the server does not know. Use one of: ${choices}.`
		};
	}
	const serverProvider = provider as ServerProvider;
	const keyVariable = providerKeyVariables[serverProvider];
	const apiKey = read(keyVariable);
	const baseUrl = read('THREADLINE_BASE_URL');
	const missing: string[] = [];
	if (!model) missing.push('THREADLINE_MODEL');
	if (serverProvider === 'openai-compatible') {
		if (!baseUrl) missing.push('THREADLINE_BASE_URL');
	} else if (!apiKey) missing.push(keyVariable);
	if (missing.length > 0) {
		return {
			ok: false,
			missing,
			message: `THREADLINE_PROVIDER is ${serverProvider}, but ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set in the server's environment. Set ${missing.length === 1 ? 'it' : 'them'} and restart the server, or choose another provider in Settings.`
		};
	}
	const validation = validateSettings({ provider: serverProvider, model, apiKey, baseUrl });
	if (!validation.ok) {
		return {
			ok: false,
			missing: [],
			message: `The server's model settings are not valid: ${validation.problems.map((problem) => problem.message).join(' ')}`
		};
	}
	return { ok: true, settings: validation.settings };
}

export interface ServerChatHandlerOptions {
	/** Longest system prompt accepted from the page, in characters. */
	maxSystemPromptLength?: number;
	/** Largest request body accepted, in bytes. */
	maxBodyBytes?: number;
	/** Tests replace the provider; the real one is made from the settings. */
	createModel?: (settings: ProviderSettings) => Promise<LanguageModel>;
	/**
	 * Hears every tool call the model returned (class mode records their digests, so verify can
	 * tell a tool call the model really made from one written into the ledger afterwards).
	 */
	onToolCalls?: (
		calls: { toolCallId: string; toolName: string; input: unknown }[],
		modelId: string
	) => void | Promise<void>;
}

export const defaultMaxSystemPromptLength = 100_000;
export const defaultMaxBodyBytes = 8 * 1024 * 1024;

/** POST /api/chat: the page's conversation and system prompt in, a UI message stream out. */
export async function handleChatRequest(
	request: Request,
	environment: ServerEnvironment,
	options: ServerChatHandlerOptions = {}
): Promise<Response> {
	const configured = serverSettingsFromEnvironment(environment);
	if (!configured.ok) {
		return errorResponse(503, configured.message, { missing: configured.missing });
	}
	const settings = configured.settings;
	const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
	const maxSystemPromptLength = options.maxSystemPromptLength ?? defaultMaxSystemPromptLength;

	const declaredLength = Number(request.headers.get('content-length') ?? '0');
	if (declaredLength > maxBodyBytes) return tooLarge(maxBodyBytes);
	const text = await request.text();
	if (new TextEncoder().encode(text).length > maxBodyBytes) return tooLarge(maxBodyBytes);

	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return errorResponse(400, 'The chat request is not JSON.');
	}
	if (typeof body !== 'object' || body === null) {
		return errorResponse(400, 'The chat request must be a JSON object with messages and system.');
	}
	const { messages, system } = body as { messages?: unknown; system?: unknown };
	if (typeof system !== 'string') {
		return errorResponse(400, 'The chat request has no system prompt (a "system" string).');
	}
	if (system.length > maxSystemPromptLength) {
		return errorResponse(
			413,
			`The system prompt is ${system.length} characters; the server accepts at most ${maxSystemPromptLength}.`
		);
	}
	// Structure only: tool inputs are checked by the page's pipeline, and an old invalid call
	// (answered with invalid_input) must not make the whole conversation unusable.
	const validation = await safeValidateUIMessages<UIMessage>({ messages });
	if (!validation.success) {
		return errorResponse(400, `The chat messages are not valid: ${validation.error.message}`);
	}
	const uiMessages = validation.data;

	const plainError = (error: unknown) =>
		describeToolInputError(error) ??
		describeProviderError(error, settings, {
			whereToFix: `in the server's environment (${describeFixVariables(settings)})`
		}).message;

	let model: LanguageModel;
	try {
		model = await (options.createModel ?? createLanguageModel)(settings);
	} catch (error) {
		return errorResponse(503, plainError(error));
	}
	const modelMessages = await convertToModelMessages(uiMessages, {
		tools: agentTools,
		ignoreIncompleteToolCalls: true
	});
	const pruned = pruneConversation(modelMessages, {
		...defaultContextBudget,
		maxCharacters: Math.max(0, defaultContextBudget.maxCharacters - system.length)
	});
	const result = streamText({
		model,
		instructions: system,
		messages: pruned.messages,
		tools: agentTools,
		abortSignal: request.signal,
		onError: () => {},
		onStepEnd: async (step) => {
			if (!options.onToolCalls || step.toolCalls.length === 0) return;
			const calls = step.toolCalls.map((call) => ({
				toolCallId: call.toolCallId,
				toolName: call.toolName,
				input: call.input as unknown
			}));
			// A witness that is down must not break the learner's chat.
			await Promise.resolve(options.onToolCalls(calls, modelIdOf(settings))).catch(() => undefined);
		}
	});
	const metadata: AgentMessageMetadata = { modelId: modelIdOf(settings) };
	return createUIMessageStreamResponse({
		stream: toUIMessageStream<typeof agentTools, UIMessage>({
			stream: result.stream,
			tools: agentTools,
			originalMessages: uiMessages,
			messageMetadata: ({ part }) => metadataOf(part, metadata),
			onError: plainError
		})
	});
}

function describeFixVariables(settings: ProviderSettings): string {
	const variables = ['THREADLINE_MODEL'];
	if (settings.provider !== 'demo' && settings.provider !== 'server') {
		variables.unshift(providerKeyVariables[settings.provider]);
	}
	if (providers[settings.provider].baseUrl === 'required') variables.push('THREADLINE_BASE_URL');
	return variables.join(', ');
}

function tooLarge(maxBodyBytes: number): Response {
	return errorResponse(
		413,
		`The conversation is larger than the ${Math.round(maxBodyBytes / 1024 / 1024)} MB the server accepts; start a new conversation.`
	);
}

function errorResponse(status: number, message: string, extra: object = {}): Response {
	return new Response(JSON.stringify({ error: message, ...extra }), {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8' }
	});
}

/** The model at the start of a message; its token usage (when reported) at the finish. */
function metadataOf(
	part: {
		type: string;
		totalUsage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
	},
	metadata: AgentMessageMetadata
): AgentMessageMetadata | undefined {
	if (part.type === 'start') return metadata;
	if (part.type !== 'finish' || !part.totalUsage) return undefined;
	const { inputTokens, outputTokens, totalTokens } = part.totalUsage;
	return { ...metadata, usage: { inputTokens, outputTokens, totalTokens } };
}
