import type {
	LanguageModelV4,
	LanguageModelV4CallOptions,
	LanguageModelV4Content,
	LanguageModelV4GenerateResult,
	LanguageModelV4StreamPart,
	LanguageModelV4StreamResult,
	LanguageModelV4Usage
} from '@ai-sdk/provider';
import type { Scheduler } from '../../../hooks/pipeline/ports.js';
import { parseReplayScript, type ReplayScript } from '../../../hooks/replay/replay-script.js';
import { demoToolCallId, planDemoTurn, type DemoTurn } from './demo-script-plan.js';
import { timerScheduler } from './timer-scheduler.js';

export interface DemoLanguageModelOptions {
	/** The scenario's `demo.yaml` text, or the script already parsed. */
	script: string | ReplayScript;
	/** The script session this model plays; the steps of other sessions are skipped. */
	sessionId: string;
	/** Paces the stream so it is visibly streamed; tests pass one that does not wait. */
	scheduler?: Scheduler;
	/** Pause between streamed chunks, in milliseconds. */
	chunkDelayMs?: number;
	/** Suffix that makes each tool call id unique. */
	generateId?: () => string;
	/** The scenario's suggested prompts: sending one starts the demo too. */
	suggestedPrompts?: readonly string[];
}

const emptyUsage: LanguageModelV4Usage = {
	inputTokens: {
		total: undefined,
		noCache: undefined,
		cacheRead: undefined,
		cacheWrite: undefined
	},
	outputTokens: { total: undefined, text: undefined, reasoning: undefined }
};

/**
 * The scenario's demo script played as a language model, for one session: each call reads the
 * conversation to see how far the script got and how the last call ended, streams the next `say`
 * lines and makes the next `call`. Its tool calls then go through the real pipeline like any
 * model's. `approve` is for `threadline replay`; here the person approves in the modal, and an
 * outcome other than `expect` follows the step's `on:` branch or stops the demo honestly.
 */
export class DemoLanguageModel implements LanguageModelV4 {
	readonly specificationVersion = 'v4';
	readonly provider: string;
	readonly modelId: string;
	readonly supportedUrls: Record<string, RegExp[]> = {};
	readonly script: ReplayScript;
	readonly sessionId: string;
	private readonly scheduler: Scheduler;
	private readonly chunkDelayMs: number;
	private readonly generateId: () => string;
	private readonly suggestedPrompts: readonly string[];
	private responseCount = 0;

	constructor(options: DemoLanguageModelOptions) {
		this.script = typeof options.script === 'string' ? parseScript(options.script) : options.script;
		this.sessionId = options.sessionId;
		this.scheduler = options.scheduler ?? timerScheduler;
		this.chunkDelayMs = options.chunkDelayMs ?? 12;
		this.generateId = options.generateId ?? randomSuffix;
		this.suggestedPrompts = options.suggestedPrompts ?? [];
		const traceModelId = this.script.sessions?.[this.sessionId]?.model ?? this.script.model;
		const slash = traceModelId.indexOf('/');
		this.provider = slash > 0 ? traceModelId.slice(0, slash) : 'demo';
		this.modelId = slash > 0 ? traceModelId.slice(slash + 1) : traceModelId;
	}

	/** `provider/model` for trace records, e.g. `demo/scripted`. */
	get traceModelId(): string {
		return `${this.provider}/${this.modelId}`;
	}

	async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
		options.abortSignal?.throwIfAborted();
		const turn = planDemoTurn(this.script, this.sessionId, options.prompt, {
			suggestedPrompts: this.suggestedPrompts
		});
		const content: LanguageModelV4Content[] = [];
		if (turn.texts.length > 0) content.push({ type: 'text', text: turn.texts.join('\n\n') });
		const toolCall = this.toolCallOf(turn);
		if (toolCall) content.push({ type: 'tool-call', ...toolCall });
		return {
			content,
			finishReason: { unified: turn.finishReason, raw: turn.finishReason },
			usage: emptyUsage,
			warnings: []
		};
	}

	async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
		options.abortSignal?.throwIfAborted();
		const turn = planDemoTurn(this.script, this.sessionId, options.prompt, {
			suggestedPrompts: this.suggestedPrompts
		});
		const parts = this.streamParts(turn, options.abortSignal);
		return {
			stream: new ReadableStream<LanguageModelV4StreamPart>({
				async pull(controller) {
					try {
						const next = await parts.next();
						if (next.done) controller.close();
						else controller.enqueue(next.value);
					} catch (error) {
						controller.error(error);
					}
				},
				async cancel() {
					await parts.return(undefined);
				}
			})
		};
	}

	private toolCallOf(
		turn: DemoTurn
	): { toolCallId: string; toolName: string; input: string } | undefined {
		if (!turn.toolCall) return undefined;
		return {
			toolCallId: demoToolCallId(this.sessionId, turn.toolCall.ordinal, this.generateId()),
			toolName: turn.toolCall.toolName,
			input: JSON.stringify(turn.toolCall.input)
		};
	}

	private async *streamParts(
		turn: DemoTurn,
		signal: AbortSignal | undefined
	): AsyncGenerator<LanguageModelV4StreamPart> {
		const pause = () => this.scheduler.delay(this.chunkDelayMs, signal);
		this.responseCount += 1;
		yield { type: 'stream-start', warnings: [] };
		yield {
			type: 'response-metadata',
			id: `demo-response-${this.responseCount}`,
			modelId: this.modelId
		};
		if (turn.texts.length > 0) {
			const textId = `text-${this.responseCount}`;
			yield { type: 'text-start', id: textId };
			for (const piece of textPieces(turn.texts.join('\n\n'))) {
				await pause();
				yield { type: 'text-delta', id: textId, delta: piece };
			}
			yield { type: 'text-end', id: textId };
		}
		const toolCall = this.toolCallOf(turn);
		if (toolCall) {
			await pause();
			yield { type: 'tool-input-start', id: toolCall.toolCallId, toolName: toolCall.toolName };
			for (const piece of fixedPieces(toolCall.input, 200)) {
				await pause();
				yield { type: 'tool-input-delta', id: toolCall.toolCallId, delta: piece };
			}
			yield { type: 'tool-input-end', id: toolCall.toolCallId };
			yield { type: 'tool-call', ...toolCall };
		}
		yield {
			type: 'finish',
			usage: emptyUsage,
			finishReason: { unified: turn.finishReason, raw: turn.finishReason }
		};
	}
}

export function createDemoLanguageModel(options: DemoLanguageModelOptions): DemoLanguageModel {
	return new DemoLanguageModel(options);
}

function parseScript(text: string): ReplayScript {
	const parsed = parseReplayScript(text);
	if (parsed.ok) return parsed.script;
	const problems = parsed.errors
		.map((error) => `${error.line}:${error.column} ${error.message}`)
		.join('; ');
	throw new Error(`The scenario's demo script is not valid: ${problems}`);
}

/** A few words at a time, like a model's tokens, whitespace kept so the pieces rejoin exactly. */
function textPieces(text: string): string[] {
	const words = text.match(/\S+\s*|\s+/g) ?? [];
	const pieces: string[] = [];
	for (let index = 0; index < words.length; index += 3) {
		pieces.push(words.slice(index, index + 3).join(''));
	}
	return pieces;
}

function fixedPieces(text: string, size: number): string[] {
	const pieces: string[] = [];
	for (let start = 0; start < text.length; start += size)
		pieces.push(text.slice(start, start + size));
	return pieces.length > 0 ? pieces : [''];
}

function randomSuffix(): string {
	return globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 12);
}
