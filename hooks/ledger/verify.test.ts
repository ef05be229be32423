import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentTraceRecord } from './agent-trace-record.js';
import { canonicalJson } from './canonical-json.js';
import { exportOrchestration } from './export.js';
import { LedgerChain } from './ledger-chain.js';
import type { LedgerEvent, LedgerEventDraft } from './ledger-event.js';
import { contentHash } from '../hashing/sha256.js';
import {
	buildMixedLedger,
	buildMutationDraft,
	fixtureUuid,
	resealedExport,
	steppingClock,
	type MixedLedger
} from './ledger-test-fixtures.js';
import { verifyLedger, type VerifyReport } from './verify.js';

let fixture: MixedLedger;
let auditJsonl: string;
let traceJsonl: string;

beforeAll(async () => {
	fixture = await buildMixedLedger();
	const exported = exportOrchestration({
		events: fixture.events,
		activeIntentsYaml: 'active_intents: []\n',
		agentMd: '# Agent\n',
		intents: []
	});
	auditJsonl = exported.get('audit.jsonl') as string;
	traceJsonl = exported.get('agent_trace.jsonl') as string;
});

const encoder = new TextEncoder();

function lines(text: string): string[] {
	return text.split('\n').filter((line) => line !== '');
}

function join(parts: readonly string[]): string {
	return parts.map((line) => `${line}\n`).join('');
}

/** Re-exports the fixture after `change`, resealing both chains so only the change's effect remains. */
function resealed(
	change: (drafts: LedgerEventDraft[]) => void
): Promise<{ audit: string; trace: string }> {
	return resealedExport(fixture.events, change);
}

/** The fixture export with one more file in its starting snapshot. */
function withSnapshotFile(path: string, hash: string): Promise<{ audit: string; trace: string }> {
	return resealed((drafts) => {
		const snapshot = drafts[0];
		if (snapshot?.type !== 'workspace-snapshot') throw new Error('fixture starts with a snapshot');
		snapshot.files[path] = hash;
	});
}

async function verifyText(
	audit: string,
	trace: string,
	files?: Map<string, Uint8Array>
): Promise<VerifyReport> {
	return verifyLedger({ auditJsonl: audit, traceJsonl: trace, files });
}

describe('verifyLedger on an untouched export', () => {
	it('passes with the workspace and reports the declared-class mismatch', async () => {
		const report = await verifyText(auditJsonl, traceJsonl, fixture.workspace);
		expect(report).toEqual({
			ok: true,
			audit: { events: 23, intact: true, firstBrokenSeq: null, problem: null },
			trace: { records: 5, intact: true, firstBrokenSeq: null, problem: null, invalid: [] },
			files: {
				checked: 3,
				contentMismatches: [],
				unattributed: [],
				missing: [],
				rangeMismatches: [],
				linkProblems: [],
				protectedChanges: []
			},
			orchestration: null,
			classMismatches: [
				{
					seq: 2,
					path: 'src/auth/login.ts',
					declared: 'INTENT_EVOLUTION',
					computed: 'AST_REFACTOR'
				}
			],
			firstFailure: null
		} satisfies VerifyReport);
	});

	it('passes with CRLF line endings and without a final newline', async () => {
		const crlf = auditJsonl.replaceAll('\n', '\r\n');
		expect((await verifyText(crlf, traceJsonl.trimEnd())).ok).toBe(true);
	});

	it('passes an empty ledger', async () => {
		const report = await verifyText('', '');
		expect(report.ok).toBe(true);
		expect(report.audit.events).toBe(0);
	});
});

describe('verifyLedger: audit chain failures', () => {
	it('reports a line that is not JSON with its line number', async () => {
		const parts = lines(auditJsonl);
		parts[6] = parts[6]!.slice(0, -1);
		const report = await verifyText(join(parts), traceJsonl);
		expect(report.ok).toBe(false);
		expect(report.audit).toMatchObject({ intact: false, firstBrokenSeq: 7 });
		expect(report.audit.problem).toMatch(/^audit\.jsonl line 7: not valid JSON/);
		expect(report.firstFailure).toMatch(/^audit\.jsonl line 7 \(seq 7\): not valid JSON/);
	});

	it('reports a seq gap when an event is removed', async () => {
		const parts = lines(auditJsonl);
		parts.splice(4, 1);
		const report = await verifyText(join(parts), traceJsonl);
		expect(report.audit).toMatchObject({
			intact: false,
			firstBrokenSeq: 6,
			problem: 'audit.jsonl line 5: seq gap: expected seq 5, found 6'
		});
		expect(report.ok).toBe(false);
	});

	it('reports a prev_hash mismatch when events are resealed out of order', async () => {
		const parts = lines(auditJsonl).map((line) => JSON.parse(line) as LedgerEvent);
		// Swap two events' bodies, keep seq and fix each hash, so only the links are wrong.
		const third = parts[2]!;
		const fourth = parts[3]!;
		parts[2] = { ...fourth, seq: 3, prev_hash: third.prev_hash } as LedgerEvent;
		parts[3] = { ...third, seq: 4, prev_hash: fourth.prev_hash } as LedgerEvent;
		const { hashAuditEvent } = await import('./ledger-chain.js');
		parts[2] = { ...parts[2], hash: await hashAuditEvent(parts[2]) } as LedgerEvent;
		parts[3] = { ...parts[3], hash: await hashAuditEvent(parts[3]) } as LedgerEvent;
		const report = await verifyText(join(parts.map((event) => canonicalJson(event))), traceJsonl);
		expect(report.audit).toMatchObject({
			intact: false,
			firstBrokenSeq: 4,
			problem: 'audit.jsonl line 4: prev_hash does not match the hash of seq 3'
		});
	});

	it('reports a hash mismatch when content is edited', async () => {
		const edited = auditJsonl.replace('"decision":"deny"', '"decision":"allow"');
		expect(edited).not.toBe(auditJsonl);
		const report = await verifyText(edited, traceJsonl);
		expect(report.firstFailure).toBe(
			'audit.jsonl line 14 (seq 14): hash does not match its content'
		);
		expect(report.audit.firstBrokenSeq).toBe(14);
	});

	it('reports a first event that does not start from the genesis hash', async () => {
		const parts = lines(auditJsonl);
		const report = await verifyText(join(parts.slice(1)), traceJsonl);
		expect(report.audit.problem).toBe('audit.jsonl line 1: seq gap: expected seq 1, found 2');
	});

	it.each([' ', '\r', '\t'])('fails when the final newline becomes %j', async (replacement) => {
		const audit = `${auditJsonl.slice(0, -1)}${replacement}`;
		expect((await verifyText(audit, traceJsonl)).ok).toBe(false);
		const trace = `${traceJsonl.slice(0, -1)}${replacement}`;
		expect((await verifyText(auditJsonl, trace)).ok).toBe(false);
	});

	it('reports a line that is not a ledger event', async () => {
		const report = await verifyText('[1,2]\n', '');
		expect(report.audit.problem).toBe('audit.jsonl line 1: the line is not an object');
	});

	it('reports a line rewritten in non-canonical form', async () => {
		const parts = lines(auditJsonl);
		parts[0] = JSON.stringify(JSON.parse(parts[0]!), null, 1).replaceAll('\n', '');
		const report = await verifyText(join(parts), traceJsonl);
		expect(report.audit.problem).toBe(
			'audit.jsonl line 1: not in canonical JSON form (the line was rewritten)'
		);
	});
});

describe('verifyLedger: trace chain and record failures', () => {
	it('reports a trace record whose hash does not match', async () => {
		const edited = traceJsonl.replace('"start_line":1', '"start_line":2');
		const report = await verifyText(auditJsonl, edited);
		expect(report.trace.intact).toBe(false);
		expect(report.trace.problem).toBe('agent_trace.jsonl line 1: hash does not match its content');
		expect(report.trace.invalid[0]?.errors[0]).toMatch(
			/^differs from the trace in audit\.jsonl line 5 \(seq 5\)/
		);
		expect(report.ok).toBe(false);
	});

	it('reports a missing trace record as a broken trace chain', async () => {
		const parts = lines(traceJsonl);
		const report = await verifyText(auditJsonl, join(parts.slice(0, -1)));
		expect(report.trace).toMatchObject({
			intact: false,
			firstBrokenSeq: 5,
			problem: 'agent_trace.jsonl has 4 records but audit.jsonl has 5 mutation-record events'
		});
		expect(report.ok).toBe(false);
	});

	it('reports a removed middle trace record as a seq gap', async () => {
		const parts = lines(traceJsonl);
		parts.splice(1, 1);
		const report = await verifyText(auditJsonl, join(parts));
		expect(report.trace.problem).toBe('agent_trace.jsonl line 2: seq gap: expected seq 2, found 3');
	});

	it('reports records that chain correctly but are not valid Agent Trace', async () => {
		const { audit, trace } = await resealed((drafts) => {
			const mutation = drafts.find((draft) => draft.type === 'mutation-record');
			if (mutation?.type !== 'mutation-record') throw new Error('fixture has a mutation');
			mutation.trace.files[0]!.conversations[0]!.ranges[0]!.start_line = 0;
		});
		const report = await verifyText(audit, trace);
		expect(report.audit.intact).toBe(true);
		expect(report.trace.intact).toBe(true);
		expect(report.trace.invalid).toEqual([
			{
				seq: 1,
				line: 1,
				errors: [
					'files[0].conversations[0].ranges[0].start_line: must be 1 or more (lines are 1-based)'
				]
			}
		]);
		expect(report.ok).toBe(false);
		expect(report.firstFailure).toBe(
			'agent_trace.jsonl line 1 (seq 1): files[0].conversations[0].ranges[0].start_line: must be 1 or more (lines are 1-based)'
		);
	});

	it('reports a trace file from another ledger, though both chains are intact', async () => {
		const { trace } = await resealed((drafts) => {
			const mutation = drafts.findLast((draft) => draft.type === 'mutation-record');
			if (mutation?.type !== 'mutation-record') throw new Error('fixture has a mutation');
			mutation.trace.files[0]!.path = 'src/auth/other.ts';
		});
		const report = await verifyText(auditJsonl, trace);
		expect(report.trace.intact).toBe(true);
		expect(report.trace.invalid).toEqual([
			{ seq: 5, line: 5, errors: ['differs from the trace in audit.jsonl line 22 (seq 22)'] }
		]);
		expect(report.ok).toBe(false);
	});

	it('reports a non-JSON trace line in the chain and in the invalid list', async () => {
		const report = await verifyText(auditJsonl, traceJsonl.replace('{', '{{'));
		expect(report.trace.problem).toMatch(/^agent_trace\.jsonl line 1: not valid JSON/);
		expect(report.trace.invalid[0]).toMatchObject({ seq: null, line: 1 });
	});

	it('reports a record without Threadline chain fields', async () => {
		const report = await verifyText('', '{"version":"0.1.0"}\n');
		expect(report.trace.problem).toBe(
			'agent_trace.jsonl line 1: metadata["dev.threadline"] is not an object'
		);
	});
});

describe('verifyLedger: workspace files', () => {
	function withFile(path: string, content: string | null): Map<string, Uint8Array> {
		const files = new Map(fixture.workspace);
		if (content === null) files.delete(path);
		else files.set(path, encoder.encode(content));
		return files;
	}

	it('reports a file changed after its last record', async () => {
		const report = await verifyText(
			auditJsonl,
			traceJsonl,
			withFile('src/auth/jwt.ts', 'tampered\n')
		);
		expect(report.files.contentMismatches).toEqual(['src/auth/jwt.ts']);
		expect(report.firstFailure).toBe(
			'src/auth/jwt.ts: content differs from its last record (trace seq 5)'
		);
		expect(report.ok).toBe(false);
	});

	it('reports a baseline file changed with no record at all', async () => {
		const { audit, trace } = await withSnapshotFile('docs/guide.md', `sha256:${'0'.repeat(64)}`);
		const report = await verifyText(audit, trace, withFile('docs/guide.md', 'changed'));
		expect(report.files.contentMismatches).toEqual(['docs/guide.md']);
		expect(report.firstFailure).toBe(
			'docs/guide.md: content differs from the workspace snapshot and no recorded change explains it'
		);
	});

	it('accepts an untouched baseline file', async () => {
		const content = 'guide\n';
		const baselineHash = await contentHash(content);
		const { audit, trace } = await withSnapshotFile('docs/guide.md', baselineHash);
		const report = await verifyText(audit, trace, withFile('docs/guide.md', content));
		expect(report.firstFailure).toBeNull();
		expect(report.files.checked).toBe(4);
	});

	it('takes a later snapshot as the new baseline for files no record touched', async () => {
		const content = 'present when the second session started\n';
		const laterSnapshot = {
			type: 'workspace-snapshot',
			session_id: 'session-2',
			// The old baseline's files are gone from this snapshot: they are no longer expected.
			files: { 'notes.txt': await contentHash(content) }
		} satisfies LedgerEventDraft;
		const { audit, trace } = await resealed((drafts) => drafts.push(laterSnapshot));
		const files = new Map(fixture.workspace);
		files.set('notes.txt', encoder.encode(content));
		const report = await verifyText(audit, trace, files);
		expect(report.files).toEqual({
			checked: 4,
			contentMismatches: [],
			unattributed: [],
			missing: [],
			rangeMismatches: [],
			linkProblems: [],
			protectedChanges: []
		});
	});

	it('does not let a later snapshot override a recorded change', async () => {
		const tampered = 'changed outside the ledger, then snapshotted\n';
		const laterSnapshot = {
			type: 'workspace-snapshot',
			session_id: 'session-2',
			files: { 'src/auth/jwt.ts': await contentHash(tampered) }
		} satisfies LedgerEventDraft;
		const { audit, trace } = await resealed((drafts) => drafts.push(laterSnapshot));
		const report = await verifyText(audit, trace, withFile('src/auth/jwt.ts', tampered));
		expect(report.files.contentMismatches).toEqual(['src/auth/jwt.ts']);
	});

	it('reports a file neither in the snapshot nor in any record as unattributed', async () => {
		const report = await verifyText(auditJsonl, traceJsonl, withFile('src/db/x.ts', 'x'));
		expect(report.files.unattributed).toEqual(['src/db/x.ts']);
		expect(report.firstFailure).toBe(
			'src/db/x.ts: not in the starting snapshot and written by no recorded change'
		);
	});

	it('reports a file the ledger says exists but the export lacks', async () => {
		const report = await verifyText(auditJsonl, traceJsonl, withFile('README.md', null));
		expect(report.files.missing).toEqual(['README.md']);
		expect(report.files.checked).toBe(2);
		expect(report.ok).toBe(false);
	});

	it('reports a file that was deleted by its last record but is present', async () => {
		const report = await verifyText(
			auditJsonl,
			traceJsonl,
			withFile('src/legacy.ts', 'module.exports = {};\n')
		);
		expect(report.files.contentMismatches).toEqual(['src/legacy.ts']);
		expect(report.firstFailure).toBe(
			'src/legacy.ts: exists, but its last record (trace seq 3) deleted it'
		);
	});

	it('ignores .orchestration/ files', async () => {
		const files = withFile('.orchestration/intent_map.md', 'anything');
		files.set('.orchestration/audit.jsonl', encoder.encode(auditJsonl));
		const report = await verifyText(auditJsonl, traceJsonl, files);
		expect(report.ok).toBe(true);
		expect(report.files.checked).toBe(3);
	});

	it('reports a last record whose ranges do not match the file it hashes', async () => {
		const content = 'one\ntwo\n';
		const draft = await buildMutationDraft({
			id: fixtureUuid(9),
			path: 'a.ts',
			before: null,
			after: content
		});
		draft.trace.files[0]!.conversations[0]!.ranges[0]!.content_hash =
			await contentHash('something else');
		const events = await new LedgerChain({ clock: steppingClock() }).sealAll([draft]);
		const exported = exportOrchestration({
			events,
			activeIntentsYaml: '',
			agentMd: '',
			intents: []
		});
		const report = await verifyText(
			exported.get('audit.jsonl') as string,
			exported.get('agent_trace.jsonl') as string,
			new Map([['a.ts', encoder.encode(content)]])
		);
		expect(report.files.rangeMismatches).toEqual([{ path: 'a.ts', seq: 1 }]);
		expect(report.firstFailure).toBe(
			"a.ts: a range of its last record (trace seq 1) does not match the file's lines"
		);
		expect(report.ok).toBe(false);
	});

	it('reports a range that reaches past the last line', async () => {
		const content = 'one\ntwo\n';
		const draft = await buildMutationDraft({
			id: fixtureUuid(9),
			path: 'a.ts',
			before: null,
			after: content
		});
		const range = draft.trace.files[0]!.conversations[0]!.ranges[0]!;
		expect([range.start_line, range.end_line]).toEqual([1, 2]);
		range.end_line = 3;
		const events = await new LedgerChain({ clock: steppingClock() }).sealAll([draft]);
		const exported = exportOrchestration({
			events,
			activeIntentsYaml: '',
			agentMd: '',
			intents: []
		});
		const report = await verifyText(
			exported.get('audit.jsonl') as string,
			exported.get('agent_trace.jsonl') as string,
			new Map([['a.ts', encoder.encode(content)]])
		);
		expect(report.files.rangeMismatches).toEqual([{ path: 'a.ts', seq: 1 }]);
	});

	it('checks ranges against LF-joined lines, so a CRLF checkout still matches', async () => {
		const draft = await buildMutationDraft({
			id: fixtureUuid(9),
			path: 'a.ts',
			before: null,
			after: 'one\ntwo\n'
		});
		const crlf = 'one\r\ntwo\r\n';
		draft.trace.metadata['dev.threadline'].file_hash = await contentHash(crlf);
		const events = await new LedgerChain({ clock: steppingClock() }).sealAll([draft]);
		const exported = exportOrchestration({
			events,
			activeIntentsYaml: '',
			agentMd: '',
			intents: []
		});
		const report = await verifyText(
			exported.get('audit.jsonl') as string,
			exported.get('agent_trace.jsonl') as string,
			new Map([['a.ts', encoder.encode(crlf)]])
		);
		expect(report.ok).toBe(true);
	});

	it('does not check files when none are given', async () => {
		const report = await verifyText(auditJsonl, traceJsonl);
		expect(report.files.checked).toBe(0);
		expect(report.ok).toBe(true);
	});
});

describe('verifyLedger: tampering (property)', () => {
	it('fails on any single flipped byte of audit.jsonl or agent_trace.jsonl', async () => {
		const auditBytes = encoder.encode(auditJsonl);
		const traceBytes = encoder.encode(traceJsonl);
		const decoder = new TextDecoder();
		await fc.assert(
			fc.asyncProperty(
				fc.boolean(),
				fc.nat(),
				fc.integer({ min: 1, max: 255 }),
				async (inAudit, position, mask) => {
					const original = inAudit ? auditBytes : traceBytes;
					const flipped = original.slice();
					const at = position % flipped.length;
					flipped[at] = (flipped[at] as number) ^ mask;
					const text = decoder.decode(flipped);
					const report = inAudit
						? await verifyText(text, traceJsonl)
						: await verifyText(auditJsonl, text);
					expect(report.ok).toBe(false);
					expect(report.firstFailure).not.toBeNull();
				}
			),
			{ numRuns: 300 }
		);
	});
});

describe('verifyLedger: classMismatches', () => {
	it('lists them without failing verification', async () => {
		const report = await verifyText(auditJsonl, traceJsonl);
		expect(report.ok).toBe(true);
		expect(report.classMismatches).toHaveLength(1);
		const traces = lines(traceJsonl).map((line) => JSON.parse(line) as AgentTraceRecord);
		expect(
			traces.filter((trace) => trace.metadata['dev.threadline'].declared_mutation_class === null)
		).toHaveLength(1);
	});
});
