import { describe, expect, it } from 'vitest';
import { groupExports } from './group-exports.js';
import { listClassLedgers } from '../class/class-ledgers.js';
import {
	classLedgerFiles,
	classRowName,
	classServerBase,
	fetchWitnessedLedgers,
	witnessStatus
} from './class-source.js';

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

	it('names histories it refused as copies and a ledger the learner left behind', () => {
		expect(witnessStatus({ ...summary, copies: 1, abandoned: true })).toBe(
			"Witnessed up to seq 3 (3 events); refused 1 history another ledger already held (a rewrite or another learner's); abandoned: the learner has a later ledger for this scenario."
		);
	});
});

describe('classServerBase', () => {
	it('takes this app (empty) or an http(s) address, and nothing else', () => {
		expect(classServerBase('  ')).toEqual({ ok: true, base: '' });
		expect(classServerBase('https://class.example.org/')).toEqual({
			ok: true,
			base: 'https://class.example.org'
		});
		expect(classServerBase('http://10.0.0.5:3000/threadline/')).toEqual({
			ok: true,
			base: 'http://10.0.0.5:3000/threadline'
		});
		for (const refused of [
			'class.example.org',
			'javascript:alert(1)',
			'file:///etc/passwd',
			'https://user:pw@class.example.org',
			'https://class.example.org/?token=x'
		])
			expect(classServerBase(refused).ok, refused).toBe(false);
	});
});

const json = (status: number, body: unknown) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('listClassLedgers against answers a grader may meet', () => {
	it('says what the server said when it refuses the token', async () => {
		const fetcher = async () =>
			json(403, { error: 'only the instructor token may read the class’s ledgers' });
		await expect(listClassLedgers('https://c.example', 'wrong', fetcher)).rejects.toThrow(
			'https://c.example refused (403): only the instructor token may read the class’s ledgers.'
		);
	});

	it('says class mode is off on a 404 without a body', async () => {
		const fetcher = async () => new Response('not found', { status: 404 });
		await expect(listClassLedgers('', 't', fetcher)).rejects.toThrow(/class mode is off there/);
	});

	it('refuses an answer that is not a ledger listing (another server, a captive portal)', async () => {
		for (const body of [
			{ ledgers: 'x' },
			{ ledgers: [{ ledger: 1 }] },
			{ ledgers: [{ ...summary, learner: null }] }
		]) {
			await expect(listClassLedgers('', 't', async () => json(200, body))).rejects.toThrow(
				/is it a Threadline class server/
			);
		}
	});
});

describe('fetchWitnessedLedgers', () => {
	it('fetches one ledger at a time, names the ones that fail, and keeps the rest', async () => {
		let inFlight = 0;
		let most = 0;
		const requested: string[] = [];
		const fetcher: typeof fetch = async (input, init) => {
			requested.push(String(input));
			expect(new Headers(init?.headers).get('authorization')).toBe('Bearer tok');
			inFlight += 1;
			most = Math.max(most, inFlight);
			await new Promise((resolve) => setTimeout(resolve, 5));
			inFlight -= 1;
			if (String(input).includes('broken')) return json(200, { events: 'nope' });
			return json(200, { events: [{ seq: 1, type: 'workspace-snapshot', files: {} }] });
		};
		const progress: string[] = [];
		const result = await fetchWitnessedLedgers(
			'https://c.example',
			'tok',
			[summary, { ...summary, ledger: 'broken', learner: { id: 'l2', name: 'Grace' } }],
			(done, total) => progress.push(`${done}/${total}`),
			fetcher
		);
		expect(most).toBe(1);
		expect(requested).toEqual([
			'https://c.example/api/class/ledgers/ledger-1/events',
			'https://c.example/api/class/ledgers/broken/events'
		]);
		expect(result.added).toBe(1);
		expect(result.files.map((file) => file.path)).toEqual([
			'Ada (class ledger ledger-1)/audit.jsonl',
			'Ada (class ledger ledger-1)/agent_trace.jsonl'
		]);
		expect(result.failed).toEqual([
			"Grace: https://c.example did not answer with the ledger's events."
		]);
		expect(progress).toEqual(['0/2', '1/2', '2/2']);
	});
});
