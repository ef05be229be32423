import type { ChatTransport, LanguageModel, ToolSet, UIMessage, UIMessageChunk } from 'ai';
import { BrowserChatTransport } from './browser-chat-transport.js';
import { createLanguageModel } from './create-language-model.js';
import { modelIdOf, type ProviderSettings } from './provider-settings.js';
import type { ContextBudget, PrunedConversation } from './prune-conversation.js';
import { createServerChatTransport } from './server-chat-transport.js';

export interface AgentChatTransportOptions {
	/** The settings now (read every turn: a change in Settings applies to the next turn). */
	settings: () => ProviderSettings;
	/** The system prompt, rebuilt every turn (hooks' buildSystemPrompt). */
	systemPrompt: () => string;
	/** The scenario's demo model for this session (a DemoLanguageModel), with its trace id. */
	demoModel: () => { model: LanguageModel; modelId: string };
	/** For the real providers; tests inject a model factory. */
	createModel?: (settings: ProviderSettings) => Promise<LanguageModel>;
	serverApi?: string;
	fetch?: typeof globalThis.fetch;
	tools?: ToolSet;
	contextBudget?: ContextBudget;
	onPruned?: (pruned: PrunedConversation) => void;
}

/**
 * The one transport a Chat needs: each turn it follows the current settings to the demo model,
 * a provider called from the page, or the app's `/api/chat` ("Server").
 */
export function createAgentChatTransport<Message extends UIMessage = UIMessage>(
	options: AgentChatTransportOptions
): ChatTransport<Message> {
	const browser = new BrowserChatTransport<Message>({
		settings: options.settings,
		systemPrompt: options.systemPrompt,
		tools: options.tools,
		contextBudget: options.contextBudget,
		onPruned: options.onPruned,
		resolveModel: async () => {
			const settings = options.settings();
			if (settings.provider === 'demo') return options.demoModel();
			const create =
				options.createModel ??
				((current: ProviderSettings) =>
					createLanguageModel(current, options.fetch ? { fetch: options.fetch } : {}));
			return { model: await create(settings), modelId: modelIdOf(settings) };
		}
	});
	const server = createServerChatTransport<Message>({
		systemPrompt: options.systemPrompt,
		api: options.serverApi,
		fetch: options.fetch,
		passphrase: classPassphrase
	});
	return {
		sendMessages: (request) =>
			options.settings().provider === 'server'
				? server.sendMessages(request)
				: browser.sendMessages(request),
		reconnectToStream: async (): Promise<ReadableStream<UIMessageChunk> | null> => null
	};
}

const passphraseStorageKey = 'threadline-chat-passphrase';

/** The class passphrase for `/api/chat`, remembered in this browser once the person gave it. */
function classPassphrase({ ask }: { ask: boolean }): string | null {
	const storage = globalThis.localStorage;
	if (!ask) return storage?.getItem(passphraseStorageKey) ?? null;
	if (typeof globalThis.prompt !== 'function') return null;
	const given = globalThis.prompt('This class server needs the class passphrase:')?.trim();
	if (!given) return null;
	storage?.setItem(passphraseStorageKey, given);
	return given;
}
