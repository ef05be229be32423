import { stringify } from 'yaml';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';

/** A tool call as the conversation holds it: the full input (the ledger keeps a summary). */
export interface RecordedToolCall {
	toolCallId: string;
	tool: string;
	input: unknown;
}

type DemoStep =
	| {
			call: string;
			input: unknown;
			session: string;
			approve?: boolean | { approved: boolean; reason?: string };
			expect: string;
	  }
	| { human_edit: { path: string; content: string | null } }
	| { say: string; session?: string }
	| { user: string; session?: string };

/**
 * "Save as demo": a session's ledger as a replay script (`demo.yaml`). Calls come in the order
 * they finished, with the human's approval answers and, as `expect`, what actually happened, so
 * `threadline replay` re-runs the session and fails if any step ends differently. A person's
 * edits become `human_edit` steps with the content they saved (from the ledger's content blobs).
 * Calls whose full input is unknown (a summarised input) are left out with a note, never guessed.
 * The conversation comes too (issue 31): the learner's messages as `user` steps and the model's
 * texts as `say` steps, in ledger order; a call's full input is also read from its conversation
 * entry (the call as the model sent it) when the page no longer holds it.
 */
export async function demoFromSession(options: {
	events: readonly LedgerEvent[];
	calls: readonly RecordedToolCall[];
	blob: (hash: string) => Promise<Uint8Array | null>;
	model: string;
}): Promise<{ yaml: string; steps: number; skipped: string[] }> {
	const inputs = new Map(options.calls.map((call) => [call.toolCallId, call]));
	const started = new Map<string, { session: string; tool: string; input: unknown }>();
	const answers = new Map<string, { approved: boolean; reason?: string }>();
	const steps: DemoStep[] = [];
	const skipped: string[] = [];
	const sessions = new Map<string, string>();
	const decoder = new TextDecoder();
	const sentInputs = new Map<string, unknown>();
	for (const event of options.events) {
		if (event.type === 'conversation-entry') {
			if (event.tool_call && !event.cut?.input)
				sentInputs.set(event.tool_call.id, event.tool_call.input);
			if (event.text === undefined || event.role === 'tool') continue;
			if (event.cut?.text)
				skipped.push(
					`the ${event.role === 'user' ? 'learner message' : 'model text'} at seq ${event.seq}: only its first ${event.text.length} characters are recorded`
				);
			steps.push(
				event.role === 'user'
					? { user: event.text, session: event.session_id }
					: { say: event.text, session: event.session_id }
			);
		} else if (event.type === 'tool-call-start') {
			const recorded = inputs.get(event.tool_call_id);
			const sent = sentInputs.get(event.tool_call_id);
			started.set(event.tool_call_id, {
				session: event.session_id,
				tool: event.tool,
				input: recorded?.input ?? sent ?? (isComplete(event.input) ? event.input : undefined)
			});
		} else if (event.type === 'approval-response') {
			answers.set(event.tool_call_id, {
				approved: event.approved,
				...(event.reason ? { reason: event.reason } : {})
			});
		} else if (event.type === 'tool-call-finish') {
			const start = started.get(event.tool_call_id);
			if (!start) continue;
			if (start.input === undefined) {
				skipped.push(`${event.tool} (${event.tool_call_id}): its full input is not known`);
				continue;
			}
			const answer = answers.get(event.tool_call_id);
			sessions.set(start.session, start.session);
			steps.push({
				call: start.tool,
				input: start.input,
				session: start.session,
				...(answer ? { approve: answer.reason ? answer : answer.approved } : {}),
				expect: event.ok ? 'ok' : (event.code ?? 'hook_failed')
			});
		} else if (event.type === 'mutation-record') {
			const meta = event.trace.metadata['dev.threadline'];
			const contributor = event.trace.files[0]?.conversations[0]?.contributor.type;
			const path = event.trace.files[0]?.path;
			if (contributor !== 'human' || !path) continue;
			const hash = meta.file_hash;
			if (hash === null || hash === undefined) {
				steps.push({ human_edit: { path, content: null } });
				continue;
			}
			const bytes = await options.blob(hash);
			if (bytes === null) {
				skipped.push(`the human edit of ${path}: its content is not stored`);
				continue;
			}
			steps.push({ human_edit: { path, content: decoder.decode(bytes) } });
		}
	}
	if (!steps.some((step) => 'call' in step || 'human_edit' in step))
		steps.push({ say: 'This session recorded no tool calls.' });
	const script = { model: options.model, steps };
	return {
		yaml: `# Saved from a session with ${options.model}. Re-run: npx threadline replay demo.yaml --workspace <folder>\n${stringify(script, { lineWidth: 0 })}`,
		steps: steps.length,
		skipped
	};
}

/** The ledger shortens long strings to "… (N characters)": such an input cannot be replayed. */
function isComplete(input: unknown): boolean {
	return !JSON.stringify(input ?? null).includes('characters)');
}
