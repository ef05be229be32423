import { beforeAll, describe, expect, it } from 'vitest';
import { countLedgerParts, guessLedgerParts, planLedgerParts } from './ledger-parts.js';
import { buildMixedLedger, resealedExport } from './ledger-test-fixtures.js';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A canonical-looking audit line: a mutation record ends with its type, as the export writes it. */
const event = (seq: number, mutation: boolean) =>
	`{"seq":${seq},"type":"${mutation ? 'mutation-record' : 'intent-select'}"}\n`;

describe('countLedgerParts', () => {
	it('cuts both files at line starts, the trace after as many lines as mutation records before', () => {
		const kinds = [true, false, true, true, false, false, true, false, true, true];
		const audit = encode(kinds.map((mutation, index) => event(index + 1, mutation)).join(''));
		const trace = encode(
			kinds
				.filter(Boolean)
				.map((_, index) => `{"trace":${index + 1}}\n`)
				.join('')
		);
		const parts = countLedgerParts(audit, trace, 3);
		expect(parts.length).toBe(3);
		expect(parts[0]?.audit[0]).toBe(0);
		expect(parts.at(-1)?.audit[1]).toBe(audit.length);
		expect(parts.at(-1)?.trace[1]).toBe(trace.length);
		let auditLines = 0;
		let traceLines = 0;
		for (const [index, part] of parts.entries()) {
			if (index > 0) {
				expect(part.audit[0]).toBe(parts[index - 1]?.audit[1]);
				expect(part.trace[0]).toBe(parts[index - 1]?.trace[1]);
				expect(audit[part.audit[0] - 1]).toBe(10);
			}
			expect(part.placement).toEqual({
				auditLinesBefore: auditLines,
				traceLinesBefore: traceLines,
				first: index === 0,
				last: index === parts.length - 1
			});
			const auditText = decode(audit.subarray(...part.audit));
			const records = auditText.split('\n').filter((line) => line.includes('mutation-record'));
			const traceText = decode(trace.subarray(...part.trace));
			// Each part holds the trace lines its own mutation records pull.
			expect(traceText.split('\n').filter(Boolean).length).toBe(records.length);
			auditLines += auditText.split('\n').length - 1;
			traceLines += traceText.split('\n').length - 1;
		}
	});

	it('counts empty trace lines and lone-CR lines as lines, not as records', () => {
		const audit = encode(
			[true, true, true, true].map((mutation, i) => event(i + 1, mutation)).join('')
		);
		const trace = encode('{"t":1}\n\n\r\n{"t":2}\r\n{"t":3}\n{"t":4}\n');
		const parts = countLedgerParts(audit, trace, 2);
		expect(parts.length).toBe(2);
		expect(decode(trace.subarray(...(parts[0]?.trace ?? [0, 0])))).toBe(
			'{"t":1}\n\n\r\n{"t":2}\r\n'
		);
		expect(parts[1]?.placement.traceLinesBefore).toBe(4);
	});

	it('gives a later part no trace lines when the trace runs out first', () => {
		const audit = encode(
			[true, true, true, true].map((mutation, i) => event(i + 1, mutation)).join('')
		);
		const trace = encode('{"t":1}\n');
		const parts = countLedgerParts(audit, trace, 2);
		expect(parts[1]?.trace).toEqual([trace.length, trace.length]);
	});

	it('keeps one part when the audit log has no line break to cut at', () => {
		expect(countLedgerParts(encode(event(1, true).trim()), encode(''), 4)).toEqual([
			{
				audit: [0, event(1, true).trim().length],
				trace: [0, 0],
				placement: { auditLinesBefore: 0, traceLinesBefore: 0, first: true, last: true }
			}
		]);
	});
});

describe('guessLedgerParts', () => {
	let audit: string;
	let trace: string;

	beforeAll(async () => {
		const exported = await resealedExport((await buildMixedLedger()).events, () => {});
		audit = exported.audit;
		trace = exported.trace;
		expect(trace.split('\n').filter(Boolean).length).toBeGreaterThan(3);
	});

	it('guesses, for an export, exactly the cuts counting its lines finds, in any number of parts', () => {
		for (const lineEnd of ['\n', '\r\n']) {
			const auditBytes = encode(audit.replaceAll('\n', lineEnd));
			const traceBytes = encode(trace.replaceAll('\n', lineEnd));
			for (let count = 2; count <= 16; count++) {
				const guessed = guessLedgerParts(auditBytes, traceBytes, count);
				expect(guessed, `${count} parts, ${JSON.stringify(lineEnd)}`).toEqual(
					countLedgerParts(auditBytes, traceBytes, count)
				);
				expect(guessed?.length).toBeGreaterThan(1);
			}
		}
	});

	it('gives up, for the lines to be counted, where a line at a cut is not an event with a seq', () => {
		const withoutSeqs = encode(audit.replaceAll('"seq":', '"sequence":'));
		expect(guessLedgerParts(withoutSeqs, encode(trace), 4)).toBeNull();
		expect(planLedgerParts(withoutSeqs, encode(trace), 4)).toEqual(
			countLedgerParts(withoutSeqs, encode(trace), 4)
		);
		expect(guessLedgerParts(encode(audit), encode('not json\n'.repeat(40)), 4)).toBeNull();
	});

	it('reads no line over 64 KB: a trace of huge lines makes it give up, not parse them again and again', () => {
		const huge = trace
			.split('\n')
			.filter(Boolean)
			.map((line) => line.replace('{', `{"padding":"${'x'.repeat(70_000)}",`))
			.join('\n');
		expect(guessLedgerParts(encode(audit), encode(huge), 4)).toBeNull();
		expect(planLedgerParts(encode(audit), encode(huge), 4)).toEqual(
			countLedgerParts(encode(audit), encode(huge), 4)
		);
	});

	it('gives every trace line to the parts before a last part without mutation records', () => {
		const lines = audit.split('\n').filter(Boolean);
		// Events after the last mutation record, enough for a part of their own.
		const tail = Array.from({ length: lines.length }, (_, index) =>
			JSON.stringify({
				note: 'x'.repeat(2_000),
				seq: lines.length + index + 1,
				type: 'intent-select'
			})
		);
		const auditBytes = encode([...lines, ...tail].join('\n') + '\n');
		const traceBytes = encode(trace);
		const parts = guessLedgerParts(auditBytes, traceBytes, 4);
		expect(parts).toEqual(countLedgerParts(auditBytes, traceBytes, 4));
		expect(parts?.at(-1)?.trace).toEqual([traceBytes.length, traceBytes.length]);
	});
});
