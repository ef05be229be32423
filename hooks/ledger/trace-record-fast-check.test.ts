/* eslint-disable @typescript-eslint/no-explicit-any -- the tests break records into shapes the types forbid */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentTraceRecord } from './agent-trace-record.js';
import { validateTraceRecord } from './agent-trace-schema.js';
import { buildMixedLedger } from './ledger-test-fixtures.js';
import { surelyValidTraceRecord } from './trace-record-fast-check.js';

let records: AgentTraceRecord[] = [];

beforeAll(async () => {
	const { events } = await buildMixedLedger();
	records = events.flatMap((event) => (event.type === 'mutation-record' ? [event.trace] : []));
});

/** Every path to a member or element of `value` (objects and arrays), e.g. ['files', 0, 'path']. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
	if (typeof value !== 'object' || value === null) return [];
	const paths: (string | number)[][] = [];
	for (const key of Object.keys(value)) {
		const path = [...prefix, Array.isArray(value) ? Number(key) : key];
		paths.push(path, ...pathsOf((value as any)[key], path));
	}
	return paths;
}

function holderOf(root: any, path: (string | number)[]): any {
	let holder = root;
	for (const key of path.slice(0, -1)) holder = holder[key];
	return holder;
}

const odd = [
	null,
	'',
	'/abs',
	'a/../b',
	'0.1',
	'x'.repeat(251),
	0,
	-1,
	1.5,
	2 ** 53,
	true,
	[],
	{},
	'sha256:ABC',
	'delete',
	'write',
	'INTENT_EVOLUTION',
	'not a uri',
	'2026-11-21T12:00:00',
	'ai'
];

describe('surelyValidTraceRecord', () => {
	it('is sure of every record the fixture ledger writes (write, refactor, delete, human)', () => {
		for (const record of records) expect(surelyValidTraceRecord(record)).toBe(true);
	});

	it('is never looser than the schema: sure ⇒ the schema accepts (one member changed, removed or added)', () => {
		const edit = fc.record({
			record: fc.nat(),
			path: fc.nat(),
			action: fc.constantFrom('set', 'delete', 'add'),
			value: fc.oneof(fc.constantFrom(...odd), fc.anything())
		});
		fc.assert(
			fc.property(edit, ({ record: recordIndex, path: pathIndex, action, value }) => {
				const record = structuredClone(records[recordIndex % records.length]) as any;
				const paths = pathsOf(record);
				const path = paths[pathIndex % paths.length] as (string | number)[];
				const holder = holderOf(record, path);
				const key = path.at(-1) as string | number;
				if (action === 'set') holder[key] = value;
				else if (action === 'delete') {
					if (Array.isArray(holder)) holder.splice(Number(key), 1);
					else delete holder[key];
				} else if (!Array.isArray(holder)) holder[`extra_${String(key)}`] = value;
				if (surelyValidTraceRecord(record))
					expect(validateTraceRecord(record)).toEqual({ ok: true });
			}),
			{ numRuns: 3_000 }
		);
	});

	it.each([
		[
			'a deletion with a file hash',
			(r: any) => (r.metadata['dev.threadline'].operation = 'delete')
		],
		['a write without a file hash', (r: any) => (r.metadata['dev.threadline'].file_hash = null)],
		[
			'end_line before start_line',
			(r: any) => (r.files[0].conversations[0].ranges[0].start_line = 99)
		],
		['a path with ..', (r: any) => (r.files[0].path = 'src\\..\\x')],
		['an unsafe integer seq', (r: any) => (r.metadata['dev.threadline'].seq = 2 ** 53)],
		['a class prototype object', (r: any) => (r.tool = new (class Tool {})())],
		['an uppercase uuid variant out of range', (r: any) => (r.id = 'ZZZ')],
		['a vcs with no revision', (r: any) => (r.vcs = { type: 'git' })]
	])('is not sure of %s, and the schema rejects it', (_name, change) => {
		const record = structuredClone(records[0]) as any;
		change(record);
		expect(surelyValidTraceRecord(record)).toBe(false);
		expect(validateTraceRecord(record).ok).toBe(false);
	});
});
