import { describe, expect, it } from 'vitest';
import { checkpointPlan, planSize } from './checkpoint-plan.js';
import { ledgerStatesAfter, sessionChanges } from './file-states.js';
import type { LedgerEvent } from './ledger-event.js';

const hash = (letter: string) => `sha256:${letter.repeat(64)}`;
let seq = 0;
const base = () => ({ seq: ++seq, timestamp: 't', prev_hash: 'p', hash: 'h', session_id: 's' });

function snapshot(files: Record<string, string>): LedgerEvent {
	return { ...base(), type: 'workspace-snapshot', files };
}
function record(path: string, fileHash: string | null, contributor: 'ai' | 'human' = 'ai') {
	return {
		...base(),
		type: 'mutation-record',
		trace: {
			files: [{ path, conversations: [{ contributor: { type: contributor } }] }],
			metadata: { 'dev.threadline': { file_hash: fileHash } }
		}
	} as unknown as LedgerEvent;
}
function folder(path: string, change: 'created' | 'deleted'): LedgerEvent {
	return {
		...base(),
		type: 'folder-change',
		tool: 'execute_command',
		tool_call_id: 'c',
		path,
		change,
		contributor: 'ai'
	};
}
function revert(path: string): LedgerEvent {
	return {
		...base(),
		type: 'change-revert',
		tool: 'execute_command',
		tool_call_id: 'c',
		path,
		code: 'scope_violation'
	};
}
function governance(path: string, fileHash: string): LedgerEvent {
	return { ...base(), type: 'governance-file-write', path, file_hash: fileHash, content: 'x' };
}

function history() {
	seq = 0;
	return [
		{ ...base(), type: 'intent-select', intent_id: 'INT-001', tool_call_id: null } as LedgerEvent,
		snapshot({
			'a.ts': hash('a'),
			'b.ts': hash('b'),
			'.orchestration/active_intents.yaml': hash('i')
		}),
		record('a.ts', hash('c')), // 3: the checkpoint
		record('new.ts', hash('d')),
		folder('made', 'created'),
		revert('src/db/x.ts'),
		record('b.ts', null, 'human'),
		governance('.orchestration/active_intents.yaml', hash('j')),
		record('a.ts', hash('e'), 'human'),
		folder('gone', 'deleted')
	];
}

describe('ledgerStatesAfter', () => {
	it('replays snapshots, records and folder changes up to the event; reverts change nothing', () => {
		const events = history();
		const at3 = ledgerStatesAfter(events, 3);
		expect(Object.fromEntries(at3.files)).toEqual({
			'a.ts': hash('c'),
			'b.ts': hash('b'),
			'.orchestration/active_intents.yaml': hash('i')
		});
		const now = ledgerStatesAfter(events);
		expect(now.files.get('b.ts')).toBeNull();
		expect(now.files.get('new.ts')).toBe(hash('d'));
		expect(now.files.has('src/db/x.ts')).toBe(false);
		expect(Object.fromEntries(now.folders)).toEqual({ made: 'created', gone: 'deleted' });
	});

	it('a later snapshot makes the files it does not list absent', () => {
		seq = 0;
		const events = [snapshot({ 'a.ts': hash('a') }), snapshot({ 'b.ts': hash('b') })];
		expect(Object.fromEntries(ledgerStatesAfter(events).files)).toEqual({
			'a.ts': null,
			'b.ts': hash('b')
		});
	});
});

describe('sessionChanges', () => {
	it('lists net changes since the starting snapshot with who made them', () => {
		const changes = sessionChanges(history());
		expect(changes.baseSeq).toBe(2);
		expect(changes.files).toEqual([
			{
				path: 'a.ts',
				status: 'modified',
				before: hash('a'),
				after: hash('e'),
				lastSeq: 9,
				contributors: ['ai', 'human']
			},
			{
				path: 'b.ts',
				status: 'deleted',
				before: hash('b'),
				after: null,
				lastSeq: 7,
				contributors: ['human']
			},
			{
				path: 'new.ts',
				status: 'new',
				before: null,
				after: hash('d'),
				lastSeq: 4,
				contributors: ['ai']
			}
		]);
		expect(changes.folders).toEqual([
			{ path: 'gone', status: 'deleted', lastSeq: 10 },
			{ path: 'made', status: 'new', lastSeq: 5 }
		]);
	});

	it('leaves out a file changed and changed back, a file made and deleted, a folder made and removed', () => {
		seq = 0;
		const events = [
			snapshot({ 'a.ts': hash('a') }),
			record('a.ts', hash('b')),
			record('a.ts', hash('a')),
			record('tmp.ts', hash('t')),
			record('tmp.ts', null),
			folder('tmp', 'created'),
			folder('tmp', 'deleted')
		];
		expect(sessionChanges(events)).toEqual({ files: [], folders: [], baseSeq: 1 });
	});
});

describe('checkpointPlan', () => {
	it('writes, deletes and folder changes that reach the state after the event; governance files kept', () => {
		const planned = checkpointPlan(history(), 3);
		expect(planned).toEqual({
			ok: true,
			plan: {
				seq: 3,
				writes: [
					{ path: 'a.ts', hash: hash('c') },
					{ path: 'b.ts', hash: hash('b') }
				],
				deletes: ['new.ts'],
				createFolders: ['gone'],
				removeFolders: ['made'],
				kept: ['.orchestration/active_intents.yaml']
			}
		});
		if (planned.ok) expect(planSize(planned.plan)).toBe(5);
	});

	it('plans nothing for the last event', () => {
		const events = history();
		const planned = checkpointPlan(events, events.length);
		expect(planned.ok && planSize(planned.plan)).toBe(0);
	});

	it('refuses an event before the starting snapshot, an unknown event, a ledger without a snapshot', () => {
		const events = history();
		expect(checkpointPlan(events, 1)).toMatchObject({ ok: false });
		expect(checkpointPlan(events, 42)).toMatchObject({
			ok: false,
			reason: expect.stringContaining('42')
		});
		expect(checkpointPlan(events, 2.5)).toMatchObject({ ok: false });
		expect(
			checkpointPlan(
				events.filter((event) => event.type !== 'workspace-snapshot'),
				3
			)
		).toMatchObject({ ok: false });
	});

	it('orders folders to remove deepest first', () => {
		seq = 0;
		const events = [
			snapshot({}),
			folder('x', 'created'),
			folder('x/y', 'created'),
			folder('x/y/z', 'created')
		];
		const planned = checkpointPlan(events, 1);
		expect(planned.ok && planned.plan.removeFolders).toEqual(['x/y/z', 'x/y', 'x']);
	});
});
