import type { AgentUIMessage } from '../agent/agent-tools.js';

export type RenderedPart =
	| { kind: 'text'; text: string }
	| {
			kind: 'tool';
			tool: string;
			toolCallId: string;
			/** What the call is about, in a few words: the path, the command or the intent. */
			subject: string;
			status: 'running' | 'done' | 'blocked';
			/** The ToolError code when the call was blocked or failed. */
			code: string | null;
			message: string | null;
			input: unknown;
			output: unknown;
	  };

/** A chat message's parts as the chat panel shows them: text, and one compact card per tool call. */
export function renderedParts(message: AgentUIMessage): RenderedPart[] {
	const parts: RenderedPart[] = [];
	for (const part of message.parts) {
		if (part.type === 'text') {
			if (part.text.trim()) parts.push({ kind: 'text', text: part.text });
			continue;
		}
		if (!part.type.startsWith('tool-')) continue;
		const toolPart = part as unknown as {
			type: string;
			toolCallId: string;
			state: string;
			input?: unknown;
			output?: unknown;
			errorText?: string;
		};
		const error = toolPart.state === 'output-error' ? parseToolError(toolPart.errorText) : null;
		parts.push({
			kind: 'tool',
			tool: toolPart.type.slice('tool-'.length),
			toolCallId: toolPart.toolCallId,
			subject: subjectOf(toolPart.input),
			status:
				toolPart.state === 'output-available'
					? 'done'
					: toolPart.state === 'output-error'
						? 'blocked'
						: 'running',
			code: error?.code ?? null,
			message: error?.message ?? null,
			input: toolPart.input,
			output: toolPart.output
		});
	}
	return parts;
}

function subjectOf(input: unknown): string {
	if (typeof input !== 'object' || input === null) return '';
	const record = input as Record<string, unknown>;
	for (const key of ['path', 'command', 'intent_id', 'pattern', 'lesson']) {
		const value = record[key];
		if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 80)}…` : value;
	}
	return '';
}

function parseToolError(text: string | undefined): { code: string; message: string } | null {
	if (!text) return null;
	try {
		const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
		if (typeof parsed.code === 'string')
			return { code: parsed.code, message: String(parsed.message ?? '') };
	} catch {
		// Not a ToolError: an SDK-level error text.
	}
	return { code: 'error', message: text };
}

/**
 * A tool call's input as fields a person reads: strings as they are (a file's content with its
 * real line breaks and tabs, not JSON's `\n\t`), other values as compact JSON.
 */
export function readableInput(input: unknown): { key: string; value: string }[] {
	if (typeof input !== 'object' || input === null || Array.isArray(input))
		return [{ key: 'input', value: typeof input === 'string' ? input : JSON.stringify(input) }];
	return Object.entries(input as Record<string, unknown>).map(([key, value]) => ({
		key,
		value: typeof value === 'string' ? value : JSON.stringify(value)
	}));
}
