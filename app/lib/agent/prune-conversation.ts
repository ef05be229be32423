import type { ModelMessage, ToolResultPart } from 'ai';

/**
 * Keeps the conversation sent to the model within a budget. The system prompt (with the active
 * intent's context) is not part of it and is always sent whole. Cheapest loss first: the bodies
 * of old tool outputs (the model can call the tool again), then the oldest turns; the turn of the
 * latest user message is never dropped.
 */
export interface ContextBudget {
	/** Characters of serialized messages (roughly four per token). */
	maxCharacters: number;
	/** The newest tool outputs kept whole while older ones are pruned. */
	keepRecentToolOutputs: number;
}

export const defaultContextBudget: ContextBudget = {
	maxCharacters: 240_000,
	keepRecentToolOutputs: 6
};

export interface PrunedConversation {
	messages: ModelMessage[];
	/** Tool outputs whose body was replaced by a short note. */
	prunedToolOutputs: number;
	/** Messages of older turns left out. */
	droppedMessages: number;
	/** Serialized size of `messages`, in characters. */
	size: number;
}

/** Outputs this small cost less than the note that would replace them. */
const smallOutput = 400;

export function pruneConversation(
	messages: readonly ModelMessage[],
	budget: ContextBudget = defaultContextBudget
): PrunedConversation {
	let working = [...messages];
	let size = totalSize(working);
	let prunedToolOutputs = 0;
	let droppedMessages = 0;
	if (size <= budget.maxCharacters)
		return { messages: working, prunedToolOutputs, droppedMessages, size };

	const pruneOutputs = (keepNewest: number) => {
		const locations = toolResultLocations(working);
		const candidates = locations.slice(0, Math.max(0, locations.length - keepNewest));
		for (const { messageIndex, partIndex } of candidates) {
			if (size <= budget.maxCharacters) return;
			const message = working[messageIndex] as ModelMessage;
			const part = (message.content as unknown[])[partIndex] as ToolResultPart;
			const before = bodyLength(part);
			if (before <= smallOutput) continue;
			const pruned = withPrunedOutput(part, before);
			const content = [...(message.content as unknown[])];
			content[partIndex] = pruned;
			const replaced = { ...message, content } as ModelMessage;
			size += messageSize(replaced) - messageSize(message);
			working[messageIndex] = replaced;
			prunedToolOutputs += 1;
		}
	};

	pruneOutputs(budget.keepRecentToolOutputs);

	// Whole turns, oldest first, so every tool call keeps its result and vice versa.
	while (size > budget.maxCharacters) {
		const turnStarts = working.flatMap((message, index) =>
			message.role === 'user' ? [index] : []
		);
		const lastUser = turnStarts.at(-1);
		if (lastUser === undefined || lastUser === 0) break;
		// Everything before the second user message (or before the last one) is the oldest turn.
		const cut = turnStarts.find((index) => index > 0) ?? lastUser;
		const dropped = working.slice(0, cut);
		working = working.slice(cut);
		droppedMessages += dropped.length;
		size -= totalSize(dropped);
	}

	// One long agentic turn can still be too big: prune all but the newest output.
	if (size > budget.maxCharacters) pruneOutputs(1);

	return { messages: working, prunedToolOutputs, droppedMessages, size };
}

function toolResultLocations(
	messages: readonly ModelMessage[]
): { messageIndex: number; partIndex: number }[] {
	const locations: { messageIndex: number; partIndex: number }[] = [];
	messages.forEach((message, messageIndex) => {
		if (
			(message.role !== 'tool' && message.role !== 'assistant') ||
			typeof message.content === 'string'
		)
			return;
		message.content.forEach((part, partIndex) => {
			if (part.type === 'tool-result') locations.push({ messageIndex, partIndex });
		});
	});
	return locations;
}

function bodyLength(part: ToolResultPart): number {
	const output = part.output;
	if (output.type === 'text' || output.type === 'error-text') return output.value.length;
	return JSON.stringify('value' in output ? output.value : output).length;
}

function withPrunedOutput(part: ToolResultPart, originalSize: number): ToolResultPart {
	const note = `[The output of this ${part.toolName} call (${originalSize.toLocaleString('en')} characters) was removed to keep the conversation within the context budget. Call the tool again if you need it.]`;
	const isError = part.output.type === 'error-text' || part.output.type === 'error-json';
	return { ...part, output: { type: isError ? 'error-text' : 'text', value: note } };
}

function messageSize(message: ModelMessage): number {
	return JSON.stringify(message).length;
}

function totalSize(messages: readonly ModelMessage[]): number {
	return messages.reduce((sum, message) => sum + messageSize(message), 0);
}
