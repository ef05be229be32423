import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';

/**
 * Time travel over a ledger: the position is an index into the events; the workspace at a
 * position is every path's content hash after that event (from the latest snapshot and the
 * mutation records up to it). At a tampered export the last reachable position is the failing
 * record: it is shown, nothing after it is.
 */
export interface TimeTravel {
	/** Events reachable (up to and including the failing record). */
	length: number;
	/** True when the end is a failing record, not the ledger's end. */
	stoppedAtFailure: boolean;
}

export function timeTravelOf(events: readonly LedgerEvent[], stopSeq: number | null): TimeTravel {
	if (stopSeq === null) return { length: events.length, stoppedAtFailure: false };
	const position = events.findIndex((event) => event.seq === stopSeq);
	return position === -1
		? { length: events.length, stoppedAtFailure: false }
		: { length: position + 1, stoppedAtFailure: true };
}

/**
 * Events that only mark the bookkeeping of a call (its start and finish, which the decision,
 * the conversation and the changes around them already say) or a server's receipt: folded in
 * time travel unless the grader asks for every event. The failing record is never folded.
 */
export function isBookkeeping(event: LedgerEvent): boolean {
	return (
		event.type === 'tool-call-start' ||
		event.type === 'tool-call-finish' ||
		event.type === 'witness-receipt'
	);
}

/** The positions time travel steps through: every reachable one, or those not folded. */
export function visiblePositions(
	events: readonly LedgerEvent[],
	travel: TimeTravel,
	showEvery: boolean
): number[] {
	const positions: number[] = [];
	for (let position = 0; position < travel.length; position++) {
		const event = events[position] as LedgerEvent;
		const failing = travel.stoppedAtFailure && position === travel.length - 1;
		if (showEvery || failing || !isBookkeeping(event)) positions.push(position);
	}
	return positions;
}

/** The position after a key press (←/→ step, Home/End); null when the key is not ours. */
export function positionAfterKey(key: string, position: number, length: number): number | null {
	const last = Math.max(0, length - 1);
	switch (key) {
		case 'ArrowLeft':
			return Math.max(0, position - 1);
		case 'ArrowRight':
			return Math.min(last, position + 1);
		case 'Home':
			return 0;
		case 'End':
			return last;
		default:
			return null;
	}
}

/** Path → `sha256:` hash after the event at `position` (absent paths are not listed). */
export function workspaceAt(events: readonly LedgerEvent[], position: number): Map<string, string> {
	const tree = new Map<string, string>();
	for (let index = 0; index <= position && index < events.length; index++) {
		const event = events[index] as LedgerEvent;
		if (event.type === 'workspace-snapshot') {
			tree.clear();
			for (const [path, hash] of Object.entries(event.files ?? {})) tree.set(path, hash);
		} else if (event.type === 'mutation-record') {
			const metadata = event.trace?.metadata?.['dev.threadline'];
			for (const file of event.trace?.files ?? []) {
				if (!metadata || metadata.file_hash === null || metadata.operation === 'delete')
					tree.delete(file.path);
				else tree.set(file.path, metadata.file_hash);
			}
		}
	}
	return new Map([...tree].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)));
}

export interface EventView {
	seq: number;
	type: string;
	/** The session, and who: the model, a person, or the hooks. */
	who: string;
	intentId: string | null;
	/** What the hooks decided, in words, when this event is a decision or an outcome. */
	decided: string | null;
	/** The change of a mutation: path, lines, and the text when the tool's input carries it. */
	change: { path: string; operation: string; ranges: string; text: string | null } | null;
	summary: string;
	/** A conversation entry's text, or the tool input or result as sent and received. */
	said?: string;
}

/** What one event shows in time travel. `inputs` maps tool_call_id → the call's input. */
export function viewEvent(event: LedgerEvent, inputs: ReadonlyMap<string, unknown>): EventView {
	const base = { seq: event.seq, type: event.type, who: `session ${event.session_id}` };
	switch (event.type) {
		case 'mutation-record': {
			const metadata = event.trace.metadata['dev.threadline'];
			const file = event.trace.files[0];
			const contributor = file?.conversations[0]?.contributor;
			const who =
				contributor?.type === 'human'
					? `a person (session ${event.session_id})`
					: `${contributor?.model_id ?? 'AI'} (session ${event.session_id})`;
			const ranges = (file?.conversations ?? [])
				.flatMap((conversation) => conversation.ranges)
				.map((range) =>
					range.start_line === range.end_line
						? `line ${range.start_line}`
						: `lines ${range.start_line}–${range.end_line}`
				)
				.join(', ');
			return {
				...base,
				who,
				intentId: metadata.intent_id,
				decided: null,
				change: {
					path: file?.path ?? '?',
					operation: metadata.operation,
					ranges: ranges || 'no lines',
					text: changeText(metadata.tool_call_id ? inputs.get(metadata.tool_call_id) : undefined)
				},
				summary: `${metadata.operation === 'delete' ? 'deleted' : 'changed'} ${file?.path ?? '?'} (${metadata.mutation_class}${metadata.declared_mutation_class && metadata.declared_mutation_class !== metadata.mutation_class ? `, declared ${metadata.declared_mutation_class}` : ''})`
			};
		}
		case 'tool-decision':
			return {
				...base,
				intentId: event.intent_id ?? null,
				decided: `${event.decision}${event.code ? ` (${event.code})` : ''} by ${event.hooks.join(', ') || 'the pipeline'}${event.message ? `: ${event.message}` : ''}`,
				change: null,
				summary: `hooks on ${event.tool}`
			};
		case 'approval-response':
			return {
				...base,
				who:
					event.by === 'human'
						? `a person (session ${event.session_id})`
						: `${event.by} (session ${event.session_id})`,
				intentId: event.intent_id ?? null,
				decided: `${event.approved ? 'approved' : 'rejected'}${event.reason ? `: ${event.reason}` : ''}`,
				change: null,
				summary: `approval of ${event.tool}`
			};
		case 'tool-call-finish':
			return {
				...base,
				intentId: event.intent_id ?? null,
				decided: event.ok ? 'ok' : `error ${event.code ?? ''}`.trim(),
				change: null,
				summary: `${event.tool} finished`
			};
		case 'conversation-entry': {
			const who =
				event.role === 'user'
					? `the learner (session ${event.session_id})`
					: `${event.model ?? 'the model'} (session ${event.session_id})`;
			const summary =
				event.role === 'user'
					? 'the learner said'
					: event.tool_call
						? `the model called ${event.tool_call.name} (${event.tool_call.id})`
						: event.tool_result
							? `the model received ${event.tool_result.ok ? 'the result' : 'an error'} of ${event.tool_result.id}`
							: 'the model said';
			const text =
				event.text ??
				JSON.stringify(
					event.tool_call?.input ?? event.tool_result?.output ?? event.tool_result?.error ?? null,
					null,
					1
				);
			return {
				...base,
				who,
				intentId: null,
				decided: null,
				change: null,
				summary,
				said: event.cut
					? `${text}\n… (cut: the whole was ${Object.values(event.cut)[0]?.bytes ?? '?'} bytes)`
					: text
			};
		}
		case 'tool-call-start':
			return {
				...base,
				intentId: null,
				decided: null,
				change: null,
				summary: `called ${event.tool}`
			};
		case 'intent-select':
		case 'intent-status-change':
		case 'scope-expand':
		case 'lesson-record':
			return {
				...base,
				intentId: event.intent_id,
				decided: null,
				change: null,
				summary:
					event.type === 'intent-select'
						? `selected ${event.intent_id}`
						: event.type === 'intent-status-change'
							? `${event.intent_id} ${event.from} → ${event.to}`
							: event.type === 'scope-expand'
								? `scope of ${event.intent_id} + ${event.paths.join(', ')}`
								: `lesson: ${event.lesson}`
			};
		default:
			return { ...base, intentId: null, decided: null, change: null, summary: event.type };
	}
}

/** The text a tool call wrote, when its input says it (write_to_file content, apply_diff blocks). */
function changeText(input: unknown): string | null {
	if (typeof input !== 'object' || input === null) return null;
	const record = input as Record<string, unknown>;
	if (typeof record.content === 'string') return record.content;
	if (typeof record.search === 'string' && typeof record.replace === 'string')
		return `- ${record.search.split('\n').join('\n- ')}\n+ ${record.replace.split('\n').join('\n+ ')}`;
	if (typeof record.command === 'string') return `$ ${record.command}`;
	return null;
}

export function callInputs(events: readonly LedgerEvent[]): Map<string, unknown> {
	const inputs = new Map<string, unknown>();
	for (const event of events)
		if (event.type === 'tool-call-start') inputs.set(event.tool_call_id, event.input);
	return inputs;
}
