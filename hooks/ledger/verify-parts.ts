import type { LineDecoding } from '../bytes/line-decoding.js';
import type { SyncContentHasher } from '../hashing/sync-sha256.js';
import { planLedgerParts, type LedgerPart } from './ledger-parts.js';
import { mergeVerifyParts } from './merge-verify-parts.js';
import { verifyPass, type VerifyPassInput, type VerifyPassResult } from './verify-pass.js';

/**
 * Verifying a large ledger on two threads. Every line's hash covers its stored prev_hash, not the
 * one computed before it, so lines can be checked in any order and only the links where two parts
 * meet need the part before (merge-verify-parts.ts). The files are cut into parts
 * (ledger-parts.ts); this thread and a helper (a Worker, a worker thread) each take the next part
 * not yet taken until none is left, so a helper that starts late, or runs slower, just takes fewer.
 */

/** Both files together at least this large are verified in parts: below, a helper's start costs more than it saves. */
export const partsFromBytes = 16 * 1024 * 1024;
/**
 * About this much audit log per part (bench ledger: 22 parts): small enough that the two threads finish close together
 * (the one that ends first waits for the other's last part), large enough to be cheap. Built
 * Worker, three A/B rounds: 3 MB 1,231/1,360/1,435 ms against 6 MB 1,494/1,627/1,448 ms; 1.5 MB
 * was no better than 3 MB.
 */
const partBytes = 3 * 1024 * 1024;

/** What the helper is given: the files in memory both threads share, and the parts. */
export interface VerifyPartsJob {
	/** The whole files' bytes, on a SharedArrayBuffer. */
	audit: Uint8Array;
	trace: Uint8Array;
	parts: LedgerPart[];
	/** On a SharedArrayBuffer: [0] the next part to take, [1] audit lines verified so far. */
	counters: Int32Array;
	keepAuditValues: boolean;
	lineDecoding?: LineDecoding;
}

/** A part's result and its index in the job's parts. */
export interface VerifiedPart {
	index: number;
	result: VerifyPassResult;
}

/** Another thread that verifies parts of a job (verifyTakenParts there) and hands back their results. */
export interface VerifyHelper {
	/**
	 * Hands the job over. `taken` settles once the helper has it (rejected when it could not
	 * start): a browser delivers a message to a Worker only when its sender's thread is free again,
	 * so this thread waits for that before it begins its own parts. `results`: the parts it verified.
	 */
	verifyParts(job: VerifyPartsJob): { taken: Promise<void>; results: Promise<VerifiedPart[]> };
	/** Stops the helper (its thread is not needed any more, or never was). */
	close(): void;
}

/** Starts a helper; called only for a ledger large enough to be verified in parts. */
export type StartVerifyHelper = () => VerifyHelper;

const nextPart = 0;
const linesVerified = 1;

/**
 * Takes the job's parts one at a time, until none is left, and verifies each: what both this
 * thread and a helper run. `onLines` hears of every few thousand audit lines verified here.
 */
export async function verifyTakenParts(
	job: VerifyPartsJob,
	hasher: SyncContentHasher,
	onLines?: () => void,
	files: Files = job
): Promise<VerifiedPart[]> {
	const verified: VerifiedPart[] = [];
	for (;;) {
		const index = Atomics.add(job.counters, nextPart, 1);
		const part = job.parts[index];
		if (part === undefined) return verified;
		verified.push({ index, result: await verifyPart(job, files, part, hasher, onLines) });
	}
}

/** The two files' bytes: the job's shared ones, or the same bytes as this thread has them. */
interface Files {
	audit: Uint8Array;
	trace: Uint8Array;
}

async function verifyPart(
	job: VerifyPartsJob,
	files: Files,
	part: LedgerPart,
	hasher: SyncContentHasher,
	onLines?: () => void
): Promise<VerifyPassResult> {
	let counted = 0;
	// A part of shared memory is copied out first (a few megabytes, about a millisecond): decoders
	// refuse shared memory (TextDecoder does in browsers).
	const shared = files.audit.buffer instanceof SharedArrayBuffer;
	const range = (bytes: Uint8Array, [start, end]: readonly [number, number]) =>
		shared ? bytes.slice(start, end) : bytes.subarray(start, end);
	return verifyPass({
		auditJsonl: range(files.audit, part.audit),
		traceJsonl: range(files.trace, part.trace),
		hasher,
		lineDecoding: job.lineDecoding,
		keepAuditValues: job.keepAuditValues,
		placement: part.placement,
		progressEvery: 1_000,
		onProgress: (read) => {
			Atomics.add(job.counters, linesVerified, read - counted);
			counted = read;
			onLines?.();
		}
	});
}

/**
 * verifyPass over two whole files in memory, in parts shared with a helper when there is one to
 * start and memory to share (a SharedArrayBuffer); one pass otherwise, or when the parts were not
 * cut where one pass pairs the files' lines. The same result either way.
 */
export async function verifyPassInParts(
	input: VerifyPassInput & { auditJsonl: Uint8Array; traceJsonl: Uint8Array },
	startHelper: StartVerifyHelper
): Promise<VerifyPassResult> {
	const size = input.auditJsonl.length + input.traceJsonl.length;
	if (typeof SharedArrayBuffer !== 'function' || size < partsFromBytes) return verifyPass(input);
	return verifyInParts(
		input,
		startHelper,
		Math.max(2, Math.round(input.auditJsonl.length / partBytes))
	);
}

/** verifyPassInParts in about `partCount` parts, whatever the size (tests cut small ledgers). */
export async function verifyInParts(
	input: VerifyPassInput & { auditJsonl: Uint8Array; traceJsonl: Uint8Array },
	startHelper: StartVerifyHelper,
	partCount: number
): Promise<VerifyPassResult> {
	const audit = input.auditJsonl;
	const trace = input.traceJsonl;
	const parts = planLedgerParts(audit, trace, partCount);
	if (parts.length < 2) return verifyPass(input);
	const job: VerifyPartsJob = {
		audit: shared(audit),
		trace: shared(trace),
		parts,
		counters: new Int32Array(new SharedArrayBuffer(8)),
		keepAuditValues: input.keepAuditValues,
		lineDecoding: input.lineDecoding
	};
	const helper = startHelper();
	try {
		const handed = helper.verifyParts(job);
		const taken = await handed.taken.then(
			() => true,
			() => false
		);
		// A helper that fails leaves its parts to this thread: what it took and did not finish is
		// done again here, as is anything a helper that never started takes after all.
		const helped = taken
			? handed.results.catch(() => [] as VerifiedPart[])
			: Promise.resolve([] as VerifiedPart[]);
		const onLines = input.onProgress
			? () => input.onProgress?.(Atomics.load(job.counters, linesVerified))
			: undefined;
		// This thread reads the bytes it was given, not their shared copy.
		const own = { audit, trace };
		const mine = await verifyTakenParts(job, input.hasher, onLines, own);
		const results: (VerifyPassResult | undefined)[] = new Array(parts.length);
		for (const { index, result } of mine) results[index] = result;
		// Every part was taken here: the helper's results are not waited for.
		if (mine.length < parts.length)
			for (const { index, result } of await helped) results[index] = result;
		for (let index = 0; index < parts.length; index++)
			results[index] ??= await verifyPart(job, own, parts[index] as LedgerPart, input.hasher);
		const merged = mergeVerifyParts(results as VerifyPassResult[]);
		if (merged) {
			input.onProgress?.(merged.auditEvents);
			return merged;
		}
	} finally {
		helper.close();
	}
	return verifyPass(input);
}

/** The bytes on a SharedArrayBuffer (copied there unless they already are). */
function shared(bytes: Uint8Array): Uint8Array {
	if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
	const copy = new Uint8Array(new SharedArrayBuffer(bytes.length));
	copy.set(bytes);
	return copy;
}
