import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLedgerParts } from '../../hooks/ledger/ledger-parts.js';
import { mixedExportBytes } from '../../hooks/ledger/ledger-test-fixtures.js';
import { mergeVerifyParts } from '../../hooks/ledger/merge-verify-parts.js';
import {
	verifyInParts,
	verifyPassInParts,
	type VerifyPartsJob
} from '../../hooks/ledger/verify-parts.js';
import { verifyPass, type VerifyPassResult } from '../../hooks/ledger/verify-pass.js';
import { nodeContentHash } from './node-content-hash.js';
import { verifyHelperEntry, verifyHelperThreadsOf } from './verify-helper-thread.js';

/** The CLI's verify helper: a real worker thread running verify-helper-entry.ts, compiled by esbuild. */

let audit: Uint8Array;
let trace: Uint8Array;
let folder: string;

beforeAll(async () => {
	const exported = await mixedExportBytes(4, 2);
	audit = shared(exported.audit);
	trace = shared(exported.trace);
	folder = await mkdtemp(join(tmpdir(), 'threadline-helper-'));
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

function shared(bytes: Uint8Array): Uint8Array {
	const copy = new Uint8Array(new SharedArrayBuffer(bytes.length));
	copy.set(bytes);
	return copy;
}

function input(keepAuditValues = false) {
	return {
		auditJsonl: audit,
		traceJsonl: trace,
		hasher: nodeContentHash,
		lineDecoding: 'text-decoder' as const,
		keepAuditValues
	};
}

/** A job whose every part is left to the helper: this thread takes none. */
function jobOf(partCount: number): VerifyPartsJob {
	return {
		audit,
		trace,
		parts: planLedgerParts(audit, trace, partCount),
		counters: new Int32Array(new SharedArrayBuffer(8)),
		lineDecoding: 'text-decoder'
	};
}

/** What the report is made of: everything but where the pass's own ends were. */
function outcome({ boundaries: _boundaries, ...rest }: VerifyPassResult) {
	return rest;
}

/** Runs a job on a helper running `entry` and hands back its answer. */
async function helperAnswer(entry: string, job: VerifyPartsJob, prepared = false) {
	const threads = verifyHelperThreadsOf(entry);
	if (prepared) await threads.prepare();
	const helper = threads.start();
	try {
		return await helper.verifyParts(job).results;
	} finally {
		helper.close();
	}
}

describe('the verify helper thread', () => {
	it('verifies the parts it takes exactly as one pass does, keeping no audit values', async () => {
		const job = jobOf(5);
		const parts = await helperAnswer(verifyHelperEntry, job);
		expect(parts.map((part) => part.index)).toEqual(job.parts.map((_, index) => index));
		for (const part of parts) expect(part.result.auditValues).toBeNull();
		const merged = mergeVerifyParts(parts.map((part) => part.result));
		expect(merged && outcome(merged)).toEqual(outcome(await verifyPass(input())));
	});

	it('runs the program compiled by prepare, or else compiles the sources as they are when it starts', async () => {
		const entry = join(folder, 'answers.ts');
		const answering = (words: string) =>
			writeFile(
				entry,
				`import { parentPort } from 'node:worker_threads';\nconst said: string = '${words}';\nparentPort?.once('message', () => parentPort?.postMessage({ kind: 'failed', message: said }));\n`
			);
		await answering('first version');
		await expect(helperAnswer(entry, jobOf(2))).rejects.toThrow('first version');
		const threads = verifyHelperThreadsOf(entry);
		await threads.prepare();
		await answering('second version');
		const helper = threads.start();
		try {
			await expect(helper.verifyParts(jobOf(2)).results).rejects.toThrow('first version');
		} finally {
			helper.close();
		}
		await expect(helperAnswer(entry, jobOf(2))).rejects.toThrow('second version');
	});

	it('verifies its parts as one pass does with the program prepare compiled', async () => {
		const job = jobOf(3);
		const parts = await helperAnswer(verifyHelperEntry, job, true);
		const merged = mergeVerifyParts(parts.map((part) => part.result));
		expect(merged && outcome(merged)).toEqual(outcome(await verifyPass(input())));
	});

	it('fails, and verify gives one pass’s result without it, when its program cannot be compiled', async () => {
		const broken = join(folder, 'no-such-entry.ts');
		await expect(helperAnswer(broken, jobOf(2))).rejects.toThrow(/the verify helper failed/);
		for (const keepAuditValues of [false, true]) {
			const result = await verifyInParts(
				input(keepAuditValues),
				verifyHelperThreadsOf(broken).start,
				4
			);
			expect(outcome(result)).toEqual(outcome(await verifyPass(input(keepAuditValues))));
		}
	});

	it('fails quietly when it is never handed a job: a large ledger that cannot be cut', async () => {
		// One audit line and a large trace: one part, one pass, and the helper just closed. Its
		// failure to compile, after that, must not reach the process as an unhandled error.
		const unhandled: unknown[] = [];
		const listener = (error: unknown) => unhandled.push(error);
		process.on('uncaughtException', listener);
		try {
			const oneLine = shared(new TextEncoder().encode('{"seq":1,"type":"x"}'));
			const result = await verifyPassInParts(
				{
					...input(),
					auditJsonl: oneLine,
					traceJsonl: shared(new Uint8Array(17 * 1024 * 1024).fill(10))
				},
				verifyHelperThreadsOf(join(folder, 'no-such-entry.ts')).start
			);
			expect(result.auditEvents).toBe(1);
			await new Promise((resolve) => setTimeout(resolve, 1_000));
		} finally {
			process.off('uncaughtException', listener);
		}
		expect(unhandled).toEqual([]);
	});

	it('gives one pass’s result, audit values and all, verifying in parts beside this thread', async () => {
		const expected = outcome(await verifyPass(input(true)));
		const result = await verifyInParts(
			input(true),
			verifyHelperThreadsOf(verifyHelperEntry).start,
			6
		);
		expect(outcome(result)).toEqual(expected);
	});
});
