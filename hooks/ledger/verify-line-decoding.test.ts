import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LineDecoding } from '../bytes/line-decoding.js';
import { buildMixedLedger, mixedExportBytes, resealedExport } from './ledger-test-fixtures.js';
import { tamperArbitrary, tampered } from './ledger-tamper.js';
import { verifyLedger, type VerifyReport } from './verify.js';

/**
 * Verify gives one report whichever way its lines are decoded, by TextDecoder or as slices of their
 * chunk's text (hooks/bytes/line-decoding.ts): checked on tampered copies of a ledger with non-ASCII lines, read
 * in small chunks so that lines and UTF-8 sequences are cut across them.
 */

let audit: Uint8Array;
let trace: Uint8Array;

beforeAll(async () => {
	// Every other event from a session whose name is not ASCII, so both decodings are exercised.
	({ audit, trace } = await mixedExportBytes(2));
});

/**
 * Small chunks cut lines and UTF-8 sequences across them (those lines are glued together); whole
 * files keep every line in one chunk, where an ASCII line's hash is computed from its own bytes.
 */
function verifyWith(
	auditBytes: Uint8Array,
	traceBytes: Uint8Array,
	decoding: LineDecoding,
	chunking: 'small' | 'whole' = 'small'
): Promise<VerifyReport> {
	return verifyLedger({
		auditJsonl: chunking === 'small' ? chunks(auditBytes, 97) : [auditBytes],
		traceJsonl: chunking === 'small' ? chunks(traceBytes, 61) : [traceBytes],
		lineDecoding: decoding
	});
}

function* chunks(bytes: Uint8Array, size: number): Generator<Uint8Array> {
	for (let start = 0; start < bytes.length; start += size)
		yield bytes.subarray(start, start + size);
}

describe('verify decoding ASCII lines as slices of their chunk gives TextDecoder’s report', () => {
	it('on the untouched ledger, ASCII and non-ASCII lines alike', async () => {
		const expected = await verifyWith(audit, trace, 'text-decoder');
		expect(expected.ok).toBe(true);
		expect(expected.audit.events).toBeGreaterThan(4);
		expect(await verifyWith(audit, trace, 'ascii-chunks')).toEqual(expected);
		expect(await verifyWith(audit, trace, 'ascii-chunks', 'whole')).toEqual(expected);
	});

	it('on tampered copies of either file', async () => {
		await fc.assert(
			fc.asyncProperty(fc.boolean(), tamperArbitrary, async (inAudit, tamper) => {
				const auditBytes = inAudit ? tampered(audit, tamper) : audit;
				const traceBytes = inAudit ? trace : tampered(trace, tamper);
				const expected = await verifyWith(auditBytes, traceBytes, 'text-decoder');
				expect(await verifyWith(auditBytes, traceBytes, 'ascii-chunks')).toEqual(expected);
				expect(await verifyWith(auditBytes, traceBytes, 'ascii-chunks', 'whole')).toEqual(expected);
			}),
			{ numRuns: 250 }
		);
	}, 60_000);

	it('on a line whose prev_hash is written with escapes (ASCII bytes, non-ASCII text)', async () => {
		// The link to the previous line breaks before any hash is computed, the same either way.
		const lines = new TextDecoder().decode(audit).split('\n').filter(Boolean);
		for (const [index, replacement] of [
			[1, '"prev_hash":"sha256:\\u00e9"'],
			[2, '"prev_hash":"\\ud83d\\ude00"']
		] as const) {
			const edited = [...lines];
			edited[index] = edited[index]!.replace(/"prev_hash":"[^"]*"/, replacement);
			const bytes = new TextEncoder().encode(edited.map((line) => `${line}\n`).join(''));
			const expected = await verifyWith(bytes, trace, 'text-decoder');
			expect(expected.ok).toBe(false);
			expect(await verifyWith(bytes, trace, 'ascii-chunks', 'whole')).toEqual(expected);
		}
	});
});

describe('verify refuses a line whose bytes are not valid UTF-8, whichever way it decodes', () => {
	it('in either file, though the text reads the same as the line that was sealed', async () => {
		const fixture = await buildMixedLedger();
		// U+FFFD is written as EF BF BD; a lone FF byte decodes to the same text.
		const exported = await resealedExport(fixture.events, (drafts) => {
			for (const draft of drafts) {
				draft.session_id = 'session-\ufffd';
				if (draft.type === 'mutation-record')
					(draft.trace.metadata['dev.threadline'] as { session_id: string }).session_id =
						'session-\ufffd';
			}
		});
		const encoder = new TextEncoder();
		const sealed = [encoder.encode(exported.audit), encoder.encode(exported.trace)] as const;
		const untouched = await verifyWith(sealed[0], sealed[1], 'text-decoder');
		expect(untouched.ok).toBe(true);
		for (const file of [0, 1] as const) {
			const bytes = sealed[file].slice();
			// The first U+FFFD after the first line (a trace names the session in its urn).
			let at = -1;
			for (let index = bytes.indexOf(10) + 1; index + 2 < bytes.length && at < 0; index++)
				if (bytes[index] === 0xef && bytes[index + 1] === 0xbf && bytes[index + 2] === 0xbd)
					at = index;
			expect(at, `a U+FFFD in file ${file}`).toBeGreaterThan(0);
			const edited = Uint8Array.from([...bytes.subarray(0, at), 0xff, ...bytes.subarray(at + 3)]);
			const [audit, trace] = file === 0 ? [edited, sealed[1]] : [sealed[0], edited];
			const expected = await verifyWith(audit, trace, 'text-decoder');
			expect(expected.ok).toBe(false);
			expect(JSON.stringify(expected)).toContain('not valid UTF-8');
			expect(await verifyWith(audit, trace, 'ascii-chunks')).toEqual(expected);
			expect(await verifyWith(audit, trace, 'ascii-chunks', 'whole')).toEqual(expected);
		}
	});
});
