import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSyncContentHasher, type SyncContentHasher } from '../hashing/sync-sha256.js';
import type { LineDecoding } from '../bytes/line-decoding.js';
import { planLedgerParts } from './ledger-parts.js';
import { tamperArbitrary, tampered } from './ledger-tamper.js';
import { mixedExportBytes } from './ledger-test-fixtures.js';
import { verifyPass, type VerifyPassResult } from './verify-pass.js';
import {
	partsFromBytes,
	verifyInParts,
	verifyPassInParts,
	verifyTakenParts,
	type StartVerifyHelper,
	type VerifiedPart
} from './verify-parts.js';

/**
 * Verifying in parts, beside a helper, gives exactly one pass's result: on tampered copies of a
 * ledger with ASCII and non-ASCII lines, cut into any number of parts, with a helper that helps, one
 * that fails after taking a part, and one that never starts. The helper here runs on this thread,
 * taking parts between this thread's awaits, through the same shared counters a Worker uses.
 */

let audit: Uint8Array;
let trace: Uint8Array;
let hasher: SyncContentHasher;

beforeAll(async () => {
	hasher = await loadSyncContentHasher();
	({ audit, trace } = await mixedExportBytes(3));
});

type HelperKind = 'helps' | 'fails-after-taking' | 'never-starts';

/** A helper on this thread; `done` counts the parts whose results it handed back. */
function helperOf(kind: HelperKind, done: { parts: number } = { parts: 0 }): StartVerifyHelper {
	return () => ({
		verifyParts(job) {
			if (kind === 'never-starts')
				return { taken: Promise.reject(new Error('no start')), results: new Promise(() => {}) };
			if (kind === 'fails-after-taking') {
				// Takes a part and never finishes it: this thread must do it again.
				Atomics.add(job.counters, 0, 1);
				return { taken: Promise.resolve(), results: Promise.reject(new Error('crashed')) };
			}
			const results = verifyTakenParts(job, hasher).then((parts: VerifiedPart[]) => {
				done.parts += parts.length;
				return parts;
			});
			return { taken: Promise.resolve(), results };
		},
		close() {}
	});
}

function input(auditBytes: Uint8Array, traceBytes: Uint8Array, lineDecoding: LineDecoding) {
	return {
		auditJsonl: auditBytes,
		traceJsonl: traceBytes,
		hasher,
		lineDecoding,
		keepAuditValues: true
	};
}

/** What the report is made of: everything but where the pass's own ends were. */
function outcome({ boundaries: _boundaries, ...rest }: VerifyPassResult) {
	return rest;
}

describe('verify in parts', () => {
	it('gives one pass’s result on the untouched ledger, with both threads verifying parts', async () => {
		const expected = outcome(await verifyPass(input(audit, trace, 'ascii-chunks')));
		expect(expected.audit.intact && expected.trace.intact).toBe(true);
		expect(expected.mutationRecords).toBeGreaterThan(3);
		const done = { parts: 0 };
		const parts = outcome(
			await verifyInParts(input(audit, trace, 'ascii-chunks'), helperOf('helps', done), 5)
		);
		expect(parts).toEqual(expected);
		expect(done.parts).toBeGreaterThan(0);
		expect(done.parts).toBeLessThan(planLedgerParts(audit, trace, 5).length);
	});

	it('gives one pass’s result on tampered copies of either file, in any number of parts', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.boolean(),
				tamperArbitrary,
				fc.integer({ min: 2, max: 12 }),
				fc.constantFrom<HelperKind>('helps', 'helps', 'fails-after-taking', 'never-starts'),
				fc.constantFrom<LineDecoding>('ascii-chunks', 'text-decoder'),
				async (inAudit, tamper, partCount, helper, decoding) => {
					const auditBytes = inAudit ? tampered(audit, tamper) : audit;
					const traceBytes = inAudit ? trace : tampered(trace, tamper);
					const expected = outcome(await verifyPass(input(auditBytes, traceBytes, decoding)));
					const progress: number[] = [];
					const parts = await verifyInParts(
						{
							...input(auditBytes, traceBytes, decoding),
							onProgress: (read) => progress.push(read),
							// Every line, so one pass read again reports from its first line on.
							progressEvery: 1
						},
						helperOf(helper),
						partCount
					);
					expect(outcome(parts)).toEqual(expected);
					// Never backwards, even when the parts were thrown away and one pass read again.
					for (let index = 1; index < progress.length; index++)
						expect(progress[index]).toBeGreaterThanOrEqual(progress[index - 1] as number);
				}
			),
			{ numRuns: 300 }
		);
	}, 60_000);

	it('reports a part’s first line that is not JSON with the seq one pass expected there', async () => {
		const parts = planLedgerParts(audit, trace, 4);
		for (const part of parts.slice(1)) {
			for (const [file, start] of [
				['audit', part.audit[0]],
				['trace', part.trace[0]]
			] as const) {
				const bytes = (file === 'audit' ? audit : trace).slice();
				if (start >= bytes.length) continue;
				bytes[start] = 0x78; // `x` for the opening brace
				const [auditBytes, traceBytes] = file === 'audit' ? [bytes, trace] : [audit, bytes];
				const expected = outcome(await verifyPass(input(auditBytes, traceBytes, 'ascii-chunks')));
				expect(expected.audit.intact && expected.trace.intact).toBe(false);
				const result = await verifyInParts(
					input(auditBytes, traceBytes, 'ascii-chunks'),
					helperOf('helps'),
					4
				);
				expect(outcome(result)).toEqual(expected);
			}
		}
	});

	it('reads a BOM at the trace’s start as the file’s, in a later part whose trace starts there', async () => {
		// The first audit part has no mutation record, so the second part's trace starts at the
		// file's first byte, where one pass drops a BOM.
		const auditBytes = new TextEncoder().encode(
			`{"seq":1,"type":"x","pad":"${'p'.repeat(200)}"}\n{"seq":2,"type":"mutation-record","trace":{"a":1}}\n{"seq":3,"type":"y"}\n`
		);
		const traceBytes = new TextEncoder().encode('\ufeff{"a":1}\n');
		for (const decoding of ['ascii-chunks', 'text-decoder'] as const) {
			const expected = outcome(await verifyPass(input(auditBytes, traceBytes, decoding)));
			for (const partCount of [2, 3])
				for (const helper of ['helps', 'never-starts'] as const) {
					const result = await verifyInParts(
						input(auditBytes, traceBytes, decoding),
						helperOf(helper),
						partCount
					);
					expect(outcome(result), `${decoding}, ${partCount} parts, ${helper}`).toEqual(expected);
				}
		}
	});

	it('verifies in one pass when the helper cannot even be started', async () => {
		const expected = outcome(await verifyPass(input(audit, trace, 'text-decoder')));
		const result = await verifyInParts(
			input(audit, trace, 'text-decoder'),
			() => {
				throw new Error('no threads here');
			},
			4
		);
		expect(outcome(result)).toEqual(expected);
	});

	describe('verifyPassInParts starts no helper', () => {
		// Counted, not thrown: a helper that cannot be started is no error (verify goes on alone).
		const refusing = vi.fn<StartVerifyHelper>(() => {
			throw new Error('no helper was to be started');
		});
		afterEach(() => {
			vi.unstubAllGlobals();
			expect(refusing).not.toHaveBeenCalled();
			refusing.mockClear();
		});

		it('for a ledger below the size parts pay off at', async () => {
			const result = await verifyPassInParts(input(audit, trace, 'ascii-chunks'), refusing);
			expect(outcome(result)).toEqual(
				outcome(await verifyPass(input(audit, trace, 'ascii-chunks')))
			);
		});

		it('without shared memory (a page that is not cross-origin isolated), whatever the size', async () => {
			vi.stubGlobal('SharedArrayBuffer', undefined);
			// Empty lines: as large as a ledger worth cutting, and nothing to verify.
			const large = new Uint8Array(partsFromBytes).fill(10);
			const result = await verifyPassInParts(
				input(large, new Uint8Array(0), 'ascii-chunks'),
				refusing
			);
			expect(result.auditEvents).toBe(0);
			expect(result.audit.intact).toBe(true);
		});
	});
});
