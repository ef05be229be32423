import {
	convertToModelMessages,
	streamText,
	toUIMessageStream,
	type ChatTransport,
	type LanguageModel,
	type ToolSet,
	type UIMessage,
	type UIMessageChunk
} from 'ai';
import { agentTools, type AgentMessageMetadata } from './agent-tools.js';
import { describeProviderError } from './describe-provider-error.js';
import { describeToolInputError } from './describe-tool-input-error.js';
import { redactSecrets, type ProviderSettings } from './provider-settings.js';
import {
	defaultContextBudget,
	pruneConversation,
	type ContextBudget,
	type PrunedConversation
} from './prune-conversation.js';

export interface ResolvedModel {
	model: LanguageModel;
	/** `provider/model`, sent as message metadata so the trace can name the model. */
	modelId: string;
}

export interface BrowserChatTransportOptions {
	/** The model for this turn; asked every turn, so a change in Settings applies at once. */
	resolveModel: () => ResolvedModel | Promise<ResolvedModel>;
	/** The system prompt, rebuilt every turn from the governance state (hooks' buildSystemPrompt). */
	systemPrompt: () => string;
	/** The settings in use, so errors name the provider and never show the key. */
	settings?: () => ProviderSettings | null | undefined;
	tools?: ToolSet;
	contextBudget?: ContextBudget;
	/** Retries of a failed provider call (rate limits, 5xx); the SDK's default is 2. */
	maxRetries?: number;
	/** Told when older context was pruned, e.g. to show a note in the chat. */
	onPruned?: (pruned: PrunedConversation) => void;
}

/**
 * A ChatTransport that calls the model from the page (`streamText`), for bring-your-own-key
 * providers and the scripted demo. The tools have no `execute`: tool calls come back to the Chat,
 * whose onToolCall runs them through the hook pipeline.
 */
export class BrowserChatTransport<
	Message extends UIMessage = UIMessage
> implements ChatTransport<Message> {
	private readonly options: BrowserChatTransportOptions;

	constructor(options: BrowserChatTransportOptions) {
		this.options = options;
	}

	async sendMessages({
		messages,
		abortSignal
	}: Parameters<ChatTransport<Message>['sendMessages']>[0]): Promise<
		ReadableStream<UIMessageChunk>
	> {
		const settings = this.options.settings?.() ?? null;
		const tools = this.options.tools ?? agentTools;
		// The stream's error text is used for refused tool calls too: those get a ToolError.
		const plainError = (error: unknown) =>
			describeToolInputError(error) ?? describeProviderError(error, settings).message;

		let resolved: ResolvedModel;
		try {
			resolved = await this.options.resolveModel();
		} catch (error) {
			// Thrown errors reach Chat.error as they are: make them plain and key-free here. Our
			// own errors (incomplete settings) are already sentences.
			const description = describeProviderError(error, settings);
			const message =
				description.kind === 'unknown' && error instanceof Error
					? redactSecrets(error.message, settings)
					: description.message;
			throw new Error(message, { cause: error });
		}
		const system = this.options.systemPrompt();
		const budget = this.options.contextBudget ?? defaultContextBudget;
		// A pending tool the person stopped or talked over has no result; leave it out rather
		// than fail the turn with MissingToolResultsError.
		const modelMessages = await convertToModelMessages(messages, {
			tools,
			ignoreIncompleteToolCalls: true
		});
		const pruned = pruneConversation(modelMessages, {
			...budget,
			maxCharacters: Math.max(0, budget.maxCharacters - system.length)
		});
		if (pruned.prunedToolOutputs > 0 || pruned.droppedMessages > 0) this.options.onPruned?.(pruned);

		const result = streamText({
			model: resolved.model,
			instructions: system,
			messages: pruned.messages,
			tools,
			abortSignal,
			...(this.options.maxRetries === undefined ? {} : { maxRetries: this.options.maxRetries }),
			// The error reaches the person through the stream's error chunk; the SDK's default
			// handler would print the raw error (and request details) to the console.
			onError: () => {}
		});
		const metadata: AgentMessageMetadata = { modelId: resolved.modelId };
		return toUIMessageStream<ToolSet, UIMessage>({
			stream: result.stream,
			tools,
			originalMessages: messages,
			messageMetadata: ({ part }) => metadataOf(part, metadata),
			onError: plainError
		});
	}

	/** Nothing runs outside the page, so there is never a stream to resume. */
	async reconnectToStream(): Promise<ReadableStream<UIMessageChunk> | null> {
		return null;
	}
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
