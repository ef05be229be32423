import { Chat } from '@ai-sdk/svelte';
import { lastAssistantMessageIsCompleteWithToolCalls, type LanguageModel } from 'ai';
import type { ToolPipeline } from '../../../hooks/pipeline/tool-pipeline.js';
import { createAgentChatTransport } from '../agent/agent-chat-transport.js';
import { agentTools, type AgentUIMessage } from '../agent/agent-tools.js';
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
	private cancelled = false;
	private steps = 0;
	private abort = new AbortController();

	constructor(private readonly options: AgentChatOptions) {
		this.id = options.id;
		this.name = options.name;
		this.#error = options.error ?? null;
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
				void this.runTool(toolCall.toolName, toolCall.toolCallId, toolCall.input);
			},
			sendAutomaticallyWhen: ({ messages }) =>
				!this.cancelled &&
				this.steps < options.stepCap() &&
				lastAssistantMessageIsCompleteWithToolCalls({ messages }),
			onError: (error) => {
				const settings = options.settings();
				this.error = redactSecrets(describeProviderError(error, settings).message, settings);
			},
			onFinish: () => options.onMessagesChange?.(this.chat.messages)
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
		void this.runTool(tool, toolCallId, input);
	}

	/** Stop really stops: the stream ends, pending approvals are refused, nothing is resubmitted. */
	async stop(): Promise<void> {
		this.cancelled = true;
		this.abort.abort();
		this.options.cancelApprovals(this.id, 'The person stopped the session.');
		await this.chat.stop();
		this.options.onMessagesChange?.(this.chat.messages);
	}

	private async runTool(tool: string, toolCallId: string, input: unknown): Promise<void> {
		this.steps++;
		this.pendingTools++;
		try {
			const session = this.options.pipeline.state.session(this.id);
			session.name = this.name;
			session.modelId = this.options.modelId();
			const outcome = await this.options.pipeline.run(
				{ sessionId: this.id, toolCallId, tool, input },
				{ signal: this.abort.signal }
			);
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
