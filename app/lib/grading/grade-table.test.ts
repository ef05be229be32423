import { describe, expect, it } from 'vitest';
import type { GradeSummary } from './grade-protocol.js';
import { filterRows, nextSort, sortRows, type GradeRow } from './grade-table.js';
import { classSummary, compareExports } from './class-summary.js';
import { groupExports } from './group-exports.js';

function intent(id: string, blocks: Record<string, number>, status = 'IN_PROGRESS') {
	return {
		intent_id: id,
		name: id,
		status,
		files_touched: [`src/${id}.ts`],
		lines_changed: 1,
		mutations: 1,
		declared: { AST_REFACTOR: 0, INTENT_EVOLUTION: 1 },
		computed: { AST_REFACTOR: 0, INTENT_EVOLUTION: 1 },
		class_mismatches: 0,
		blocked_by_code: blocks,
		approvals: 1,
		rejections: 0,
		lessons: []
	};
}

function graded(
	id: number,
	name: string,
	verified: boolean,
	blocks: Record<string, number>,
	calls: number
): GradeRow {
	const summary = {
		id,
		name,
		kind: 'zip',
		scenarioKey: 'INT-001:INT-001',
		scenarioLabel: 'INT-001 JWT',
		verified,
		filesChecked: true,
		firstFailure: verified ? null : 'audit.jsonl line 3 (seq 3): hash',
		stopSeq: verified ? null : 3,
		chain: { audit: verified, trace: true },
		schemaInvalid: 0,
		contentMismatches: 0,
		unattributed: [],
		missing: 0,
		events: 10,
		report: {
			intents: [intent('INT-001', blocks, verified ? 'COMPLETED' : 'IN_PROGRESS')],
			unassigned: intent('(none)', {}),
			tool_calls: calls,
			sessions: ['a']
		},
		criteria: [],
		classMismatches: 0,
		score: null,
		scenario: null,
		scoreNote: null,
		stepsPassed: []
	} satisfies GradeSummary;
	return { id, name, kind: 'zip', state: 'graded', summary };
}

const rows: GradeRow[] = [
	graded(1, 'carol', true, { scope_violation: 2 }, 9),
	graded(2, 'alice', false, {}, 3),
	{ id: 3, name: 'broken', kind: 'zip', state: 'failed', error: 'not a zip' },
	graded(4, 'Bob', true, { stale_file: 1, scope_violation: 1 }, 5)
];

describe('the grader table', () => {
	it('sorts by name case-insensitively and by numbers, unreadable rows last', () => {
		expect(sortRows(rows, 'name', 'ascending').map((row) => row.name)).toEqual([
			'alice',
			'Bob',
			'broken',
			'carol'
		]);
		expect(sortRows(rows, 'toolCalls', 'descending').map((row) => row.name)).toEqual([
			'carol',
			'Bob',
			'alice',
			'broken'
		]);
		expect(sortRows(rows, 'blocks', 'ascending').map((row) => row.name)).toEqual([
			'alice',
			'carol',
			'Bob',
			'broken'
		]);
		expect(sortRows(rows, 'verdict', 'ascending').map((row) => row.name)).toEqual([
			'alice',
			'carol',
			'Bob',
			'broken'
		]);
	});

	it('flips the direction on the same column and starts ascending on a new one', () => {
		expect(nextSort({ key: 'name', direction: 'ascending' }, 'name')).toEqual({
			key: 'name',
			direction: 'descending'
		});
		expect(nextSort({ key: 'name', direction: 'descending' }, 'score')).toEqual({
			key: 'score',
			direction: 'ascending'
		});
	});

	it('filters by text, verdict and block code', () => {
		const names = (filter: Parameters<typeof filterRows>[1]) =>
			filterRows(rows, filter).map((row) => row.name);
		expect(names({ text: 'AL', verdict: 'all', blockCode: '' })).toEqual(['alice']);
		expect(names({ text: 'jwt', verdict: 'all', blockCode: '' })).toEqual([
			'carol',
			'alice',
			'Bob'
		]);
		expect(names({ text: '', verdict: 'failed', blockCode: '' })).toEqual(['alice']);
		expect(names({ text: '', verdict: 'unreadable', blockCode: '' })).toEqual(['broken']);
		expect(names({ text: '', verdict: 'all', blockCode: 'stale_file' })).toEqual(['Bob']);
	});

	it('summarises the class and compares two exports of the same scenario', () => {
		const summaries = rows.flatMap((row) => (row.state === 'graded' ? [row.summary] : []));
		const summary = classSummary(summaries);
		expect(summary.blockCodes).toEqual([
			{ code: 'scope_violation', exports: 2, total: 3 },
			{ code: 'stale_file', exports: 1, total: 1 }
		]);
		expect(summary.intents).toEqual([{ intentId: 'INT-001', completed: 2 }]);
		const [first, second] = summaries as [GradeSummary, GradeSummary];
		expect(compareExports(first, second)?.codes).toEqual(['scope_violation']);
		expect(compareExports(first, { ...second, scenarioKey: 'other' })).toBeNull();
	});
});

describe('grouping what was dropped', () => {
	it('finds zips, export folders, a class folder and loose jsonl pairs', () => {
		const picked = [
			'class/alice/.orchestration/audit.jsonl',
			'class/alice/.orchestration/agent_trace.jsonl',
			'class/alice/src/a.ts',
			'class/bob.zip',
			'class/bob-notes.txt',
			'loose/audit.jsonl',
			'loose/agent_trace.jsonl',
			'lonely/audit.jsonl'
		].map((path) => ({ path, content: path }));
		const { sources, ignored } = groupExports(picked);
		expect(sources).toEqual([
			{ kind: 'zip', name: 'bob.zip', content: 'class/bob.zip' },
			{
				kind: 'folder',
				name: 'alice',
				files: [
					{ path: '.orchestration/audit.jsonl', content: 'class/alice/.orchestration/audit.jsonl' },
					{
						path: '.orchestration/agent_trace.jsonl',
						content: 'class/alice/.orchestration/agent_trace.jsonl'
					},
					{ path: 'src/a.ts', content: 'class/alice/src/a.ts' }
				]
			},
			{ kind: 'jsonl', name: 'loose', audit: 'loose/audit.jsonl', trace: 'loose/agent_trace.jsonl' }
		]);
		expect(ignored).toEqual([
			'class/bob-notes.txt',
			'lonely/audit.jsonl (no agent_trace.jsonl beside it)'
		]);
	});

	it('takes picked files of one export folder with the folder name', () => {
		const { sources } = groupExports(
			['alice/.orchestration/audit.jsonl', 'alice/.orchestration/agent_trace.jsonl'].map(
				(path) => ({ path, content: 1 })
			)
		);
		expect(sources).toHaveLength(1);
		expect(sources[0]).toMatchObject({ kind: 'folder', name: 'alice' });
	});
});
