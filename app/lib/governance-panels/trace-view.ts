/**
 * The trace panel's logic: ledger events turned into readable rows (newest first), the filters,
 * the paging cap, the before/after contents of a mutation and the verify report in plain words.
 * Everything is one pass over the events, so a ledger of 10k events stays fast to filter.
 */

import type { ToolErrorCode } from '../../../hooks/errors/tool-error.js';
import type { MutationClass, TraceRange } from '../../../hooks/ledger/agent-trace-record.js';
import type { LedgerEvent, LedgerEventType } from '../../../hooks/ledger/ledger-event.js';
import type { VerifyReport } from '../../../hooks/ledger/verify.js';
import type { SessionName } from './session-name.js';

/** Each event type in words; a Record so a new ledger event type cannot be forgotten here. */
export const ledgerEventTypeLabels: Record<LedgerEventType, string> = {
	'tool-call-start': 'Tool call started',
	'tool-decision': 'Hook decision',
	'approval-request': 'Approval requested',
	'approval-response': 'Approval answered',
	'tool-call-finish': 'Tool call finished',
	'mutation-record': 'File changed',
	'change-revert': 'Change refused',
	'folder-change': 'Folder changed',
	'intent-select': 'Intent selected',
	'intent-status-change': 'Intent status changed',
	'scope-expand': 'Scope expanded',
	'lesson-record': 'Lesson recorded',
	'hook-error': 'Hook error',
	// issue 7 (verify): every system rewrite of active_intents.yaml is its own ledger event.
	'governance-file-write': 'Governance file written',
	'hook-policy-load': 'Hook policy loaded',
	'scenario-load': 'Scenario loaded',
	'step-check': 'Step checked',
	'workspace-snapshot': 'Workspace snapshot',
	'witness-receipt': 'Witnessed by the class server',
	'witness-fork': 'The class server contradicted its log',
	'conversation-entry': 'Conversation'
};

export const ledgerEventTypes = Object.keys(ledgerEventTypeLabels) as LedgerEventType[];

/** What a mutation row can show of its change, and how to fetch both sides from the blob store. */
export interface MutationView {
	path: string;
	operation: 'write' | 'delete';
	/** `sha256:` hash of the file before the change; null when it did not exist or is unknown. */
	beforeHash: string | null;
	/** False when no earlier record or workspace snapshot says what the file held before. */
	beforeKnown: boolean;
	/** `sha256:` hash of the file after the change; null after a deletion. */
	afterHash: string | null;
	ranges: readonly TraceRange[];
	/** e.g. `AI (openai/gpt-4o)` or `Human`. */
	contributor: string;
	mutationClass: MutationClass;
	declaredClass: MutationClass | null;
}

export interface TraceRow {
	seq: number;
	/** As recorded (RFC 3339), for `<time datetime>` and tooltips. */
	timestamp: string;
	/** Local `HH:MM:SS`, or the raw timestamp when it cannot be read. */
	time: string;
	sessionId: string;
	sessionName: string;
	type: LedgerEventType;
	/** The event in words, e.g. "Blocked", "File deleted". */
	kind: string;
	tool: string | null;
	/** The path or `$ command` the event is about. */
	target: string | null;
	/** Short result: `allowed`, `denied`, `approved`, `failed`, a mutation class… */
	outcome: string | null;
	code: ToolErrorCode | null;
	/** A tool-decision deny or a tool-call-finish that did not succeed. */
	blocked: boolean;
	intentId: string | null;
	/** A sentence worth reading: the hook's message, a lesson, a status change. */
	detail: string | null;
	mutation: MutationView | null;
}

/** Filter value for "events without an intent" (not a valid intent id, so it cannot clash). */
export const withoutIntent = '\u0000without-intent';

export interface TraceFilter {
	/** An intent id, `withoutIntent`, or null for every intent. */
	intent: string | null;
	/** A session id, or null for every session. */
	session: string | null;
	type: LedgerEventType | null;
	blockedOnly: boolean;
}

export const emptyTraceFilter: TraceFilter = {
	intent: null,
	session: null,
	type: null,
	blockedOnly: false
};

/** How many rows are rendered at first and added by each "Show more". */
export const tracePageSize = 200;

interface CallInfo {
	target: string | null;
	intentId: string | null;
}

/** Rows for the events, newest first. Linear in the number of events. */
export function buildTraceRows(
	events: readonly LedgerEvent[],
	sessions: readonly SessionName[]
): TraceRow[] {
	const ordered = inSeqOrder(events);
	const names = new Map(sessions.map((session) => [session.id, session.name]));
	const calls = new Map<string, CallInfo>();

	// First pass: what each tool call is about, since only its start event carries the input and
	// only its decisions carry the intent.
	for (const event of ordered) {
		if (!('tool_call_id' in event) || typeof event.tool_call_id !== 'string') continue;
		let info = calls.get(event.tool_call_id);
		if (!info) {
			info = { target: null, intentId: null };
			calls.set(event.tool_call_id, info);
		}
		if (event.type === 'tool-call-start') {
			info.target ??= targetOfInput(event.input);
			info.intentId ??= intentOfInput(event.input);
		}
		if ('intent_id' in event && typeof event.intent_id === 'string' && info.intentId === null) {
			info.intentId = event.intent_id;
		}
	}

	// Second pass, oldest first: each path's last known hash gives the mutation's "before".
	const fileHashes = new Map<string, string | null>();
	let snapshotSeen = false;
	const rows: TraceRow[] = new Array<TraceRow>(ordered.length);
	for (let position = 0; position < ordered.length; position++) {
		const event = ordered[position] as LedgerEvent;
		if (event.type === 'workspace-snapshot') {
			// A snapshot is the whole workspace at that moment: files it does not list do not exist.
			fileHashes.clear();
			for (const [path, hash] of Object.entries(event.files)) fileHashes.set(path, hash);
			snapshotSeen = true;
		}
		const row = rowOf(event, names, calls, fileHashes, snapshotSeen);
		if (row.mutation && row.mutation.path !== '') {
			fileHashes.set(row.mutation.path, row.mutation.afterHash);
		}
		rows[ordered.length - 1 - position] = row;
	}
	return rows;
}

/** The rows that pass the filter, in the same order. One pass, no allocation per row. */
export function filterTraceRows(rows: readonly TraceRow[], filter: TraceFilter): TraceRow[] {
	const { intent, session, type, blockedOnly } = filter;
	if (intent === null && session === null && type === null && !blockedOnly) return [...rows];
	const kept: TraceRow[] = [];
	for (const row of rows) {
		if (blockedOnly && !row.blocked) continue;
		if (type !== null && row.type !== type) continue;
		if (session !== null && row.sessionId !== session) continue;
		if (intent !== null) {
			if (intent === withoutIntent ? row.intentId !== null : row.intentId !== intent) continue;
		}
		kept.push(row);
	}
	return kept;
}

export interface TraceFilterOptions {
	/** Intent ids seen in the rows, sorted; plus whether some rows have none. */
	intents: string[];
	hasRowsWithoutIntent: boolean;
	/** The known sessions first (in the given order), then ids only the ledger knows. */
	sessions: SessionName[];
	types: { type: LedgerEventType; label: string }[];
}

export function traceFilterOptions(
	rows: readonly TraceRow[],
	sessions: readonly SessionName[]
): TraceFilterOptions {
	const intents = new Set<string>();
	const sessionIds = new Set<string>();
	const types = new Set<LedgerEventType>();
	let hasRowsWithoutIntent = false;
	for (const row of rows) {
		if (row.intentId === null) hasRowsWithoutIntent = true;
		else intents.add(row.intentId);
		sessionIds.add(row.sessionId);
		types.add(row.type);
	}
	const known = new Set(sessions.map((session) => session.id));
	const extraSessions = [...sessionIds]
		.filter((id) => !known.has(id))
		.sort(compareText)
		.map((id) => ({ id, name: id }));
	return {
		intents: [...intents].sort(compareText),
		hasRowsWithoutIntent,
		sessions: [...sessions, ...extraSessions],
		types: ledgerEventTypes
			.filter((type) => types.has(type))
			.map((type) => ({ type, label: ledgerEventTypeLabels[type] }))
	};
}

/** `Showing 200 of 1,234 events` — what the cap hides must be said, not silently dropped. */
export function describeShownCount(shown: number, matching: number, total: number): string {
	const events = (count: number) => `${count.toLocaleString('en')} event${count === 1 ? '' : 's'}`;
	if (total === 0) return 'No events recorded yet.';
	if (matching === 0) return `No events match the filters (${events(total)} recorded).`;
	const filtered = matching === total ? '' : ` (filtered from ${total.toLocaleString('en')})`;
	if (shown >= matching) return `Showing ${events(matching)}${filtered}.`;
	return `Showing ${shown.toLocaleString('en')} of ${events(matching)}${filtered}.`;
}

export function formatTime(timestamp: string): string {
	const date = new Date(timestamp);
	if (Number.isNaN(date.getTime())) return timestamp;
	const pad = (value: number) => String(value).padStart(2, '0');
	return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** `sha256:0a1b2c3d…` — enough to compare by eye; the full hash goes in a tooltip. */
export function shortHash(hash: string): string {
	const match = /^(sha256:)?([0-9a-f]+)$/i.exec(hash);
	if (!match) return hash;
	const digits = match[2] as string;
	return digits.length > 12 ? `${match[1] ?? ''}${digits.slice(0, 12)}…` : hash;
}

export function describeRange(range: TraceRange): string {
	return range.start_line === range.end_line
		? `line ${range.start_line}`
		: `lines ${range.start_line}–${range.end_line}`;
}

// ---------------------------------------------------------------------------------------------
// Mutation contents from the content-addressed blob store.

/** The app's blob store: text or bytes by `sha256:` hash; null/undefined when it is not stored. */
export type BlobLoader = (hash: string) => Promise<string | Uint8Array | null | undefined>;

export type MutationContents =
	| { kind: 'diff'; original: string | null; modified: string | null }
	| { kind: 'unavailable'; reason: string };

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Both sides of a mutation for the diff editor, or why they cannot be shown. Never throws. */
export async function loadMutationContents(
	mutation: Pick<MutationView, 'beforeHash' | 'afterHash' | 'beforeKnown'> & Partial<MutationView>,
	loadBlob: BlobLoader | undefined
): Promise<MutationContents> {
	if (!loadBlob) return { kind: 'unavailable', reason: 'No content store is connected.' };
	if (!mutation.beforeKnown) {
		return {
			kind: 'unavailable',
			reason: 'The earlier content is unknown: no workspace snapshot or earlier change records it.'
		};
	}
	try {
		const [original, modified] = await Promise.all([
			mutation.beforeHash === null ? null : blobText(loadBlob, mutation.beforeHash),
			mutation.afterHash === null ? null : blobText(loadBlob, mutation.afterHash)
		]);
		const missing = [original, modified].find((side) => side !== null && !side.ok);
		if (missing && !missing.ok) return { kind: 'unavailable', reason: missing.reason };
		return {
			kind: 'diff',
			original: original?.ok ? original.text : null,
			modified: modified?.ok ? modified.text : null
		};
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { kind: 'unavailable', reason: `The content could not be loaded: ${message}` };
	}
}

async function blobText(
	loadBlob: BlobLoader,
	hash: string
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
	const blob = await loadBlob(hash);
	if (blob === null || blob === undefined) {
		return { ok: false, reason: `The content ${shortHash(hash)} is not stored.` };
	}
	if (typeof blob === 'string') return { ok: true, text: blob };
	if (blob.subarray(0, 8192).includes(0)) {
		return { ok: false, reason: 'Binary file: there is no text diff.' };
	}
	try {
		return { ok: true, text: strictDecoder.decode(blob) };
	} catch {
		return { ok: false, reason: 'Binary file: there is no text diff.' };
	}
}

// ---------------------------------------------------------------------------------------------
// The verify report in plain words.

export interface VerifyLine {
	/** `problem` fails the check; `note` is worth knowing but is not a failure. */
	tone: 'ok' | 'problem' | 'note';
	text: string;
}

export interface VerifySummary {
	ok: boolean;
	headline: string;
	lines: VerifyLine[];
}

/** Long lists are cut so a badly broken export still reads as a page, not a wall. */
const listedItemsLimit = 10;

export function describeVerifyReport(report: VerifyReport): VerifySummary {
	const lines: VerifyLine[] = [];
	const plural = (count: number, word: string) =>
		`${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;

	lines.push(
		report.audit.intact
			? { tone: 'ok', text: `Audit chain intact (${plural(report.audit.events, 'event')}).` }
			: {
					tone: 'problem',
					text: sentence(
						`Audit chain broken${atSeq(report.audit.firstBrokenSeq)}: ${report.audit.problem ?? 'hash mismatch'}`
					)
				}
	);
	lines.push(
		report.trace.intact
			? { tone: 'ok', text: `Trace chain intact (${plural(report.trace.records, 'record')}).` }
			: {
					tone: 'problem',
					text: sentence(
						`Trace chain broken${atSeq(report.trace.firstBrokenSeq)}: ${report.trace.problem ?? 'hash mismatch'}`
					)
				}
	);

	const invalid = report.trace.invalid;
	if (invalid.length === 0) {
		lines.push({
			tone: 'ok',
			text: `All ${plural(report.trace.records, 'trace record')} are valid Agent Trace 0.1.0.`
		});
	} else {
		lines.push({
			tone: 'problem',
			text: `${plural(invalid.length, 'trace record')} ${invalid.length === 1 ? 'is' : 'are'} not valid:`
		});
		for (const record of invalid.slice(0, listedItemsLimit)) {
			const seq = record.seq === null ? '' : ` (seq ${record.seq})`;
			lines.push({
				tone: 'problem',
				text: `agent_trace.jsonl line ${record.line}${seq}: ${record.errors.join('; ') || 'invalid'}`
			});
		}
		pushMore(lines, invalid.length, 'problem');
	}

	const files = report.files;
	if (files.checked === 0) {
		lines.push({ tone: 'note', text: 'Workspace files were not checked.' });
	} else {
		const fileProblems =
			files.contentMismatches.length +
			files.unattributed.length +
			files.missing.length +
			files.rangeMismatches.length;
		if (fileProblems === 0) {
			lines.push({
				tone: 'ok',
				text: `All ${plural(files.checked, 'file')} match the ledger.`
			});
		}
		pushList(lines, 'File hash mismatch', files.contentMismatches);
		pushList(lines, 'Unattributed file (changed by no recorded change)', files.unattributed);
		pushList(lines, 'Missing file (the ledger says it exists)', files.missing);
		pushList(
			lines,
			'Line range mismatch',
			files.rangeMismatches.map((mismatch) => `${mismatch.path} (trace seq ${mismatch.seq})`)
		);
	}

	for (const mismatch of report.classMismatches.slice(0, listedItemsLimit)) {
		lines.push({
			tone: 'note',
			text: `Note: seq ${mismatch.seq} ${mismatch.path} was declared ${mismatch.declared} but computes as ${mismatch.computed}.`
		});
	}
	pushMore(lines, report.classMismatches.length, 'note');

	return {
		ok: report.ok,
		headline: report.ok
			? 'Verified: the ledger is intact and every record is valid.'
			: sentence(`Verification failed: ${report.firstFailure ?? 'see the problems below'}`),
		lines
	};
}

function sentence(text: string): string {
	return /[.!?…]$/.test(text) ? text : `${text}.`;
}

function atSeq(seq: number | null): string {
	return seq === null ? '' : ` at seq ${seq}`;
}

function pushList(lines: VerifyLine[], label: string, items: readonly string[]): void {
	for (const item of items.slice(0, listedItemsLimit)) {
		lines.push({ tone: 'problem', text: `${label}: ${item}` });
	}
	pushMore(lines, items.length, 'problem');
}

function pushMore(lines: VerifyLine[], count: number, tone: VerifyLine['tone']): void {
	if (count > listedItemsLimit) {
		lines.push({ tone, text: `…and ${(count - listedItemsLimit).toLocaleString('en')} more.` });
	}
}

// ---------------------------------------------------------------------------------------------
// One event → one row.

function rowOf(
	event: LedgerEvent,
	names: ReadonlyMap<string, string>,
	calls: ReadonlyMap<string, CallInfo>,
	fileHashes: ReadonlyMap<string, string | null>,
	snapshotSeen: boolean
): TraceRow {
	const call =
		'tool_call_id' in event && typeof event.tool_call_id === 'string'
			? calls.get(event.tool_call_id)
			: undefined;
	const row: TraceRow = {
		seq: event.seq,
		timestamp: event.timestamp,
		time: formatTime(event.timestamp),
		sessionId: event.session_id,
		sessionName: names.get(event.session_id) ?? event.session_id,
		type: event.type,
		kind: ledgerEventTypeLabels[event.type] ?? String(event.type),
		tool: 'tool' in event && typeof event.tool === 'string' ? event.tool : null,
		target: call?.target ?? null,
		outcome: null,
		code: null,
		blocked: false,
		intentId:
			('intent_id' in event && typeof event.intent_id === 'string' ? event.intent_id : null) ??
			call?.intentId ??
			null,
		detail: null,
		mutation: null
	};

	switch (event.type) {
		case 'tool-call-start':
			break;
		case 'tool-decision':
			row.kind =
				event.decision === 'deny'
					? 'Blocked'
					: event.decision === 'ask'
						? 'Needs approval'
						: 'Allowed';
			row.outcome =
				event.decision === 'deny' ? 'denied' : event.decision === 'ask' ? 'asked' : 'allowed';
			row.code = event.code ?? null;
			row.blocked = event.decision === 'deny';
			row.detail = joinDetail(
				event.message,
				event.hooks.length > 0 ? `hooks: ${event.hooks.join(', ')}` : undefined
			);
			break;
		case 'approval-request':
			row.detail = event.reasons.join('; ') || null;
			break;
		case 'approval-response': {
			const by =
				event.by === 'human'
					? 'by the human'
					: event.by === 'policy'
						? 'by policy'
						: '(remembered)';
			row.kind = `${event.approved ? 'Approved' : 'Rejected'} ${by}`;
			row.outcome = event.approved ? 'approved' : 'rejected';
			row.detail = event.reason ?? null;
			break;
		}
		case 'tool-call-finish':
			row.kind = event.ok ? 'Tool call succeeded' : 'Tool call failed';
			row.outcome = event.ok ? 'ok' : 'failed';
			row.code = event.code ?? null;
			row.blocked = !event.ok;
			break;
		case 'mutation-record': {
			const mutation = mutationOf(event, fileHashes, snapshotSeen);
			row.mutation = mutation;
			row.kind = mutation.operation === 'delete' ? 'File deleted' : 'File changed';
			row.tool = event.trace.metadata['dev.threadline'].tool ?? row.tool;
			row.target = mutation.path || row.target;
			row.outcome = mutation.mutationClass;
			row.intentId = event.trace.metadata['dev.threadline'].intent_id ?? row.intentId;
			row.detail = `by ${mutation.contributor}`;
			break;
		}
		case 'change-revert':
			row.target = event.path;
			row.code = event.code;
			row.outcome = 'reverted';
			break;
		case 'intent-select':
			row.detail = `Selected ${event.intent_id}${event.tool_call_id === null ? ' by hand' : ''}`;
			break;
		case 'intent-status-change':
			row.outcome = event.to;
			row.detail = `${event.from} → ${event.to}`;
			break;
		case 'scope-expand':
			row.target = event.paths.join(', ');
			row.detail = event.reason;
			break;
		case 'lesson-record':
			row.outcome = event.category;
			row.detail = event.lesson;
			row.kind = event.source === 'command-failure' ? 'Lesson from a failed command' : row.kind;
			break;
		case 'hook-error':
			row.outcome = event.hook;
			row.detail = event.message;
			break;
		case 'governance-file-write':
			row.target = event.path;
			break;
		case 'workspace-snapshot': {
			const count = Object.keys(event.files).length;
			row.detail = `${count.toLocaleString('en')} file${count === 1 ? '' : 's'}`;
			break;
		}
		case 'witness-receipt':
			row.detail = `up to seq ${event.receipt.seq} at ${event.receipt.received_at}`;
			break;
	}
	return row;
}

function mutationOf(
	event: Extract<LedgerEvent, { type: 'mutation-record' }>,
	fileHashes: ReadonlyMap<string, string | null>,
	snapshotSeen: boolean
): MutationView {
	const metadata = event.trace.metadata['dev.threadline'];
	const file = event.trace.files[0];
	const conversation = file?.conversations[0];
	const path = file?.path ?? '';
	const recorded = fileHashes.has(path);
	const contributor = conversation?.contributor;
	return {
		path,
		operation: metadata.operation === 'delete' ? 'delete' : 'write',
		beforeHash: recorded ? (fileHashes.get(path) ?? null) : null,
		// Without a snapshot, a path never seen before may still have existed.
		beforeKnown: recorded || snapshotSeen,
		afterHash: metadata.operation === 'delete' ? null : (metadata.file_hash ?? null),
		ranges: conversation?.ranges ?? [],
		contributor:
			contributor?.type === 'human'
				? 'Human'
				: contributor?.type === 'ai'
					? `AI${contributor.model_id ? ` (${contributor.model_id})` : ''}`
					: (contributor?.type ?? 'unknown'),
		mutationClass: metadata.mutation_class,
		declaredClass: metadata.declared_mutation_class ?? null
	};
}

function targetOfInput(input: unknown): string | null {
	if (typeof input !== 'object' || input === null) return null;
	const fields = input as Record<string, unknown>;
	if (typeof fields.command === 'string') return `$ ${fields.command}`;
	if (typeof fields.path === 'string') {
		return typeof fields.pattern === 'string'
			? `/${fields.pattern}/ in ${fields.path}`
			: fields.path;
	}
	if (typeof fields.pattern === 'string') return `/${fields.pattern}/`;
	if (Array.isArray(fields.paths)) {
		return fields.paths.filter((path): path is string => typeof path === 'string').join(', ');
	}
	return null;
}

function intentOfInput(input: unknown): string | null {
	if (typeof input !== 'object' || input === null) return null;
	const intentId = (input as Record<string, unknown>).intent_id;
	return typeof intentId === 'string' && intentId !== '' ? intentId : null;
}

function joinDetail(...parts: (string | undefined)[]): string | null {
	const kept = parts.filter((part): part is string => typeof part === 'string' && part !== '');
	return kept.length > 0 ? kept.join(' · ') : null;
}

/** Ledger events come in seq order; a copy is sorted only when they do not. */
function inSeqOrder(events: readonly LedgerEvent[]): readonly LedgerEvent[] {
	for (let position = 1; position < events.length; position++) {
		if ((events[position] as LedgerEvent).seq < (events[position - 1] as LedgerEvent).seq) {
			return [...events].sort((left, right) => left.seq - right.seq);
		}
	}
	return events;
}

function compareText(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}

/** `Checked 12,000 of 100,000 records` while the verify Worker runs (before its first report: `Starting…`). */
export function describeVerifyProgress(
	progress: { checked: number; total: number } | null
): string {
	if (!progress || progress.total === 0) return 'Starting…';
	const format = (count: number) => count.toLocaleString('en-US');
	return `Checked ${format(progress.checked)} of ${format(progress.total)} records`;
}
