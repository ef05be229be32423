import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../hooks/hashing/sha256.js';
import type { LedgerEvent, LedgerEventBody } from '../../../hooks/ledger/ledger-event.js';
import { buildMixedLedger, fixtureUuid } from '../../../hooks/ledger/ledger-test-fixtures.js';
import { verifyLedger, type VerifyReport } from '../../../hooks/ledger/verify.js';
import { exportOrchestration } from '../../../hooks/ledger/export.js';
import {
	buildTraceRows,
	describeRange,
	describeShownCount,
	describeVerifyProgress,
	describeVerifyReport,
	emptyTraceFilter,
	filterTraceRows,
	formatTime,
	ledgerEventTypeLabels,
	loadMutationContents,
	shortHash,
	traceFilterOptions,
	withoutIntent,
	type MutationView,
	type TraceRow
} from './trace-view.js';

const sessions = [{ id: 'session-1', name: 'Builder' }];

function sealed(seq: number, body: LedgerEventBody, timestamp?: string): LedgerEvent {
	return {
		...body,
		seq,
		timestamp: timestamp ?? new Date(Date.UTC(2026, 10, 21, 12, 0, seq)).toISOString(),
		prev_hash: `sha256:${'0'.repeat(64)}`,
		hash: `sha256:${seq.toString(16).padStart(64, '0')}`
	} as LedgerEvent;
}

function mutationEvent(
	seq: number,
	options: {
		path: string;
		fileHash: string | null;
		sessionId?: string;
		intentId?: string | null;
		toolCallId?: string | null;
	}
): LedgerEvent {
	const sessionId = options.sessionId ?? 'session-1';
	const intentId = options.intentId === undefined ? 'INT-001' : options.intentId;
	return sealed(seq, {
		type: 'mutation-record',
		session_id: sessionId,
		trace: {
			version: '0.1.0',
			id: fixtureUuid(seq),
			timestamp: '2026-11-21T12:00:00.000Z',
			tool: { name: 'threadline', version: '0.1.0' },
			files: [
				{
					path: options.path,
					conversations: [
						{
							url: `urn:threadline:session:${sessionId}`,
							contributor: { type: 'ai', model_id: 'openai/gpt-4o' },
							ranges:
								options.fileHash === null
									? []
									: [{ start_line: 2, end_line: 4, content_hash: `sha256:${'c'.repeat(64)}` }],
							related: []
						}
					]
				}
			],
			metadata: {
				'dev.threadline': {
					intent_id: intentId,
					mutation_class: 'INTENT_EVOLUTION',
					declared_mutation_class: 'INTENT_EVOLUTION',
					tool: options.fileHash === null ? 'delete_file' : 'write_to_file',
					tool_call_id: options.toolCallId === undefined ? `call-${seq}` : options.toolCallId,
					session_id: sessionId,
					operation: options.fileHash === null ? 'delete' : 'write',
					file_hash: options.fileHash,
					seq,
					prev_hash: `sha256:${'0'.repeat(64)}`,
					hash: `sha256:${'1'.repeat(64)}`
				}
			}
		}
	});
}

function rowAt(rows: readonly TraceRow[], seq: number): TraceRow {
	const row = rows.find((candidate) => candidate.seq === seq);
	if (!row) throw new Error(`no row for seq ${seq}`);
	return row;
}

describe('buildTraceRows on a real mixed ledger', () => {
	it('gives one row per event, newest first', async () => {
		const { events } = await buildMixedLedger();
		const rows = buildTraceRows(events, sessions);
		expect(rows).toHaveLength(events.length);
		expect(rows.map((row) => row.seq)).toEqual(events.map((event) => event.seq).reverse());
		expect(rows.every((row) => row.sessionName === 'Builder')).toBe(true);
	});

	it('puts the tool call target and intent on every event of the call', async () => {
		const { events } = await buildMixedLedger();
		const rows = buildTraceRows(events, sessions);
		const call3 = rows.filter(
			(row) =>
				events.find((event) => event.seq === row.seq && 'tool_call_id' in event)?.[
					'tool_call_id' as never
				] === 'call-3'
		);
		expect(call3.map((row) => row.type).sort()).toEqual([
			'tool-call-finish',
			'tool-call-start',
			'tool-decision'
		]);
		for (const row of call3) {
			expect(row.target).toBe('src/db/x.ts');
			expect(row.intentId).toBe('INT-001');
			expect(row.tool).toBe('write_to_file');
		}
	});

	it('describes a deny with its code, message and hooks, and marks it blocked', async () => {
		const { events } = await buildMixedLedger();
		const rows = buildTraceRows(events, sessions);
		const deny = rows.find((row) => row.type === 'tool-decision' && row.outcome === 'denied');
		expect(deny).toMatchObject({
			kind: 'Blocked',
			code: 'scope_violation',
			blocked: true,
			target: 'src/db/x.ts'
		});
		expect(deny?.detail).toContain('Scope Violation: INT-001 is not authorized');
		expect(deny?.detail).toContain('hooks: scope');
		const failedFinish = rows.find((row) => row.type === 'tool-call-finish' && !row.blocked);
		expect(failedFinish?.kind).toBe('Tool call succeeded');
		expect(rows.filter((row) => row.blocked)).toHaveLength(2);
	});

	it('gives mutations the hashes on both sides, from earlier records and the snapshot', async () => {
		const { events } = await buildMixedLedger();
		const rows = buildTraceRows(events, sessions);
		const mutations = rows.filter((row) => row.mutation !== null).reverse();
		expect(mutations.map((row) => row.mutation?.path)).toEqual([
			'src/auth/jwt.ts',
			'src/auth/login.ts',
			'src/legacy.ts',
			'README.md',
			'src/auth/jwt.ts'
		]);
		const [created, refactored, deleted, human, edited] = mutations.map(
			(row) => row.mutation as MutationView
		);
		// Not in the snapshot: the first write created it.
		expect(created).toMatchObject({ beforeHash: null, beforeKnown: true, operation: 'write' });
		expect(created?.afterHash).toBe(
			await contentHash('export function sign(payload) {\n\treturn encode(payload);\n}\n')
		);
		expect(refactored?.beforeHash).toBe(
			await contentHash('export function login(user) {\n\treturn check(user);\n}\n')
		);
		expect(refactored).toMatchObject({
			mutationClass: 'AST_REFACTOR',
			declaredClass: 'INTENT_EVOLUTION'
		});
		expect(deleted).toMatchObject({ operation: 'delete', afterHash: null, ranges: [] });
		expect(deleted?.beforeHash).toBe(await contentHash('module.exports = {};\n'));
		expect(human?.contributor).toBe('Human');
		expect(edited?.beforeHash).toBe(created?.afterHash);
		expect(edited?.contributor).toBe('AI (openai/gpt-4o)');
		expect(rows.find((row) => row.mutation?.operation === 'delete')?.kind).toBe('File deleted');
	});

	it('words every event type', async () => {
		const { events } = await buildMixedLedger();
		const rows = buildTraceRows(events, sessions);
		const approval = rows.find((row) => row.type === 'approval-response');
		expect(approval).toMatchObject({ kind: 'Approved by the human', outcome: 'approved' });
		expect(rows.find((row) => row.type === 'approval-request')?.detail).toBe(
			'edits an existing file'
		);
		expect(rows.find((row) => row.type === 'intent-status-change')?.detail).toBe(
			'IN_PROGRESS → COMPLETED'
		);
		expect(rows.find((row) => row.type === 'scope-expand')).toMatchObject({
			target: 'src/db/**',
			detail: 'The token store lives in src/db.'
		});
		expect(rows.find((row) => row.type === 'change-revert')).toMatchObject({
			target: 'src/other.ts',
			code: 'scope_violation'
		});
		expect(rows.find((row) => row.type === 'workspace-snapshot')?.detail).toBe('4 files');
		expect(rows.find((row) => row.type === 'lesson-record')?.detail).toBe(
			'Ask before deleting legacy modules.'
		);
		expect(rows.find((row) => row.type === 'hook-error')?.detail).toBe('intent map refresh failed');
		expect(rows.find((row) => row.type === 'intent-select')?.intentId).toBe('INT-001');
		for (const row of rows) expect(row.kind).not.toBe('');
	});

	it('has a label for every ledger event type', () => {
		for (const label of Object.values(ledgerEventTypeLabels)) expect(label).toMatch(/^[A-Z]/);
	});
});

describe('buildTraceRows edge cases', () => {
	it('returns no rows for no events', () => {
		expect(buildTraceRows([], sessions)).toEqual([]);
	});

	it('sorts events that arrive out of order', () => {
		const events = [
			sealed(2, { type: 'intent-select', session_id: 's', intent_id: 'INT-2', tool_call_id: null }),
			sealed(1, { type: 'intent-select', session_id: 's', intent_id: 'INT-1', tool_call_id: null })
		];
		const rows = buildTraceRows(events, []);
		expect(rows.map((row) => row.seq)).toEqual([2, 1]);
		expect(rows[1]?.detail).toBe('Selected INT-1 by hand');
	});

	it('shows the session id when the session is not known, and the raw time when unreadable', () => {
		const event = sealed(
			1,
			{ type: 'intent-select', session_id: 'ghost', intent_id: 'INT-1', tool_call_id: 'call-1' },
			'not a time'
		);
		const [row] = buildTraceRows([event], sessions);
		expect(row).toMatchObject({ sessionName: 'ghost', time: 'not a time' });
	});

	it('marks the before side unknown without a snapshot or an earlier record', () => {
		const rows = buildTraceRows(
			[
				mutationEvent(1, { path: 'a.ts', fileHash: 'sha256:aa' }),
				mutationEvent(2, { path: 'a.ts', fileHash: 'sha256:bb' })
			],
			sessions
		);
		expect(rowAt(rows, 1).mutation).toMatchObject({ beforeKnown: false, beforeHash: null });
		expect(rowAt(rows, 2).mutation).toMatchObject({
			beforeKnown: true,
			beforeHash: 'sha256:aa',
			afterHash: 'sha256:bb'
		});
	});

	it('takes a later snapshot over an earlier record', () => {
		const rows = buildTraceRows(
			[
				mutationEvent(1, { path: 'a.ts', fileHash: 'sha256:aa' }),
				sealed(2, {
					type: 'workspace-snapshot',
					session_id: 's',
					files: { 'a.ts': 'sha256:snap' }
				}),
				mutationEvent(3, { path: 'a.ts', fileHash: 'sha256:bb' }),
				mutationEvent(4, { path: 'b.ts', fileHash: 'sha256:cc' })
			],
			sessions
		);
		expect(rowAt(rows, 3).mutation?.beforeHash).toBe('sha256:snap');
		expect(rowAt(rows, 4).mutation).toMatchObject({ beforeHash: null, beforeKnown: true });
	});

	it('a file recreated after a deletion starts from nothing', () => {
		const rows = buildTraceRows(
			[
				sealed(1, { type: 'workspace-snapshot', session_id: 's', files: { 'a.ts': 'sha256:aa' } }),
				mutationEvent(2, { path: 'a.ts', fileHash: null }),
				mutationEvent(3, { path: 'a.ts', fileHash: 'sha256:bb' })
			],
			sessions
		);
		expect(rowAt(rows, 2).mutation).toMatchObject({ beforeHash: 'sha256:aa', afterHash: null });
		expect(rowAt(rows, 3).mutation).toMatchObject({ beforeHash: null, beforeKnown: true });
	});

	it('reads command, path and search targets from the tool input', () => {
		const starts = [
			{ command: 'npm test' },
			{ path: 'src/a.ts' },
			{ pattern: 'TODO', path: 'src' },
			{ pattern: 'TODO' },
			{ intent_id: 'INT-9', paths: ['src/x/**', 42] },
			'not an object',
			null
		].map((input, position) =>
			sealed(position + 1, {
				type: 'tool-call-start',
				session_id: 's',
				tool: 'some_tool',
				tool_call_id: `call-${position}`,
				input
			})
		);
		const rows = buildTraceRows(starts, []).reverse();
		expect(rows.map((row) => row.target)).toEqual([
			'$ npm test',
			'src/a.ts',
			'/TODO/ in src',
			'/TODO/',
			'src/x/**',
			null,
			null
		]);
		expect(rows[4]?.intentId).toBe('INT-9');
	});

	it('words rejections, policy answers, failed commands and lessons from failures', () => {
		const rows = buildTraceRows(
			[
				sealed(1, {
					type: 'approval-response',
					session_id: 's',
					tool: 'execute_command',
					tool_call_id: 'c',
					approved: false,
					reason: 'not now',
					by: 'human'
				}),
				sealed(2, {
					type: 'approval-response',
					session_id: 's',
					tool: 'execute_command',
					tool_call_id: 'd',
					approved: true,
					by: 'policy'
				}),
				sealed(3, {
					type: 'tool-call-finish',
					session_id: 's',
					tool: 'execute_command',
					tool_call_id: 'c',
					ok: false,
					code: 'user_rejected'
				}),
				sealed(4, {
					type: 'lesson-record',
					session_id: 's',
					intent_id: null,
					lesson: 'npm is not available',
					category: 'environment',
					source: 'command-failure'
				}),
				sealed(5, {
					type: 'tool-decision',
					session_id: 's',
					tool: 'delete_file',
					tool_call_id: 'e',
					decision: 'ask',
					hooks: []
				})
			],
			[]
		);
		expect(rowAt(rows, 1)).toMatchObject({ kind: 'Rejected by the human', detail: 'not now' });
		expect(rowAt(rows, 2).kind).toBe('Approved by policy');
		expect(rowAt(rows, 3)).toMatchObject({
			kind: 'Tool call failed',
			code: 'user_rejected',
			blocked: true
		});
		expect(rowAt(rows, 4)).toMatchObject({
			kind: 'Lesson from a failed command',
			intentId: null,
			outcome: 'environment'
		});
		expect(rowAt(rows, 5)).toMatchObject({ kind: 'Needs approval', blocked: false, detail: null });
	});
});

describe('filterTraceRows', () => {
	async function mixedRows(): Promise<TraceRow[]> {
		const { events } = await buildMixedLedger();
		const extra = sealed(events.length + 1, {
			type: 'intent-select',
			session_id: 'session-2',
			intent_id: 'INT-002',
			tool_call_id: null
		});
		return buildTraceRows(
			[...events, extra],
			[...sessions, { id: 'session-2', name: 'Architect' }]
		);
	}

	it('returns every row, as a copy, with the empty filter', async () => {
		const rows = await mixedRows();
		const filtered = filterTraceRows(rows, emptyTraceFilter);
		expect(filtered).toEqual(rows);
		expect(filtered).not.toBe(rows);
	});

	it('filters by intent, by no intent, by session and by type', async () => {
		const rows = await mixedRows();
		const byIntent = filterTraceRows(rows, { ...emptyTraceFilter, intent: 'INT-002' });
		expect(byIntent.map((row) => row.type)).toEqual(['intent-select']);
		const withoutAny = filterTraceRows(rows, { ...emptyTraceFilter, intent: withoutIntent });
		expect(withoutAny.length).toBeGreaterThan(0);
		expect(withoutAny.every((row) => row.intentId === null)).toBe(true);
		expect(withoutAny.map((row) => row.type)).toContain('workspace-snapshot');
		const bySession = filterTraceRows(rows, { ...emptyTraceFilter, session: 'session-2' });
		expect(bySession).toHaveLength(1);
		const byType = filterTraceRows(rows, { ...emptyTraceFilter, type: 'mutation-record' });
		expect(byType).toHaveLength(5);
		expect(byType.every((row) => row.mutation !== null)).toBe(true);
	});

	it('keeps only denies and failed calls with "Blocked only", combined with other filters', async () => {
		const rows = await mixedRows();
		const blocked = filterTraceRows(rows, { ...emptyTraceFilter, blockedOnly: true });
		expect(blocked.map((row) => `${row.type}:${row.code}`)).toEqual([
			'tool-call-finish:scope_violation',
			'tool-decision:scope_violation'
		]);
		expect(
			filterTraceRows(rows, { ...emptyTraceFilter, blockedOnly: true, type: 'tool-decision' })
		).toHaveLength(1);
		expect(
			filterTraceRows(rows, { ...emptyTraceFilter, blockedOnly: true, session: 'session-2' })
		).toEqual([]);
		expect(filterTraceRows(rows, { ...emptyTraceFilter, intent: 'INT-404' })).toEqual([]);
	});

	it('offers the intents, sessions and types that occur', async () => {
		const rows = await mixedRows();
		const options = traceFilterOptions(rows, [
			{ id: 'session-9', name: 'Reviewer' },
			{ id: 'session-1', name: 'Builder' }
		]);
		expect(options.intents).toEqual(['INT-001', 'INT-002']);
		expect(options.hasRowsWithoutIntent).toBe(true);
		expect(options.sessions).toEqual([
			{ id: 'session-9', name: 'Reviewer' },
			{ id: 'session-1', name: 'Builder' },
			{ id: 'session-2', name: 'session-2' }
		]);
		expect(options.types.map((option) => option.type)).toContain('mutation-record');
		expect(options.types.find((option) => option.type === 'mutation-record')?.label).toBe(
			'File changed'
		);
		expect(traceFilterOptions([], [])).toEqual({
			intents: [],
			hasRowsWithoutIntent: false,
			sessions: [],
			types: []
		});
	});
});

describe('10k events', () => {
	function syntheticLedger(count: number): LedgerEvent[] {
		const events: LedgerEvent[] = [];
		for (let seq = 1; seq <= count; seq++) {
			const call = `call-${Math.floor(seq / 3)}`;
			const session = `session-${seq % 3}`;
			const intent = `INT-${String(seq % 7).padStart(3, '0')}`;
			switch (seq % 3) {
				case 0:
					events.push(
						sealed(seq, {
							type: 'tool-call-start',
							session_id: session,
							tool: 'write_to_file',
							tool_call_id: call,
							input: { path: `src/file-${seq % 50}.ts` }
						})
					);
					break;
				case 1:
					events.push(
						sealed(seq, {
							type: 'tool-decision',
							session_id: session,
							tool: 'write_to_file',
							tool_call_id: call,
							decision: seq % 4 === 0 ? 'deny' : 'allow',
							code: seq % 4 === 0 ? 'scope_violation' : undefined,
							hooks: ['scope'],
							intent_id: intent
						})
					);
					break;
				default:
					events.push(
						mutationEvent(seq, {
							path: `src/file-${seq % 50}.ts`,
							fileHash: `sha256:${seq.toString(16).padStart(64, '0')}`,
							sessionId: session,
							intentId: intent,
							toolCallId: call
						})
					);
			}
		}
		return events;
	}

	/** Counts every property read of the array and of its items: work done, without a clock. */
	function counted<Item extends object>(items: Item[]): { items: Item[]; reads: () => number } {
		let reads = 0;
		const handler: ProxyHandler<object> = {
			get(target, key, receiver) {
				reads++;
				return Reflect.get(target, key, receiver);
			}
		};
		const wrapped = items.map((item) => new Proxy(item, handler) as Item);
		return { items: new Proxy(wrapped, handler) as Item[], reads: () => reads };
	}

	// Speed is not asserted with a clock here (see bench/); the next test bounds the work instead.
	it('builds and filters 10k events', () => {
		const events = syntheticLedger(10_000);
		const rows = buildTraceRows(events, sessions);
		const filtered = filterTraceRows(rows, {
			intent: 'INT-003',
			session: null,
			type: null,
			blockedOnly: true
		});
		expect(rows).toHaveLength(10_000);
		expect(filtered.length).toBeGreaterThan(0);
		expect(filtered.every((row) => row.blocked && row.intentId === 'INT-003')).toBe(true);
	});

	it('stays linear: 4× the events (10k → 40k) is 4× the work, a bounded amount per event', () => {
		const filter = { intent: 'INT-003', session: 'session-1', type: null, blockedOnly: true };
		const work = (count: number) => {
			const events = counted(syntheticLedger(count));
			const rows = counted(buildTraceRows(events.items, sessions));
			const built = events.reads();
			filterTraceRows(rows.items, filter);
			return { build: built, filter: rows.reads() };
		};
		const small = work(10_000);
		const large = work(40_000);
		for (const kind of ['build', 'filter'] as const) {
			const ratio = large[kind] / small[kind];
			expect(ratio, kind).toBeGreaterThan(3.8);
			expect(ratio, kind).toBeLessThan(4.2);
		}
		expect(large.build / 40_000).toBeLessThan(60);
		expect(large.filter / 40_000).toBeLessThan(10);
	});
});

describe('formatting', () => {
	it('formats local times and leaves unreadable ones as they are', () => {
		const date = new Date(2026, 10, 21, 9, 5, 7);
		expect(formatTime(date.toISOString())).toBe('09:05:07');
		expect(formatTime('')).toBe('');
		expect(formatTime('yesterday')).toBe('yesterday');
	});

	it('shortens sha256 hashes and leaves other strings alone', () => {
		expect(shortHash(`sha256:${'ab'.repeat(32)}`)).toBe('sha256:abababababab…');
		expect(shortHash('sha256:abc')).toBe('sha256:abc');
		expect(shortHash('not a hash')).toBe('not a hash');
		expect(shortHash('f'.repeat(64))).toBe(`${'f'.repeat(12)}…`);
	});

	it('describes ranges', () => {
		expect(describeRange({ start_line: 3, end_line: 3, content_hash: '' })).toBe('line 3');
		expect(describeRange({ start_line: 3, end_line: 9, content_hash: '' })).toBe('lines 3–9');
	});

	it('says how many events are shown', () => {
		expect(describeShownCount(0, 0, 0)).toBe('No events recorded yet.');
		expect(describeShownCount(0, 0, 12)).toBe('No events match the filters (12 events recorded).');
		expect(describeShownCount(1, 1, 1)).toBe('Showing 1 event.');
		expect(describeShownCount(5, 5, 12)).toBe('Showing 5 events (filtered from 12).');
		expect(describeShownCount(200, 10_000, 10_000)).toBe('Showing 200 of 10,000 events.');
		expect(describeShownCount(200, 3000, 10_000)).toBe(
			'Showing 200 of 3,000 events (filtered from 10,000).'
		);
	});
});

describe('loadMutationContents', () => {
	const mutation: MutationView = {
		path: 'src/a.ts',
		operation: 'write',
		beforeHash: 'sha256:before',
		beforeKnown: true,
		afterHash: 'sha256:after',
		ranges: [],
		contributor: 'Human',
		mutationClass: 'INTENT_EVOLUTION',
		declaredClass: null
	};
	const store = new Map<string, string | Uint8Array>([
		['sha256:before', 'old\n'],
		['sha256:after', new TextEncoder().encode('new\n')],
		['sha256:binary', new Uint8Array([1, 0, 2])],
		['sha256:latin1', new Uint8Array([0xff, 0xfe, 0x41])]
	]);
	const loadBlob = async (hash: string) => store.get(hash) ?? null;

	it('loads both sides, decoding bytes', async () => {
		expect(await loadMutationContents(mutation, loadBlob)).toEqual({
			kind: 'diff',
			original: 'old\n',
			modified: 'new\n'
		});
	});

	it('gives null for a created or deleted side without asking the store', async () => {
		const asked: string[] = [];
		const spy = async (hash: string) => {
			asked.push(hash);
			return store.get(hash) ?? null;
		};
		expect(await loadMutationContents({ ...mutation, beforeHash: null }, spy)).toMatchObject({
			kind: 'diff',
			original: null,
			modified: 'new\n'
		});
		expect(
			await loadMutationContents({ ...mutation, afterHash: null, operation: 'delete' }, spy)
		).toMatchObject({ kind: 'diff', original: 'old\n', modified: null });
		expect(asked).toEqual(['sha256:after', 'sha256:before']);
	});

	it('explains why there is no diff', async () => {
		expect(await loadMutationContents(mutation, undefined)).toEqual({
			kind: 'unavailable',
			reason: 'No content store is connected.'
		});
		expect(
			(await loadMutationContents({ ...mutation, beforeKnown: false, beforeHash: null }, loadBlob))
				.kind
		).toBe('unavailable');
		expect(
			await loadMutationContents({ ...mutation, afterHash: 'sha256:missing' }, loadBlob)
		).toEqual({ kind: 'unavailable', reason: 'The content sha256:missing is not stored.' });
		for (const hash of ['sha256:binary', 'sha256:latin1']) {
			expect(await loadMutationContents({ ...mutation, afterHash: hash }, loadBlob)).toEqual({
				kind: 'unavailable',
				reason: 'Binary file: there is no text diff.'
			});
		}
	});

	it('turns a failing store into a reason instead of throwing', async () => {
		const failing = async () => {
			throw new Error('IndexedDB is closed');
		};
		expect(await loadMutationContents(mutation, failing)).toEqual({
			kind: 'unavailable',
			reason: 'The content could not be loaded: IndexedDB is closed'
		});
	});
});

describe('describeVerifyReport', () => {
	async function realReport(
		tamper?: (audit: string, trace: string) => { audit: string; trace: string },
		files?: Map<string, Uint8Array>
	): Promise<VerifyReport> {
		const { events, workspace } = await buildMixedLedger();
		const exported = exportOrchestration({
			events,
			activeIntentsYaml: '',
			agentMd: '',
			intents: []
		});
		const audit = exported.get('audit.jsonl') as string;
		const trace = exported.get('agent_trace.jsonl') as string;
		const texts = tamper ? tamper(audit, trace) : { audit, trace };
		return verifyLedger({
			auditJsonl: texts.audit,
			traceJsonl: texts.trace,
			files: files ?? workspace
		});
	}

	it('says plainly that an intact ledger is intact, with class mismatches as notes', async () => {
		const summary = describeVerifyReport(await realReport());
		expect(summary.ok).toBe(true);
		expect(summary.headline).toBe('Verified: the ledger is intact and every record is valid.');
		const texts = summary.lines.map((line) => `${line.tone} ${line.text}`);
		expect(texts).toContain('ok Audit chain intact (23 events).');
		expect(texts).toContain('ok Trace chain intact (5 records).');
		expect(texts).toContain('ok All 5 trace records are valid Agent Trace 0.1.0.');
		expect(texts).toContain('ok All 3 files match the ledger.');
		expect(texts).toContain(
			'note Note: seq 2 src/auth/login.ts was declared INTENT_EVOLUTION but computes as AST_REFACTOR.'
		);
		expect(summary.lines.some((line) => line.tone === 'problem')).toBe(false);
	});

	it('names the first broken seq of a tampered chain', async () => {
		const report = await realReport((audit, trace) => ({
			audit: audit.replace('"decision":"deny"', '"decision":"allow"'),
			trace
		}));
		const summary = describeVerifyReport(report);
		const brokenSeq = report.audit.firstBrokenSeq;
		expect(summary.ok).toBe(false);
		expect(brokenSeq).toBeGreaterThan(1);
		expect(summary.headline).toMatch(
			new RegExp(`^Verification failed: audit\\.jsonl line ${brokenSeq} \\(seq ${brokenSeq}\\)`)
		);
		expect(summary.headline.endsWith('.')).toBe(true);
		expect(summary.lines[0]).toMatchObject({ tone: 'problem' });
		expect(summary.lines[0]?.text).toMatch(new RegExp(`^Audit chain broken at seq ${brokenSeq}: `));
	});

	it('lists file hash mismatches and unattributed files', async () => {
		const { workspace } = await buildMixedLedger();
		const files = new Map(workspace);
		files.set('README.md', new TextEncoder().encode('tampered\n'));
		files.set('src/extra.ts', new TextEncoder().encode('export {};\n'));
		const summary = describeVerifyReport(await realReport(undefined, files));
		expect(summary.ok).toBe(false);
		const texts = summary.lines.map((line) => `${line.tone} ${line.text}`);
		expect(texts).toContain('problem File hash mismatch: README.md');
		expect(texts).toContain(
			'problem Unattributed file (changed by no recorded change): src/extra.ts'
		);
		expect(texts.some((text) => text.startsWith('ok All'))).toBe(true);
		expect(texts.some((text) => text.includes('files match the ledger'))).toBe(false);
	});

	it('notes unchecked files and cuts long lists', () => {
		const report: VerifyReport = {
			ok: false,
			audit: { events: 1, intact: true, firstBrokenSeq: null, problem: null },
			trace: {
				records: 30,
				intact: false,
				firstBrokenSeq: 4,
				problem: 'prev_hash does not link to seq 3.',
				invalid: Array.from({ length: 12 }, (_, position) => ({
					seq: position === 0 ? null : position,
					line: position + 1,
					errors: position === 1 ? [] : ['files: required']
				}))
			},
			files: {
				checked: 0,
				contentMismatches: [],
				unattributed: [],
				missing: [],
				rangeMismatches: []
			},
			classMismatches: [],
			firstFailure: null
		};
		const summary = describeVerifyReport(report);
		const texts = summary.lines.map((line) => line.text);
		expect(summary.headline).toBe('Verification failed: see the problems below.');
		expect(texts).toContain('Audit chain intact (1 event).');
		expect(texts).toContain('Trace chain broken at seq 4: prev_hash does not link to seq 3.');
		expect(texts).toContain('12 trace records are not valid:');
		expect(texts).toContain('agent_trace.jsonl line 1: files: required');
		expect(texts).toContain('agent_trace.jsonl line 2 (seq 1): invalid');
		expect(texts).toContain('…and 2 more.');
		expect(texts).not.toContain('agent_trace.jsonl line 11 (seq 10): files: required');
		expect(
			summary.lines.find((line) => line.text === 'Workspace files were not checked.')?.tone
		).toBe('note');
	});
});

describe('describeVerifyProgress', () => {
	it('counts records checked of the total, and says when it has not started', () => {
		expect(describeVerifyProgress(null)).toBe('Starting…');
		expect(describeVerifyProgress({ checked: 0, total: 0 })).toBe('Starting…');
		expect(describeVerifyProgress({ checked: 12_000, total: 100_000 })).toBe(
			'Checked 12,000 of 100,000 records'
		);
	});
});
