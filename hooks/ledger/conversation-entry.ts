import { contentHash } from '../hashing/sha256.js';
import { canonicalJson } from './canonical-json.js';
import type {
	ConversationCut,
	ConversationEntryFields,
	ConversationRole,
	LedgerEventDraft
} from './ledger-event.js';
import { redactSecretText, redactSecretValue } from './secret-redaction.js';

/**
 * The limits of one conversation entry, enforced here (the one place entries are built):
 * - a text, a tool call's input or a tool result's output/error longer than `bodyBytes` of UTF-8
 *   (JSON bodies measured as their canonical JSON) keeps its first `bodyBytes` (JSON bodies as
 *   that much of their JSON text) and is named in `cut` by its full size and sha256;
 * - ids, tool names, model ids and session ids longer than `nameCharacters` are refused.
 */
export const conversationLimits = {
	bodyBytes: 16 * 1024,
	nameCharacters: 256
} as const;

export interface ConversationEntryInput {
	sessionId: string;
	role: ConversationRole;
	/** RFC 3339. */
	at: string;
	text?: string;
	toolCall?: { id: string; name: string; input: unknown };
	toolResult?: { id: string; ok: boolean; output?: unknown; error?: unknown };
	model?: string | null;
	usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | null;
	/** Secrets known to the caller (the configured API key): redacted wherever they appear. */
	knownSecrets?: readonly string[];
}

type ConversationDraft = Extract<LedgerEventDraft, { type: 'conversation-entry' }>;

/**
 * One conversation entry as a ledger draft: secrets redacted first (key-like strings and the
 * known ones, in every string of the entry), then bodies over the limit cut and named by hash.
 * Throws a clear error on an entry that does not fit its role (a user entry with a tool call,
 * a tool entry without a result), so a wrong caller is found at once, not by a grader.
 */
export async function conversationEntryDraft(
	input: ConversationEntryInput
): Promise<ConversationDraft> {
	const known = input.knownSecrets ?? [];
	const shape = checkShape(input);
	if (shape) throw new Error(`conversation entry: ${shape}`);
	const cut: NonNullable<ConversationEntryFields['cut']> = {};
	const draft: ConversationDraft = {
		type: 'conversation-entry',
		session_id: input.sessionId,
		role: input.role,
		at: input.at
	};
	if (input.text !== undefined) {
		const body = await limitText(redactSecretText(input.text, known));
		draft.text = body.value;
		if (body.cut) cut.text = body.cut;
	}
	if (input.toolCall) {
		const body = await limitValue(redactSecretValue(input.toolCall.input ?? {}, known));
		draft.tool_call = {
			id: redactSecretText(input.toolCall.id, known),
			name: input.toolCall.name,
			input: body.value
		};
		if (body.cut) cut.input = body.cut;
	}
	if (input.toolResult) {
		const result: NonNullable<ConversationEntryFields['tool_result']> = {
			id: redactSecretText(input.toolResult.id, known),
			ok: input.toolResult.ok
		};
		const field = input.toolResult.ok ? 'output' : 'error';
		const raw = input.toolResult.ok ? input.toolResult.output : input.toolResult.error;
		const body = await limitValue(redactSecretValue(raw ?? null, known) ?? null);
		result[field] = body.value;
		if (body.cut) cut[field] = body.cut;
		draft.tool_result = result;
	}
	if (input.model) draft.model = input.model;
	const usage = usageOf(input.usage);
	if (usage) draft.usage = usage;
	if (Object.keys(cut).length > 0) draft.cut = cut;
	return draft;
}

function checkShape(input: ConversationEntryInput): string | null {
	const names: [string, unknown][] = [
		['session id', input.sessionId],
		['model', input.model ?? ''],
		['tool call id', input.toolCall?.id ?? input.toolResult?.id ?? ''],
		['tool name', input.toolCall?.name ?? '']
	];
	for (const [label, value] of names) {
		if (typeof value !== 'string') return `the ${label} must be a string`;
		if (value.length > conversationLimits.nameCharacters)
			return `the ${label} is ${value.length} characters long; at most ${conversationLimits.nameCharacters} are recorded`;
	}
	if (input.sessionId === '') return 'the session id is empty';
	if (typeof input.at !== 'string' || Number.isNaN(Date.parse(input.at)))
		return 'the time must be an RFC 3339 timestamp';
	if (input.text !== undefined && typeof input.text !== 'string')
		return 'the text must be a string';
	switch (input.role) {
		case 'user':
			if (input.text === undefined || input.toolCall || input.toolResult)
				return 'a user entry holds a text and nothing else';
			return null;
		case 'assistant':
			if (input.toolResult) return 'an assistant entry holds no tool result';
			if (input.text === undefined && !input.toolCall)
				return 'an assistant entry holds a text or a tool call';
			if (input.toolCall && (!input.toolCall.id || !input.toolCall.name))
				return 'a tool call needs its id and name';
			return null;
		case 'tool':
			if (!input.toolResult || input.toolCall || input.text !== undefined)
				return 'a tool entry holds a tool result and nothing else';
			if (!input.toolResult.id) return 'a tool result needs the id of its call';
			return null;
		default:
			return `unknown role ${JSON.stringify(input.role)}`;
	}
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function limitText(text: string): Promise<{ value: string; cut?: ConversationCut }> {
	// Most texts are short: a UTF-8 text has at most 3 bytes per UTF-16 unit.
	if (text.length * 3 <= conversationLimits.bodyBytes) return { value: text };
	const bytes = encoder.encode(text);
	if (bytes.byteLength <= conversationLimits.bodyBytes) return { value: text };
	return {
		value: startOf(bytes, conversationLimits.bodyBytes),
		cut: { bytes: bytes.byteLength, sha256: await contentHash(bytes) }
	};
}

/** A JSON body: kept as it is under the limit; else the start of its canonical JSON text. */
async function limitValue(value: unknown): Promise<{ value: unknown; cut?: ConversationCut }> {
	const json = canonicalJson(value ?? null);
	if (json.length * 3 <= conversationLimits.bodyBytes) return { value: value ?? null };
	const bytes = encoder.encode(json);
	if (bytes.byteLength <= conversationLimits.bodyBytes) return { value: value ?? null };
	return {
		value: startOf(bytes, conversationLimits.bodyBytes),
		cut: { bytes: bytes.byteLength, sha256: await contentHash(bytes) }
	};
}

/** The longest start of `bytes` within `limit` that ends on a whole UTF-8 character. */
function startOf(bytes: Uint8Array, limit: number): string {
	let end = Math.min(limit, bytes.byteLength);
	// Back off continuation bytes (10xxxxxx) so no character is split.
	while (end > 0 && end < bytes.byteLength && ((bytes[end] as number) & 0xc0) === 0x80) end--;
	return decoder.decode(bytes.subarray(0, end));
}

function usageOf(
	usage: ConversationEntryInput['usage']
): ConversationEntryFields['usage'] | undefined {
	if (!usage) return undefined;
	const result: NonNullable<ConversationEntryFields['usage']> = {};
	const count = (value: unknown): value is number =>
		typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
	if (count(usage.inputTokens)) result.input_tokens = usage.inputTokens;
	if (count(usage.outputTokens)) result.output_tokens = usage.outputTokens;
	if (count(usage.totalTokens)) result.total_tokens = usage.totalTokens;
	return Object.keys(result).length > 0 ? result : undefined;
}
