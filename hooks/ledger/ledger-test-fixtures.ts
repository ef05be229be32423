/**
 * Builders shared by the ledger's tests: a stepping clock, trace-record drafts computed from real
 * before/after content, and a ~20-event mixed ledger with its final workspace. Only tests import
 * this file.
 */
import type {
	MutationClass,
	TraceContributor,
	TraceRange,
	UnsealedTraceRecord
} from './agent-trace-record.js';
import type { LedgerEvent, LedgerEventDraft } from './ledger-event.js';
import { contentHash, hashLines } from '../hashing/sha256.js';
import { splitLines } from '../hashing/text-encoding.js';
import { exportOrchestration } from './export.js';
import { LedgerChain } from './ledger-chain.js';
import { MemoryLedger } from './memory-ledger.js';
import type { Clock } from '../pipeline/ports.js';

export type MutationDraft = Extract<LedgerEventDraft, { type: 'mutation-record' }>;

/** A clock that moves one second per reading, so timestamps are distinct and predictable. */
export function steppingClock(startMs = Date.UTC(2026, 10, 21, 12, 0, 0)): Clock {
	let readings = 0;
	return {
		nowIso: () => new Date(startMs + 1000 * readings++).toISOString(),
		nowMs: () => startMs + 1000 * readings
	};
}

/** The changed lines of `after` (1-based, inclusive) by common prefix/suffix, or null. */
export function changedLines(before: string | null, after: string): TraceRange[] | null {
	const oldLines = before === null ? [] : splitLines(before);
	const newLines = splitLines(after);
	let prefix = 0;
	while (
		prefix < oldLines.length &&
		prefix < newLines.length &&
		oldLines[prefix] === newLines[prefix]
	) {
		prefix++;
	}
	let suffix = 0;
	while (
		suffix < oldLines.length - prefix &&
		suffix < newLines.length - prefix &&
		oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
	) {
		suffix++;
	}
	const start = prefix + 1;
	const end = newLines.length - suffix;
	return end >= start ? [{ start_line: start, end_line: end, content_hash: '' }] : null;
}

export interface TraceDraftInput {
	id: string;
	path: string;
	before: string | null;
	/** `null` for a deletion. */
	after: string | null;
	sessionId?: string;
	intentId?: string | null;
	mutationClass?: MutationClass;
	declaredMutationClass?: MutationClass | null;
	tool?: string;
	toolCallId?: string | null;
	contributor?: TraceContributor;
	timestamp?: string;
}

/** A `mutation-record` draft whose ranges and hashes match the given content. */
export async function buildMutationDraft(input: TraceDraftInput): Promise<MutationDraft> {
	const sessionId = input.sessionId ?? 'session-1';
	const intentId = input.intentId === undefined ? 'INT-001' : input.intentId;
	const ranges: TraceRange[] = [];
	if (input.after !== null) {
		for (const range of changedLines(input.before, input.after) ?? []) {
			const lines = splitLines(input.after).slice(range.start_line - 1, range.end_line);
			ranges.push({ ...range, content_hash: await hashLines(lines) });
		}
	}
	const trace: UnsealedTraceRecord = {
		version: '0.1.0',
		id: input.id,
		timestamp: input.timestamp ?? '2026-11-21T12:00:00.000Z',
		tool: { name: 'threadline', version: '0.1.0' },
		files: [
			{
				path: input.path,
				conversations: [
					{
						url: `urn:threadline:session:${sessionId}`,
						contributor: input.contributor ?? { type: 'ai', model_id: 'openai/gpt-4o' },
						ranges,
						related:
							intentId === null
								? []
								: [
										{
											type: 'specification',
											url: `urn:threadline:intent:${intentId}`,
											value: intentId
										}
									]
					}
				]
			}
		],
		metadata: {
			'dev.threadline': {
				intent_id: intentId,
				mutation_class: input.mutationClass ?? 'INTENT_EVOLUTION',
				declared_mutation_class:
					input.declaredMutationClass === undefined
						? (input.mutationClass ?? 'INTENT_EVOLUTION')
						: input.declaredMutationClass,
				tool: input.tool ?? (input.after === null ? 'delete_file' : 'write_to_file'),
				tool_call_id: input.toolCallId === undefined ? 'call-1' : input.toolCallId,
				session_id: sessionId,
				operation: input.after === null ? 'delete' : 'write',
				file_hash: input.after === null ? null : await contentHash(input.after)
			}
		}
	};
	return { type: 'mutation-record', session_id: sessionId, trace };
}

/** A v4-shaped UUID whose last digits are `n`, so fixtures read well and stay valid. */
export function fixtureUuid(n: number): string {
	return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export interface MixedLedger {
	ledger: MemoryLedger;
	events: readonly LedgerEvent[];
	/** The workspace after all the ledger's changes, as an export would carry it. */
	workspace: Map<string, Uint8Array>;
}

const encoder = new TextEncoder();

/** 23 events of every kind, appended one by one and in batches, with a matching workspace. */
/** The `active_intents.yaml` the fixture's starting snapshot records. */
export const fixtureIntentsYaml = 'active_intents: []\n';

export async function buildMixedLedger(clock: Clock = steppingClock()): Promise<MixedLedger> {
	const readme = '# Demo\n\nA scenario.\n';
	const login = 'export function login(user) {\n\treturn check(user);\n}\n';
	const legacy = 'module.exports = {};\n';
	const jwtFirst = 'export function sign(payload) {\n\treturn encode(payload);\n}\n';
	const loginRefactored = 'export function login(account) {\n\treturn check(account);\n}\n';
	const readmeEdited = '# Demo\n\nA scenario about JWT.\n';
	const jwtSecond =
		'export function sign(payload) {\n\treturn encode(payload, secret());\n}\n\nexport const algorithm = "HS256";\n';
	const session = 'session-1';
	const base = { session_id: session };
	const ledger = new MemoryLedger({ clock });

	await ledger.append([
		{
			...base,
			type: 'workspace-snapshot',
			files: {
				'README.md': await contentHash(readme),
				'src/auth/login.ts': await contentHash(login),
				'src/legacy.ts': await contentHash(legacy),
				// The intents file the fixtures' exports carry, so verify can check it.
				'.orchestration/active_intents.yaml': await contentHash(fixtureIntentsYaml)
			},
			// No AGENT.md at the start: verify recomputes it from the lessons alone.
			texts: {}
		}
	]);
	await ledger.append([
		{ ...base, type: 'intent-select', intent_id: 'INT-001', tool_call_id: 'call-0' }
	]);
	await ledger.append([
		{
			...base,
			type: 'tool-call-start',
			tool: 'write_to_file',
			tool_call_id: 'call-1',
			input: { path: 'src/auth/jwt.ts' }
		},
		{
			...base,
			type: 'tool-decision',
			tool: 'write_to_file',
			tool_call_id: 'call-1',
			decision: 'allow',
			hooks: ['gatekeeper', 'scope'],
			intent_id: 'INT-001'
		}
	]);
	await ledger.append([
		await buildMutationDraft({
			id: fixtureUuid(1),
			path: 'src/auth/jwt.ts',
			before: null,
			after: jwtFirst,
			toolCallId: 'call-1'
		}),
		{
			...base,
			type: 'tool-call-finish',
			tool: 'write_to_file',
			tool_call_id: 'call-1',
			ok: true,
			intent_id: 'INT-001'
		}
	]);
	await ledger.append([
		{
			...base,
			type: 'tool-call-start',
			tool: 'apply_diff',
			tool_call_id: 'call-2',
			input: { path: 'src/auth/login.ts', diff: '…' }
		},
		{
			...base,
			type: 'approval-request',
			tool: 'apply_diff',
			tool_call_id: 'call-2',
			hooks: ['approval'],
			reasons: ['edits an existing file'],
			intent_id: 'INT-001'
		}
	]);
	await ledger.append([
		{
			...base,
			type: 'approval-response',
			tool: 'apply_diff',
			tool_call_id: 'call-2',
			approved: true,
			by: 'human',
			intent_id: 'INT-001'
		},
		{
			...base,
			type: 'tool-decision',
			tool: 'apply_diff',
			tool_call_id: 'call-2',
			decision: 'allow',
			hooks: ['approval'],
			intent_id: 'INT-001'
		},
		await buildMutationDraft({
			id: fixtureUuid(2),
			path: 'src/auth/login.ts',
			before: login,
			after: loginRefactored,
			tool: 'apply_diff',
			toolCallId: 'call-2',
			mutationClass: 'AST_REFACTOR',
			declaredMutationClass: 'INTENT_EVOLUTION'
		}),
		{
			...base,
			type: 'tool-call-finish',
			tool: 'apply_diff',
			tool_call_id: 'call-2',
			ok: true,
			intent_id: 'INT-001'
		}
	]);
	await ledger.append([
		{
			...base,
			type: 'tool-call-start',
			tool: 'write_to_file',
			tool_call_id: 'call-3',
			input: { path: 'src/db/x.ts' }
		},
		{
			...base,
			type: 'tool-decision',
			tool: 'write_to_file',
			tool_call_id: 'call-3',
			decision: 'deny',
			code: 'scope_violation',
			hooks: ['scope'],
			message:
				'Scope Violation: INT-001 is not authorized to edit src/db/x.ts. Request scope expansion.',
			intent_id: 'INT-001'
		},
		{
			...base,
			type: 'tool-call-finish',
			tool: 'write_to_file',
			tool_call_id: 'call-3',
			ok: false,
			code: 'scope_violation',
			intent_id: 'INT-001'
		}
	]);
	await ledger.append([
		await buildMutationDraft({
			id: fixtureUuid(3),
			path: 'src/legacy.ts',
			before: legacy,
			after: null,
			toolCallId: 'call-4'
		}),
		{
			...base,
			type: 'hook-error',
			hook: 'intent-map',
			tool: 'delete_file',
			tool_call_id: 'call-4',
			message: 'intent map refresh failed'
		},
		{
			...base,
			type: 'lesson-record',
			intent_id: 'INT-001',
			lesson: 'Ask before deleting legacy modules.',
			category: 'process',
			source: 'agent'
		}
	]);
	await ledger.append([
		await buildMutationDraft({
			id: fixtureUuid(4),
			path: 'README.md',
			before: readme,
			after: readmeEdited,
			intentId: null,
			tool: 'editor',
			toolCallId: null,
			declaredMutationClass: null,
			contributor: { type: 'human' }
		}),
		{
			...base,
			type: 'scope-expand',
			intent_id: 'INT-001',
			paths: ['src/db/**'],
			reason: 'The token store lives in src/db.'
		},
		{
			...base,
			type: 'change-revert',
			tool: 'execute_command',
			tool_call_id: 'call-5',
			path: 'src/other.ts',
			code: 'scope_violation'
		}
	]);
	await ledger.append([
		await buildMutationDraft({
			id: fixtureUuid(5),
			path: 'src/auth/jwt.ts',
			before: jwtFirst,
			after: jwtSecond,
			toolCallId: 'call-6'
		}),
		{
			...base,
			type: 'intent-status-change',
			intent_id: 'INT-001',
			from: 'IN_PROGRESS',
			to: 'COMPLETED'
		}
	]);

	const workspace = new Map<string, Uint8Array>([
		['README.md', encoder.encode(readmeEdited)],
		['src/auth/login.ts', encoder.encode(loginRefactored)],
		['src/auth/jwt.ts', encoder.encode(jwtSecond)]
	]);
	return { ledger, events: await ledger.events(), workspace };
}

/**
 * The events' export after `change` to their drafts, both chains sealed again, so a test sees only
 * the change's effect: `audit.jsonl` and `agent_trace.jsonl` as text.
 */
export async function resealedExport(
	events: readonly LedgerEvent[],
	change: (drafts: LedgerEventDraft[]) => void
): Promise<{ audit: string; trace: string }> {
	const drafts = events.map((event) => {
		const {
			seq: _seq,
			timestamp: _timestamp,
			prev_hash: _prev,
			hash: _hash,
			...draft
		} = structuredClone(event);
		if (draft.type === 'mutation-record') {
			const { seq: _s, prev_hash: _p, hash: _h, ...links } = draft.trace.metadata['dev.threadline'];
			(draft as { trace: unknown }).trace = {
				...draft.trace,
				metadata: { ...draft.trace.metadata, 'dev.threadline': links }
			};
		}
		return draft as LedgerEventDraft;
	});
	change(drafts);
	const sealed = await new LedgerChain({ clock: steppingClock() }).sealAll(drafts);
	const exported = exportOrchestration({
		events: sealed,
		activeIntentsYaml: '',
		agentMd: '',
		intents: []
	});
	return {
		audit: exported.get('audit.jsonl') as string,
		trace: exported.get('agent_trace.jsonl') as string
	};
}

/**
 * The mixed ledger's export as UTF-8 bytes, resealed with every `every`-th event (from `first`) in
 * a session whose name is not ASCII, so its lines take both ways of decoding
 * (hooks/bytes/line-decoding.ts): what the tests that compare ways of verifying read.
 */
export async function mixedExportBytes(
	every: number,
	first = 1
): Promise<{ audit: Uint8Array; trace: Uint8Array }> {
	const exported = await resealedExport((await buildMixedLedger()).events, (drafts) => {
		for (const [index, draft] of drafts.entries())
			if (index % every === first) draft.session_id = `séance-${index}…`;
	});
	const encoder = new TextEncoder();
	return { audit: encoder.encode(exported.audit), trace: encoder.encode(exported.trace) };
}
