import { Chat } from '@ai-sdk/svelte';
import { lastAssistantMessageIsCompleteWithToolCalls, type LanguageModel } from 'ai';
import type { ToolPipeline } from '../../../hooks/pipeline/tool-pipeline.js';
import { createAgentChatTransport } from '../agent/agent-chat-transport.js';
import {
	agentTools,
	type AgentMessageMetadata,
	type AgentUIMessage
} from '../agent/agent-tools.js';
import { describeProviderError } from '../agent/describe-provider-error.js';
import { redactSecrets, type ProviderSettings } from '../agent/provider-settings.js';

export interface AgentChatOptions {
	id: string;
	name: string;
	pipeline: ToolPipeline;
	settings: () => ProviderSettings;
	stepCap: () => number;
	systemPrompt: (sessionId: string) => string;
	demoModel: () => { model: LanguageModel; modelId: string };
	/** `provider/model` of the current turn, recorded on this session's trace records. */
	modelId: () => string;
	messages?: AgentUIMessage[];
	onMessagesChange?: (messages: AgentUIMessage[]) => void;
	/** The error shown before a reload, if any (errors survive reloads). */
	error?: string | null;
	onErrorChange?: (error: string | null) => void;
	/** Rejects the approvals this session is still waiting for (Stop). */
	cancelApprovals: (sessionId: string, reason: string) => void;
}

/**
 * One agent conversation (a tab such as "Builder"): an AI SDK Chat whose client-side tools run
 * through the governance pipeline. `onToolCall` never awaits: it starts the pipeline, and the
 * pipeline's outcome (or ToolError) comes back through `addToolOutput`.
 */
export class AgentChat {
	readonly id: string;
	readonly name: string;
	readonly chat: Chat<AgentUIMessage>;
	/** A provider error in plain words (the conversation is kept). */
	#error = $state<string | null>(null);
	/** Tool calls the pipeline is working on (waiting for the human included). */
	pendingTools = $state(0);
	/** Parts of assistant messages already in the ledger (`message id:index`). */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping, never rendered
	private readonly recordedParts = new Set<string>();
	private cancelled = false;
	private steps = 0;
	private abort = new AbortController();

	constructor(private readonly options: AgentChatOptions) {
		this.id = options.id;
		this.name = options.name;
		this.#error = options.error ?? null;
		// Messages restored after a reload were recorded when they were said.
		for (const message of options.messages ?? [])
			message.parts.forEach((_, index) => this.recordedParts.add(`${message.id}:${index}`));
		this.chat = new Chat<AgentUIMessage>({
			id: options.id,
			messages: options.messages,
			transport: createAgentChatTransport<AgentUIMessage>({
				settings: options.settings,
				systemPrompt: () => options.systemPrompt(options.id),
				demoModel: options.demoModel,
				tools: agentTools
			}),
			onToolCall: ({ toolCall }) => {
				if (toolCall.dynamic) return;
				void this.runTool(toolCall.toolName, toolCall.toolCallId, toolCall.input, true);
			},
			sendAutomaticallyWhen: ({ messages }) =>
				!this.cancelled &&
				this.steps < options.stepCap() &&
				lastAssistantMessageIsCompleteWithToolCalls({ messages }),
			onError: (error) => {
				const settings = options.settings();
				this.error = redactSecrets(describeProviderError(error, settings).message, settings);
			},
			onFinish: ({ message }) => {
				// What the model said after its last tool call (or without one), with the turn's usage.
				void this.recordAssistant(null, message.metadata?.usage ?? null);
				options.onMessagesChange?.(this.chat.messages);
			}
		});
	}

	get error(): string | null {
		return this.#error;
	}

	set error(value: string | null) {
		if (value === this.#error) return;
		this.#error = value;
		this.options.onErrorChange?.(value);
	}

	get status() {
		return this.chat.status;
	}

	get busy(): boolean {
		return (
			this.chat.status === 'submitted' || this.chat.status === 'streaming' || this.pendingTools > 0
		);
	}

	async send(text: string): Promise<void> {
		const trimmed = text.trim();
		if (!trimmed) return;
		this.cancelled = false;
		this.steps = 0;
		this.error = null;
		this.abort = new AbortController();
		await this.record([{ sessionId: this.id, role: 'user', text: trimmed }]);
		await this.chat.sendMessage({ text: trimmed });
	}

	/** Sends the last request again after an error (the conversation is kept). */
	async retry(): Promise<void> {
		this.cancelled = false;
		this.steps = 0;
		this.error = null;
		this.abort = new AbortController();
		await this.chat.regenerate();
	}

	/** A call the page was asked to run before a reload (waiting for an approval): ask again. */
	resumeTool(tool: string, toolCallId: string, input: unknown): void {
		void this.runTool(tool, toolCallId, input, false);
	}

	/** Stop really stops: the stream ends, pending approvals are refused, nothing is resubmitted. */
	async stop(): Promise<void> {
		this.cancelled = true;
		this.abort.abort();
		this.options.cancelApprovals(this.id, 'The person stopped the session.');
		await this.chat.stop();
		this.options.onMessagesChange?.(this.chat.messages);
	}

	/**
	 * The conversation into the ledger (issue 31): a failure to record is shown, never thrown,
	 * so the chat goes on (the pipeline refuses the next call itself if the ledger is broken).
	 */
	private async record(entries: Parameters<ToolPipeline['recordConversation']>[0]): Promise<void> {
		if (entries.length === 0) return;
		try {
			const apiKey = this.options.settings().apiKey;
			await this.options.pipeline.recordConversation(
				entries.map((entry) => ({
					...entry,
					model: entry.role === 'user' ? null : this.options.modelId(),
					knownSecrets: apiKey ? [apiKey] : []
				}))
			);
		} catch (error) {
			this.error = `The conversation could not be recorded: ${error instanceof Error ? error.message : String(error)}`;
		}
	}

	/**
	 * The last assistant message's parts not recorded yet, in order: its texts and tool calls up to
	 * the call `upTo` (all of them when null). A text is complete once a later part begins.
	 */
	private async recordAssistant(
		upTo: string | null,
		usage: AgentMessageMetadata['usage'] | null = null
	): Promise<void> {
		const message = this.chat.messages.findLast((candidate) => candidate.role === 'assistant');
		if (!message) return;
		const entries: Parameters<ToolPipeline['recordConversation']>[0][number][] = [];
		for (const [index, part] of message.parts.entries()) {
			const key = `${message.id}:${index}`;
			const callId = 'toolCallId' in part ? String(part.toolCallId) : null;
			if (!this.recordedParts.has(key)) {
				if (part.type === 'text' && part.text.trim() !== '') {
					entries.push({ sessionId: this.id, role: 'assistant', text: part.text });
				} else if (callId !== null && part.type.startsWith('tool-') && 'input' in part) {
					entries.push({
						sessionId: this.id,
						role: 'assistant',
						toolCall: { id: callId, name: part.type.slice('tool-'.length), input: part.input }
					});
				}
				this.recordedParts.add(key);
			}
			if (upTo !== null && callId === upTo) break;
		}
		const last = entries.at(-1);
		if (last && usage) last.usage = usage;
		await this.record(entries);
	}

	private async runTool(
		tool: string,
		toolCallId: string,
		input: unknown,
		fresh: boolean
	): Promise<void> {
		this.steps++;
		this.pendingTools++;
		try {
			// What the model said before this call, and the call as it sent it.
			if (fresh) await this.recordAssistant(toolCallId);
			const session = this.options.pipeline.state.session(this.id);
			session.name = this.name;
			session.modelId = this.options.modelId();
			const outcome = await this.options.pipeline.run(
				{ sessionId: this.id, toolCallId, tool, input },
				{ signal: this.abort.signal }
			);
			await this.record([
				{
					sessionId: this.id,
					role: 'tool',
					toolResult: outcome.ok
						? { id: toolCallId, ok: true, output: outcome.output }
						: { id: toolCallId, ok: false, error: outcome.error }
				}
			]);
			const typedTool = tool as never;
			if (outcome.ok) {
				await this.chat.addToolOutput({
					tool: typedTool,
					toolCallId,
					output: outcome.output as never
				});
			} else {
				await this.chat.addToolOutput({
					tool: typedTool,
					toolCallId,
					state: 'output-error',
					errorText: JSON.stringify(outcome.error)
				});
			}
		} finally {
			this.pendingTools--;
			this.options.onMessagesChange?.(this.chat.messages);
		}
	}
}
