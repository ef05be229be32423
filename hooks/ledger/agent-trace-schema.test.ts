/* eslint-disable @typescript-eslint/no-explicit-any -- the tests break records into shapes the types forbid */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentTraceRecord } from './agent-trace-record.js';
import { formatFieldPath, validateTraceRecord } from './agent-trace-schema.js';
import { buildMixedLedger } from './ledger-test-fixtures.js';

let records: AgentTraceRecord[] = [];

beforeAll(async () => {
	const { events } = await buildMixedLedger();
	records = events.flatMap((event) => (event.type === 'mutation-record' ? [event.trace] : []));
});

/** A deep copy of the first fixture record (an AI write with one range), edited by `change`. */
function edited(change: (record: Record<string, any>) => void): unknown {
	const copy = structuredClone(records[0]) as Record<string, any>;
	change(copy);
	return copy;
}

function errorsOf(value: unknown): string[] {
	const result = validateTraceRecord(value);
	return result.ok ? [] : result.errors;
}

const range = 'files[0].conversations[0].ranges[0]';
const links = 'metadata["dev.threadline"]';

describe('validateTraceRecord', () => {
	it('accepts every record the fixture ledger writes (write, refactor, delete, human)', () => {
		expect(records.length).toBe(5);
		for (const record of records) expect(validateTraceRecord(record)).toEqual({ ok: true });
	});

	it.each([
		[
			'version "0.1" (the §6.1 X.Y pattern)',
			(r: any) => (r.version = '0.1'),
			'version: must be a version like 0.1.0'
		],
		['a non-UUID id', (r: any) => (r.id = 'abc'), 'id: must be a UUID'],
		[
			'a timestamp without zone',
			(r: any) => (r.timestamp = '2026-11-21T12:00:00'),
			'timestamp: must be an RFC 3339 date-time'
		],
		[
			'an absolute path',
			(r: any) => (r.files[0].path = '/etc/passwd'),
			'files[0].path: must be relative to the repository root (no leading "/")'
		],
		[
			'a path escaping the root',
			(r: any) => (r.files[0].path = 'src/../../x'),
			'files[0].path: must not contain ".." segments'
		],
		['an empty path', (r: any) => (r.files[0].path = ''), 'files[0].path: must not be empty'],
		[
			'a conversation url that is not a URI',
			(r: any) => (r.files[0].conversations[0].url = 'session 1'),
			'files[0].conversations[0].url: must be a URI with a scheme, e.g. urn:threadline:session:<id>'
		],
		[
			'an unknown contributor type',
			(r: any) => (r.files[0].conversations[0].contributor.type = 'robot'),
			'files[0].conversations[0].contributor.type: must be one of ai, human, mixed, unknown'
		],
		[
			'a model id over 250 characters',
			(r: any) => (r.files[0].conversations[0].contributor.model_id = 'x'.repeat(251)),
			'files[0].conversations[0].contributor.model_id: must be at most 250 characters'
		],
		[
			'line 0',
			(r: any) => (r.files[0].conversations[0].ranges[0].start_line = 0),
			`${range}.start_line: must be 1 or more (lines are 1-based)`
		],
		[
			'line -1',
			(r: any) => (r.files[0].conversations[0].ranges[0].end_line = -1),
			`${range}.end_line: must be 1 or more (lines are 1-based)`
		],
		[
			'a fractional line',
			(r: any) => (r.files[0].conversations[0].ranges[0].start_line = 1.5),
			`${range}.start_line: must be an integer`
		],
		[
			'end before start',
			(r: any) =>
				Object.assign(r.files[0].conversations[0].ranges[0], { start_line: 3, end_line: 2 }),
			`${range}.end_line: end_line must not be before start_line`
		],
		[
			'a non-sha256 content hash',
			(r: any) => (r.files[0].conversations[0].ranges[0].content_hash = 'murmur3:9f2e8a1b'),
			`${range}.content_hash: must be "sha256:" followed by 64 lowercase hex digits`
		],
		[
			'a related url that is not a URI',
			(r: any) => (r.files[0].conversations[0].related[0].url = 'INT-001'),
			'files[0].conversations[0].related[0].url: must be a URI with a scheme, e.g. urn:threadline:session:<id>'
		],
		[
			'a related item without url',
			(r: any) => delete r.files[0].conversations[0].related[0].url,
			'files[0].conversations[0].related[0].url: is required'
		],
		['a missing files array', (r: any) => delete r.files, 'files: is required'],
		[
			'missing Threadline metadata',
			(r: any) => delete r.metadata['dev.threadline'],
			`${links}: is required`
		],
		[
			'trace seq 0',
			(r: any) => (r.metadata['dev.threadline'].seq = 0),
			`${links}.seq: must be 1 or more (lines are 1-based)`
		],
		[
			'an unknown mutation class',
			(r: any) => (r.metadata['dev.threadline'].mutation_class = 'REWRITE'),
			`${links}.mutation_class: must be one of AST_REFACTOR, INTENT_EVOLUTION`
		],
		[
			'a write without file hash',
			(r: any) => (r.metadata['dev.threadline'].file_hash = null),
			`${links}.file_hash: must be the written file's hash when operation is write`
		],
		[
			'an unexpected top-level field',
			(r: any) => (r.extra = 1),
			'(record): unexpected field "extra"'
		],
		['another tool name', (r: any) => (r.tool.name = 'cursor'), 'tool.name: must be "threadline"']
	])('rejects %s with a message naming the field', (_name, change, message) => {
		expect(errorsOf(edited(change))).toContain(message);
	});

	it('rejects a deletion that still has a file hash or ranges', () => {
		const deletion = structuredClone(records[2]) as Record<string, any>;
		expect(deletion.metadata['dev.threadline'].operation).toBe('delete');
		deletion.metadata['dev.threadline'].file_hash = `sha256:${'a'.repeat(64)}`;
		deletion.files[0].conversations[0].ranges = [
			{ start_line: 1, end_line: 1, content_hash: `sha256:${'b'.repeat(64)}` }
		];
		expect(errorsOf(deletion)).toEqual([
			`${links}.file_hash: must be null when operation is delete`,
			'files[0].conversations[0].ranges: must be empty for a deletion'
		]);
	});

	it("accepts other vendors' metadata, a vcs revision and offsets in timestamps", () => {
		const value = edited((r) => {
			r.metadata['dev.cursor'] = { workspace_id: 'ws' };
			r.vcs = { type: 'git', revision: 'a1b2c3' };
			r.timestamp = '2026-11-21T13:00:00+01:00';
		});
		expect(validateTraceRecord(value)).toEqual({ ok: true });
	});

	it('reports non-objects plainly', () => {
		expect(errorsOf(null)).toEqual(['(record): Invalid input: expected object, received null']);
		expect(errorsOf('text').length).toBe(1);
	});
});

describe('formatFieldPath', () => {
	it('writes identifiers with dots, indexes and other keys in brackets', () => {
		expect(formatFieldPath([])).toBe('(record)');
		expect(formatFieldPath(['files', 0, 'path'])).toBe('files[0].path');
		expect(formatFieldPath(['metadata', 'dev.threadline', 'seq'])).toBe(
			'metadata["dev.threadline"].seq'
		);
	});
});

describe('agent-trace-0.1.0.schema.json (independent check with ajv)', () => {
	const schema = JSON.parse(
		readFileSync(new URL('./agent-trace-0.1.0.schema.json', import.meta.url), 'utf8')
	) as Record<string, unknown>;
	const ajv = new Ajv2020({ strict: true, allErrors: true });
	addFormats.default(ajv);
	const validate = ajv.compile(schema);

	it('cites its source and keeps the spec structure', () => {
		expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
		expect(schema.required).toEqual(['version', 'id', 'timestamp', 'files']);
		expect(Object.keys(schema.$defs as object).sort()).toEqual(
			['contributor', 'conversation', 'file', 'range', 'tool', 'vcs'].sort()
		);
		expect(schema.$comment).toMatch(/cursor\/agent-trace README §6\.1/);
		expect(schema.$comment).toMatch(/CC BY 4\.0/);
	});

	it('accepts every record Threadline writes', () => {
		for (const record of records) {
			const valid = validate(record);
			expect(validate.errors ?? []).toEqual([]);
			expect(valid).toBe(true);
		}
	});

	it("accepts the spec's own example record (§6.2) and its minimal record (Appendix A)", () => {
		const minimal = {
			version: '0.1.0',
			id: '550e8400-e29b-41d4-a716-446655440000',
			timestamp: '2026-01-25T10:00:00Z',
			files: [
				{
					path: 'src/app.ts',
					conversations: [
						{ contributor: { type: 'ai' }, ranges: [{ start_line: 1, end_line: 50 }] }
					]
				}
			]
		};
		expect(validate(minimal)).toBe(true);
	});

	it('rejects what the spec rejects, so it is a real check', () => {
		expect(validate(edited((r) => (r.files[0].conversations[0].ranges[0].start_line = 0)))).toBe(
			false
		);
		expect(validate(edited((r) => (r.id = 'not-a-uuid')))).toBe(false);
		expect(validate(edited((r) => (r.version = '1.0')))).toBe(false);
		expect(validate(edited((r) => (r.files[0].conversations[0].url = 'no scheme')))).toBe(false);
		expect(validate(edited((r) => delete r.files))).toBe(false);
	});
});
