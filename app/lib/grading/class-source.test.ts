import { describe, expect, it } from 'vitest';
import { groupExports } from './group-exports.js';
import { classLedgerFiles, classRowName, witnessStatus } from './class-source.js';

const summary = {
	ledger: 'ledger-1',
	learner: { id: 'l1', name: 'Ada' },
	events: 3,
	head_seq: 3,
	head_hash: 'sha256:abc',
	mutations: 1,
	blocked: 0,
	forks: 0,
	model_tool_calls: 2,
	created_at: '2026-11-25T10:00:00.000Z',
	updated_at: '2026-11-25T10:05:00.000Z'
};

describe('classLedgerFiles', () => {
	it('writes the witnessed events as the jsonl pair an export carries, canonical lines', async () => {
		const events = [
			{ type: 'workspace-snapshot', seq: 1, files: {} },
			{ type: 'mutation-record', seq: 2, trace: { version: '0.1.0', id: 't1', files: [] } },
			{ seq: 3, type: 'tool-decision', decision: 'deny' }
		];
		const files = classLedgerFiles(summary, events);
		expect(files.map((file) => file.path)).toEqual([
			'Ada (class ledger ledger-1)/audit.jsonl',
			'Ada (class ledger ledger-1)/agent_trace.jsonl'
		]);
		const audit = await (files[0]?.content as Blob).text();
		expect(audit.split('\n')).toEqual([
			'{"files":{},"seq":1,"type":"workspace-snapshot"}',
			'{"seq":2,"trace":{"files":[],"id":"t1","version":"0.1.0"},"type":"mutation-record"}',
			'{"decision":"deny","seq":3,"type":"tool-decision"}',
			''
		]);
		expect(await (files[1]?.content as Blob).text()).toBe(
			'{"files":[],"id":"t1","version":"0.1.0"}\n'
		);
		// The desk groups them as one jsonl export named after the learner.
		const grouped = groupExports(files);
		expect(grouped.ignored).toEqual([]);
		expect(grouped.sources).toMatchObject([{ kind: 'jsonl', name: 'Ada (class ledger ledger-1)' }]);
	});
});

describe('classRowName', () => {
	it('keeps a hostile display name to one safe folder name', () => {
		const name = classRowName({
			ledger: 'l/../2',
			learner: { id: 'x', name: '../../etc\\passwd\u0000\nnext' }
		});
		expect([...name].some((character) => character < ' ' || '/\\'.includes(character))).toBe(false);
		expect(name).toBe('.. .. etc passwd next (class ledger l .. 2)');
		expect(classRowName({ ledger: 'a', learner: { id: 'x', name: '   ' } })).toBe(
			'learner (class ledger a)'
		);
	});
});

describe('witnessStatus', () => {
	it('says how far the server witnessed and whether it refused rewrites', () => {
		expect(witnessStatus(summary)).toBe('Witnessed up to seq 3 (3 events).');
		expect(witnessStatus({ ...summary, forks: 2 })).toBe(
			'Witnessed up to seq 3 (3 events); refused 2 appends that rewrote what it held.'
		);
		expect(witnessStatus({ ...summary, events: 0, head_seq: 0 })).toBe('Nothing witnessed yet.');
	});
});
