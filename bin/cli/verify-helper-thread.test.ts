import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planLedgerParts } from '../../hooks/ledger/ledger-parts.js';
import { buildMixedLedger, resealedExport } from '../../hooks/ledger/ledger-test-fixtures.js';
import { mergeVerifyParts } from '../../hooks/ledger/merge-verify-parts.js';
import { verifyInParts, type VerifyPartsJob } from '../../hooks/ledger/verify-parts.js';
import { verifyPass, type VerifyPassResult } from '../../hooks/ledger/verify-pass.js';
import { nodeContentHash } from './node-content-hash.js';
import {
	startVerifyHelperThreadOf,
	verifyHelperProgram,
	type VerifyHelperProgram
} from './verify-helper-thread.js';

/**
 * The CLI's verify helper: a real worker thread running verify-helper-entry.ts, compiled by
 * esbuild and kept in a cache file (a temporary one here, so the tests neither use nor disturb the
 * CLI's own).
 */

let audit: Uint8Array;
let trace: Uint8Array;
let folder: string;

beforeAll(async () => {
	const exported = await resealedExport((await buildMixedLedger()).events, (drafts) => {
		for (const [index, draft] of drafts.entries())
			if (index % 4 === 2) draft.session_id = `séance-${index}…`;
	});
	audit = shared(new TextEncoder().encode(exported.audit));
	trace = shared(new TextEncoder().encode(exported.trace));
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

function programIn(name: string): VerifyHelperProgram {
	return { entry: verifyHelperProgram.entry, cacheFile: join(folder, name, 'verify-helper.json') };
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

/** Runs a job on a helper of `program` and hands back its answer. */
async function helperAnswer(program: VerifyHelperProgram, job: VerifyPartsJob) {
	const helper = startVerifyHelperThreadOf(program)();
	try {
		return await helper.verifyParts(job).results;
	} finally {
		helper.close();
	}
}

describe('the verify helper thread', () => {
	it('verifies the parts it takes exactly as one pass does, and leaves its compiled program in the cache', async () => {
		const program = programIn('fresh');
		const job = jobOf(5);
		const parts = await helperAnswer(program, job);
		expect(parts.map((part) => part.index)).toEqual(job.parts.map((_, index) => index));
		for (const part of parts) expect(part.result.auditValues).toBeNull();
		const merged = mergeVerifyParts(parts.map((part) => part.result));
		expect(merged && outcome(merged)).toEqual(outcome(await verifyPass(input())));

		const cached = JSON.parse(await readFile(program.cacheFile, 'utf8')) as {
			entry: string;
			inputs: string[];
			digest: string;
			code: string;
		};
		expect(cached.entry).toBe(program.entry);
		expect(cached.inputs).toContain(program.entry);
		expect(cached.inputs.some((path) => path.endsWith('hooks/ledger/verify-pass.ts'))).toBe(true);
		expect(cached.digest).toMatch(/^[0-9a-f]{64}$/);
	});

	it('runs the cached program while every file it was compiled from is unchanged, and compiles again when one changed', async () => {
		const program = programIn('cached');
		await helperAnswer(program, jobOf(2));
		const cached = JSON.parse(await readFile(program.cacheFile, 'utf8')) as {
			digest: string;
			code: string;
		};
		// A program that says where it came from: only the cache holds it.
		const marker = `require('node:worker_threads').parentPort.once('message', () => require('node:worker_threads').parentPort.postMessage({ kind: 'failed', message: 'from the cache' }));`;
		await writeFile(program.cacheFile, JSON.stringify({ ...cached, code: marker }));
		await expect(helperAnswer(program, jobOf(2))).rejects.toThrow('from the cache');

		await writeFile(
			program.cacheFile,
			JSON.stringify({ ...cached, code: marker, digest: 'f'.repeat(64) })
		);
		const parts = await helperAnswer(program, jobOf(2));
		expect(parts.length).toBe(2);
		const recompiled = JSON.parse(await readFile(program.cacheFile, 'utf8')) as { code: string };
		expect(recompiled.code).not.toContain('from the cache');
	});

	it('compiles anew over a cache file that is not JSON', async () => {
		const program = programIn('garbled');
		await helperAnswer(program, jobOf(2));
		await writeFile(program.cacheFile, '{"entry": "half a file');
		expect((await helperAnswer(program, jobOf(3))).length).toBe(3);
	});

	it('fails, and verify gives one pass’s result without it, when its program cannot be compiled', async () => {
		const broken: VerifyHelperProgram = {
			entry: join(folder, 'no-such-entry.ts'),
			cacheFile: join(folder, 'broken', 'verify-helper.json')
		};
		await expect(helperAnswer(broken, jobOf(2))).rejects.toThrow(/the verify helper failed/);
		for (const keepAuditValues of [false, true]) {
			const result = await verifyInParts(
				input(keepAuditValues),
				startVerifyHelperThreadOf(broken),
				4
			);
			expect(outcome(result)).toEqual(outcome(await verifyPass(input(keepAuditValues))));
		}
	});

	it('gives one pass’s result, audit values and all, verifying in parts beside this thread', async () => {
		const expected = outcome(await verifyPass(input(true)));
		const result = await verifyInParts(
			input(true),
			startVerifyHelperThreadOf(programIn('beside')),
			6
		);
		expect(outcome(result)).toEqual(expected);
	});
});
