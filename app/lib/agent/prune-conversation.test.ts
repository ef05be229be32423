import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { pruneConversation, type ContextBudget } from './prune-conversation.js';

let callNumber = 0;

function user(text: string): ModelMessage {
	return { role: 'user', content: text };
}

/** An assistant tool call and its result, as convertToModelMessages makes them. */
function toolRound(toolName: string, output: string, error = false): ModelMessage[] {
	const toolCallId = `call_${++callNumber}`;
	return [
		{
			role: 'assistant',
			content: [{ type: 'tool-call', toolCallId, toolName, input: { path: 'a.ts' } }]
		},
		{
			role: 'tool',
			content: [
				{
					type: 'tool-result',
					toolCallId,
					toolName,
					output: error ? { type: 'error-text', value: output } : { type: 'text', value: output }
				}
			]
		}
	];
}

const size = (messages: ModelMessage[]) =>
	messages.reduce((sum, message) => sum + JSON.stringify(message).length, 0);

function outputsOf(messages: ModelMessage[]): string[] {
	return messages.flatMap((message) =>
		message.role === 'tool'
			? message.content.flatMap((part) =>
					part.type === 'tool-result' && 'value' in part.output ? [String(part.output.value)] : []
				)
			: []
	);
}

describe('pruneConversation', () => {
	it('returns the conversation unchanged when it fits', () => {
		const messages = [user('hi'), ...toolRound('read_file', 'x'.repeat(1000))];
		const result = pruneConversation(messages, {
			maxCharacters: 100_000,
			keepRecentToolOutputs: 2
		});
		expect(result.messages).toEqual(messages);
		expect(result.prunedToolOutputs).toBe(0);
		expect(result.droppedMessages).toBe(0);
		expect(result.size).toBe(size(messages));
	});

	it('first replaces the bodies of old tool outputs, oldest first, keeping the newest whole', () => {
		const big = (label: string) => `${label}:${'y'.repeat(5000)}`;
		const messages = [
			user('do it'),
			...toolRound('read_file', big('one')),
			...toolRound('read_file', big('two')),
			...toolRound('search_files', big('three')),
			...toolRound('read_file', big('four'))
		];
		const budget: ContextBudget = {
			maxCharacters: size(messages) - 6000,
			keepRecentToolOutputs: 2
		};
		const result = pruneConversation(messages, budget);
		expect(result.droppedMessages).toBe(0);
		expect(result.prunedToolOutputs).toBe(2);
		const outputs = outputsOf(result.messages);
		expect(outputs[0]).toMatch(
			/^\[The output of this read_file call \(5,004 characters\) was removed/
		);
		expect(outputs[1]).toMatch(/was removed/);
		expect(outputs[2]).toBe(big('three'));
		expect(outputs[3]).toBe(big('four'));
		expect(result.size).toBeLessThanOrEqual(budget.maxCharacters);
		expect(result.size).toBe(size(result.messages));
	});

	it('stops pruning as soon as the conversation fits', () => {
		const messages = [
			user('do it'),
			...toolRound('read_file', 'a'.repeat(5000)),
			...toolRound('read_file', 'b'.repeat(5000)),
			...toolRound('read_file', 'c'.repeat(5000))
		];
		const result = pruneConversation(messages, {
			maxCharacters: size(messages) - 100,
			keepRecentToolOutputs: 0
		});
		expect(result.prunedToolOutputs).toBe(1);
		expect(outputsOf(result.messages)[1]).toBe('b'.repeat(5000));
	});

	it('keeps errors errors and leaves small outputs alone', () => {
		const messages = [
			user('go'),
			...toolRound(
				'write_to_file',
				`{"status":"error","code":"scope_violation",${'"m":"'.padEnd(3000, 'z')}"}`,
				true
			),
			...toolRound('list_files', 'small'),
			...toolRound('read_file', 'r'.repeat(4000))
		];
		const result = pruneConversation(messages, { maxCharacters: 2000, keepRecentToolOutputs: 1 });
		const tool = result.messages.find((message) => message.role === 'tool');
		const part = tool?.role === 'tool' ? tool.content[0] : undefined;
		expect(part?.type === 'tool-result' && part.output.type).toBe('error-text');
		expect(outputsOf(result.messages)).toContain('small');
	});

	it('then drops whole old turns, never the latest user message', () => {
		const messages = [
			user('first task'),
			...toolRound('read_file', 'x'.repeat(3000)),
			{ role: 'assistant', content: 'Done with the first.' } as ModelMessage,
			user('second task'),
			{ role: 'assistant', content: 'z'.repeat(1000) } as ModelMessage,
			user('third task: the latest'),
			{ role: 'assistant', content: 'Working on it.' } as ModelMessage
		];
		const result = pruneConversation(messages, { maxCharacters: 700, keepRecentToolOutputs: 0 });
		expect(result.droppedMessages).toBe(6);
		expect(result.messages[0]).toEqual(user('third task: the latest'));
		expect(result.messages).toHaveLength(2);
	});

	it('never leaves a tool result without its call (or the reverse)', () => {
		const messages = [
			...toolRound('list_files', 'l'.repeat(2000)),
			user('now read it'),
			...toolRound('read_file', 'r'.repeat(200))
		];
		const result = pruneConversation(messages, { maxCharacters: 900, keepRecentToolOutputs: 5 });
		expect(result.messages[0]?.role).toBe('user');
		const calls = result.messages.flatMap((message) =>
			message.role === 'assistant' && typeof message.content !== 'string'
				? message.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []))
				: []
		);
		const results = result.messages.flatMap((message) =>
			message.role === 'tool'
				? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : []))
				: []
		);
		expect(results).toEqual(calls);
	});

	it('prunes all but the newest output of one long agentic turn when that is all there is', () => {
		const messages = [
			user('build it'),
			...toolRound('read_file', 'a'.repeat(3000)),
			...toolRound('read_file', 'b'.repeat(3000)),
			...toolRound('read_file', 'c'.repeat(3000))
		];
		const result = pruneConversation(messages, { maxCharacters: 4000, keepRecentToolOutputs: 3 });
		expect(result.droppedMessages).toBe(0);
		expect(result.prunedToolOutputs).toBe(2);
		expect(outputsOf(result.messages)[2]).toBe('c'.repeat(3000));
		expect(result.messages[0]).toEqual(user('build it'));
	});

	it('does not modify the messages it was given', () => {
		const messages = [user('go'), ...toolRound('read_file', 'q'.repeat(5000))];
		const copy = structuredClone(messages);
		pruneConversation(messages, { maxCharacters: 100, keepRecentToolOutputs: 0 });
		expect(messages).toEqual(copy);
	});
});
