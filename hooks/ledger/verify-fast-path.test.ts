import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonPair, lineForm } from './canonical-json.js';
import { exportOrchestration } from './export.js';
import { LedgerChain } from './ledger-chain.js';
import { buildMixedLedger, steppingClock } from './ledger-test-fixtures.js';
import { verifyLedger } from './verify.js';

// The fast paths of verify (a line proven canonical without writing it again, the trace line taken
// from its audit event, the hash member cut out of the text, the chunked reader) must reject
// everything the plain path rejects. The rewrites below keep each line parse-equal, so its hash
// still matches: only the canonical-form check can catch them.

let audit: string[];
let trace: string[];

beforeAll(async () => {
	const { events } = await buildMixedLedger();
	const files = exportOrchestration({ events, activeIntentsYaml: '', agentMd: '', intents: [] });
	audit = (files.get('audit.jsonl') as string).trimEnd().split('\n');
	trace = (files.get('agent_trace.jsonl') as string).trimEnd().split('\n');
});

const join = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');

function reorderTopLevel(line: string): string {
	const value = JSON.parse(line) as Record<string, unknown>;
	return JSON.stringify(Object.fromEntries(Object.entries(value).reverse()));
}

const rewrites: [string, (line: string) => string][] = [
	['a space after {', (line) => line.replace('{"', '{ "')],
	['a space after a colon', (line) => line.replace('":', '": ')],
	['keys in another order', reorderTopLevel],
	['a key written with a unicode escape', (line) => line.replace('"seq":', '"\\u0073eq":')],
	[
		'a value letter written with a unicode escape',
		(line) => line.replace(':"sha256:', ':"\\u0073ha256:')
	],
	['an escaped slash', (line) => line.replace('/', '\\/')],
	['a number written as 2.0', (line) => line.replace(/"seq":(\d+)/, '"seq":$1.0')],
	['a number written with an exponent', (line) => line.replace(/"seq":(\d+)/, '"seq":$1e0')],
	[
		'a duplicate key whose later value wins',
		(line) => `{${JSON.stringify(Object.keys(JSON.parse(line) as object)[0])}:0,${line.slice(1)}`
	],
	['a CR inside the line', (line) => line.replace('{"', '{\r"')],
	['a tab at the end of the line', (line) => `${line}\t`]
];

describe('verify rejects a rewritten but parse-equal line', () => {
	it.each(rewrites)('in audit.jsonl: %s', async (_name, rewrite) => {
		const lines = [...audit];
		// The first line after the snapshot that the rewrite changes (an escaped slash needs a "/").
		const index = lines.findIndex((line, position) => position > 0 && rewrite(line) !== line);
		const changed = rewrite(lines[index] as string);
		expect(JSON.parse(changed)).toEqual(JSON.parse(lines[index] as string));
		lines[index] = changed;
		const report = await verifyLedger({ auditJsonl: join(lines), traceJsonl: join(trace) });
		expect(report.ok).toBe(false);
		expect(report.firstFailure).toBe(
			`audit.jsonl line ${index + 1} (seq ${index + 1}): not in canonical JSON form (the line was rewritten)`
		);
	});

	it.each(rewrites)('in agent_trace.jsonl: %s', async (_name, rewrite) => {
		const lines = [...trace];
		const changed = rewrite(lines[0] as string);
		expect(changed).not.toBe(lines[0]);
		expect(JSON.parse(changed)).toEqual(JSON.parse(lines[0] as string));
		lines[0] = changed;
		const report = await verifyLedger({ auditJsonl: join(audit), traceJsonl: join(lines) });
		expect(report.ok).toBe(false);
		expect(report.trace.problem).toBe(
			'agent_trace.jsonl line 1: not in canonical JSON form (the line was rewritten)'
		);
	});

	it('also when the files arrive as byte chunks cut inside lines and CRLF pairs', async () => {
		const lines = [...audit];
		lines[4] = (lines[4] as string).replace('{"', '{ "');
		const bytes = new TextEncoder().encode(lines.map((line) => `${line}\r\n`).join(''));
		const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, index) =>
			bytes.subarray(index * 7, index * 7 + 7)
		);
		const report = await verifyLedger({ auditJsonl: chunks, traceJsonl: [join(trace)] });
		expect(report.firstFailure).toBe(
			'audit.jsonl line 5 (seq 5): not in canonical JSON form (the line was rewritten)'
		);
		const untouched = new TextEncoder().encode(audit.map((line) => `${line}\r\n`).join(''));
		const good = await verifyLedger({
			auditJsonl: Array.from({ length: Math.ceil(untouched.length / 5) }, (_, index) =>
				untouched.subarray(index * 5, index * 5 + 5)
			),
			traceJsonl: join(trace)
		});
		expect(good.ok).toBe(true);
	});

	it('reports a number with no JSON form (1e999) instead of throwing', async () => {
		const lines = [...audit];
		lines[1] = (lines[1] as string).replace('{"', '{"big":1e999,"');
		const report = await verifyLedger({ auditJsonl: join(lines), traceJsonl: join(trace) });
		expect(report.ok).toBe(false);
		expect(report.firstFailure).toContain('audit.jsonl line 2 (seq 2): has no canonical JSON form');
	});
});

describe('verify accepts canonical lines the fast path cannot prove', () => {
	it('integer-like keys (objects list them first, canonical JSON sorts them as text)', async () => {
		const chain = new LedgerChain({ clock: steppingClock() });
		const events = await chain.sealAll([
			{
				type: 'lesson',
				session_id: 's',
				intent_id: null,
				text: 'numbers',
				extra: { '10': 1, '9': 2, b: { '2': 'x', '1': 'y' } }
			} as never
		]);
		const files = exportOrchestration({ events, activeIntentsYaml: '', agentMd: '', intents: [] });
		const text = files.get('audit.jsonl') as string;
		expect(text).toContain('{"10":1,"9":2');
		const report = await verifyLedger({ auditJsonl: text, traceJsonl: '' });
		expect(report.firstFailure).toBeNull();
	});
});

describe('lineForm', () => {
	const omitPaths: string[][] = [['hash'], ['metadata', 'dev.threadline', 'hash'], ['a']];
	const jsonObject = fc.dictionary(
		fc.oneof(fc.string(), fc.constantFrom('hash', 'a', '1', '10', '__proto__')),
		fc.jsonValue()
	);

	it('says exactly what writing the canonical text says, for canonical and other texts', () => {
		fc.assert(
			fc.property(
				jsonObject,
				fc.constantFrom(...omitPaths),
				fc.boolean(),
				fc.oneof(fc.string(), fc.constant('sha256:x')),
				(object, omitPath, canonicalText, hash) => {
					const value = JSON.parse(JSON.stringify({ ...object, hash })) as unknown;
					const text = canonicalText ? canonicalJson(value) : JSON.stringify(value);
					const reference = canonicalJsonPair(value, omitPath);
					const form = lineForm(text, value, omitPath);
					expect(form.canonical).toBe(reference.full === text);
					expect(form.without).toBe(reference.without);
				}
			),
			{ numRuns: 2_000 }
		);
	});

	it('cuts the right member when the same hash member also sits deeper', () => {
		const value = { a: { hash: 'sha256:x' }, hash: 'sha256:x', z: [{ hash: 'sha256:x' }] };
		const text = canonicalJson(value);
		expect(lineForm(text, value, ['hash'])).toEqual({
			canonical: true,
			without: canonicalJsonPair(value, ['hash']).without,
			fast: true
		});
	});
});
