import { parseIntents } from '../hooks/intents/parse-intents.js';
import type { Intent } from '../hooks/intents/intent.js';
import type { MutationClass } from '../hooks/ledger/agent-trace-record.js';
import type { LedgerEvent, LedgerEventDraft } from '../hooks/ledger/ledger-event.js';
import { MemoryLedger } from '../hooks/ledger/memory-ledger.js';
import { buildTraceRecord, type TraceAuthor } from '../hooks/pipeline/build-trace-record.js';
import type { Clock } from '../hooks/pipeline/ports.js';
import { summarizeInput } from '../hooks/pipeline/summarize-input.js';
import type { FileChange } from '../hooks/tools/sandbox-ports.js';
import { generateIntentsYaml, intentIdOf, isSelectable } from './governance-workspace.js';

/**
 * A long session history as the pipeline records it: per allowed file change the four events
 * tool-call-start, tool-decision, mutation-record (a real Agent Trace record from
 * buildTraceRecord over real before/after content) and tool-call-finish; now and then a denied
 * call (start, decision, finish). About a quarter of the events are mutation records.
 */
export interface AuditLedger {
	events: readonly LedgerEvent[];
	mutations: number;
	intentsYaml: string;
	intents: Intent[];
}

export interface AuditLedgerOptions {
	/** Exact number of events; at least 12 so the call mix can land on it. */
	events: number;
	/** How many intents the sessions work under. */
	intentCount?: number;
	/** Called every `progressEvery` events with the count built so far. */
	onProgress?: (built: number) => void;
	progressEvery?: number;
}

/** Timestamps that advance 350 ms per event, like a brisk agent. */
export function steadyClock(startIso = '2026-11-21T09:00:00.000Z', stepMs = 350): Clock {
	const startMs = Date.parse(startIso);
	let readings = 0;
	return {
		nowIso: () => new Date(startMs + stepMs * readings++).toISOString(),
		nowMs: () => startMs + stepMs * readings
	};
}

/** A v4-shaped UUID from a counter: valid for the trace schema, unique, reproducible. */
export function counterUuid(counter: number): string {
	const hex = counter.toString(16).padStart(12, '0');
	return `5e1f0000-0000-4000-8000-${hex}`;
}

const sessions = [
	{ id: 'architect', modelId: 'anthropic/claude-sonnet-4' },
	{ id: 'builder', modelId: 'openai/gpt-4o' },
	{ id: 'reviewer', modelId: 'google/gemini-2.5-pro' }
];
const allowHooks = ['protected-path', 'gatekeeper', 'scope', 'stale-file', 'approval-policy'];

/** Source with `functions` small exported functions; the parameter name lets a call rename it. */
function sourceOf(path: string, functions: number, parameter: string): string {
	const lines = [`// ${path}`, `import { log } from '../log.js';`, ''];
	for (let number = 0; number < functions; number++) {
		lines.push(
			`export function step${number}(${parameter}: number): number {`,
			`\tlog('step ${number}', ${parameter});`,
			`\treturn ${parameter} * ${number + 2};`,
			'}',
			''
		);
	}
	return lines.join('\n');
}

interface FileState {
	functions: number;
	parameter: string;
}

type CallPlan = 'write' | 'refactor' | 'delete' | 'denied';

/**
 * Allowed changes take four events, denied calls three. In the last stretch denied calls also
 * steer the total onto the exact count: each one shifts the remainder modulo 4 by one, so at most
 * three (nine events) are needed, which the stretch of 20+ events always has room for.
 */
function planOf(callNumber: number, remaining: number): CallPlan {
	const lastStretch = remaining < 24;
	if (lastStretch ? remaining % 4 !== 0 : callNumber % 16 === 15) return 'denied';
	const slot = callNumber % 10;
	return slot <= 5 ? 'write' : slot <= 8 ? 'refactor' : 'delete';
}

export async function buildAuditLedger(options: AuditLedgerOptions): Promise<AuditLedger> {
	if (!Number.isInteger(options.events) || options.events < 12)
		throw new Error(`events must be an integer of at least 12, got ${options.events}`);
	const intentCount = options.intentCount ?? 40;
	const intentsYaml = generateIntentsYaml(intentCount);
	const parsed = parseIntents(intentsYaml);
	if (!parsed.ok) throw new Error('the generated intents do not parse');
	const workingIntents: number[] = [];
	for (let number = 1; number <= intentCount; number++)
		if (isSelectable(number)) workingIntents.push(number);

	const clock = steadyClock();
	const ledger = new MemoryLedger({ clock });
	const encoder = new TextEncoder();
	const files = new Map<string, FileState>();
	const progressEvery = options.progressEvery ?? 10_000;
	let built = 0;
	let nextProgress = progressEvery;
	let mutations = 0;
	let uuidCounter = 0;

	const append = async (drafts: LedgerEventDraft[]) => {
		await ledger.append(drafts);
		built += drafts.length;
		if (built >= nextProgress) {
			options.onProgress?.(built);
			nextProgress += progressEvery;
		}
	};

	// Opening: the workspace snapshot and each session checking out its first intent (4 events).
	await append([{ type: 'workspace-snapshot', session_id: 'workspace', files: {} }]);
	for (const [position, session] of sessions.entries()) {
		const intentNumber = workingIntents[position % workingIntents.length] as number;
		await append([
			{
				type: 'intent-select',
				session_id: session.id,
				intent_id: intentIdOf(intentNumber),
				tool_call_id: `select-${position}`
			}
		]);
	}

	for (let callNumber = 0; built < options.events; callNumber++) {
		const remaining = options.events - built;
		if (remaining < 3)
			throw new Error(`cannot land on ${options.events} events (${remaining} left)`);
		const session = sessions[callNumber % sessions.length] as (typeof sessions)[number];
		// Each session moves to another intent every few hundred calls.
		const intentNumber = workingIntents[
			(Math.floor(callNumber / 600) + (callNumber % sessions.length)) % workingIntents.length
		] as number;
		const intentId = intentIdOf(intentNumber);
		const toolCallId = `call-${callNumber}`;
		// A handful of files per intent, so most calls revisit a file: edits, renames and deletions.
		const path = `src/module-${intentNumber}/file-${Math.floor(callNumber / sessions.length) % 6}.ts`;
		let plan = planOf(callNumber, remaining);
		const existing = files.get(path);
		if (!existing && (plan === 'refactor' || plan === 'delete')) plan = 'write';

		if (plan === 'denied') {
			const outside = `src/module-${intentNumber + 1000}/index.ts`;
			const message = `Scope Violation: ${intentId} is not authorized to edit ${outside}. Request scope expansion.`;
			await append([
				{
					type: 'tool-call-start',
					session_id: session.id,
					tool: 'write_to_file',
					tool_call_id: toolCallId,
					input: summarizeInput({ path: outside, content: sourceOf(outside, 2, 'input') })
				},
				{
					type: 'tool-decision',
					session_id: session.id,
					tool: 'write_to_file',
					tool_call_id: toolCallId,
					decision: 'deny',
					hooks: ['protected-path', 'gatekeeper', 'scope'],
					code: 'scope_violation',
					message,
					intent_id: intentId
				},
				{
					type: 'tool-call-finish',
					session_id: session.id,
					tool: 'write_to_file',
					tool_call_id: toolCallId,
					ok: false,
					code: 'scope_violation',
					intent_id: intentId
				}
			]);
			continue;
		}

		const before = existing ? sourceOf(path, existing.functions, existing.parameter) : null;
		let after: string | null;
		let tool: string;
		let input: Record<string, unknown>;
		let declaredClass: MutationClass;
		if (plan === 'delete') {
			after = null;
			tool = 'delete_file';
			input = { path, intent_id: intentId };
			declaredClass = 'INTENT_EVOLUTION';
			files.delete(path);
		} else if (plan === 'refactor' && existing) {
			// A consistent local rename: the same behaviour in a new shape.
			const parameter = existing.parameter === 'input' ? 'value' : 'input';
			after = sourceOf(path, existing.functions, parameter);
			tool = 'apply_diff';
			input = { path, search: existing.parameter, replace: parameter, intent_id: intentId };
			declaredClass = 'AST_REFACTOR';
			files.set(path, { functions: existing.functions, parameter });
		} else {
			// Files grow by a function per write and start over when they get long.
			const functions = existing && existing.functions < 12 ? existing.functions + 1 : 1;
			const parameter = existing?.parameter ?? 'input';
			after = sourceOf(path, functions, parameter);
			tool = 'write_to_file';
			input = { path, content: after, intent_id: intentId };
			declaredClass = 'INTENT_EVOLUTION';
			files.set(path, { functions, parameter });
		}
		const change: FileChange = {
			path,
			type: after === null ? 'deleted' : before === null ? 'created' : 'modified',
			before: before === null ? null : encoder.encode(before),
			after: after === null ? null : encoder.encode(after)
		};
		const author: TraceAuthor = {
			sessionId: session.id,
			contributor: 'ai',
			modelId: session.modelId,
			intentId,
			tool,
			toolCallId,
			declaredClass
		};
		const trace = await buildTraceRecord({
			change,
			author,
			id: counterUuid(++uuidCounter),
			timestamp: clock.nowIso(),
			toolVersion: '0.1.0'
		});
		// As ToolPipeline commits: start, decision and the record in one append, the finish after.
		await append([
			{
				type: 'tool-call-start',
				session_id: session.id,
				tool,
				tool_call_id: toolCallId,
				input: summarizeInput(input)
			},
			{
				type: 'tool-decision',
				session_id: session.id,
				tool,
				tool_call_id: toolCallId,
				decision: 'allow',
				hooks: allowHooks,
				intent_id: intentId
			},
			{ type: 'mutation-record', session_id: session.id, trace }
		]);
		mutations++;
		await append([
			{
				type: 'tool-call-finish',
				session_id: session.id,
				tool,
				tool_call_id: toolCallId,
				ok: true,
				intent_id: intentId
			}
		]);
	}

	return {
		events: await ledger.events(),
		mutations,
		intentsYaml,
		intents: parsed.document.intents
	};
}
