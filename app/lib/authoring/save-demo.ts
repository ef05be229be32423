import type { AgentRuntime } from '../agent-runtime/agent-runtime.svelte.js';
import { modelIdOf } from '../agent/provider-settings.js';
import { downloadBytes } from '../workspace/file-transfer.js';
import { demoFromSession, type RecordedToolCall } from './demo-from-session.js';

/** Tool calls with their full input, from every session's conversation (AI SDK tool parts). */
export function toolCallsOf(
	conversations: readonly { parts?: readonly unknown[] }[]
): RecordedToolCall[] {
	const calls: RecordedToolCall[] = [];
	for (const message of conversations) {
		for (const part of message.parts ?? []) {
			const candidate = part as { type?: unknown; toolCallId?: unknown; input?: unknown };
			if (
				typeof candidate.type === 'string' &&
				candidate.type.startsWith('tool-') &&
				typeof candidate.toolCallId === 'string' &&
				candidate.input !== undefined
			) {
				calls.push({
					toolCallId: candidate.toolCallId,
					tool: candidate.type.slice('tool-'.length),
					input: candidate.input
				});
			}
		}
	}
	return calls;
}

/** "Save as demo": downloads demo.yaml; returns what could not be included, for the person. */
export async function saveDemo(agent: AgentRuntime): Promise<string[]> {
	const demo = await demoFromSession({
		events: agent.events,
		calls: toolCallsOf(agent.sessions.flatMap((session) => session.chat.messages)),
		blob: (hash) => agent.blob(hash),
		model: modelIdOf(agent.settings)
	});
	downloadBytes('demo.yaml', new TextEncoder().encode(demo.yaml), 'application/yaml');
	return demo.skipped;
}
