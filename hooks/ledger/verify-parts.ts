import type { LineDecoding } from '../bytes/line-decoding.js';
import type { SyncContentHasher } from '../hashing/sync-sha256.js';
import { planLedgerParts, type LedgerPart } from './ledger-parts.js';
import { mergeVerifyParts } from './merge-verify-parts.js';
import { JsonlLineReader, parseJsonlLine } from './read-jsonl.js';
import {
	readStart,
	verifyPass,
	type VerifyPassInput,
	type VerifyPassResult
} from './verify-pass.js';

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
	 * so this thread waits for that before it begins its own parts. A Node worker thread receives
	 * its messages whatever this thread does, so there `taken` settles at once. `results`: the
	 * parts it verified (without audit values: see verifyInParts).
	 */
	verifyParts(job: VerifyPartsJob): { taken: Promise<void>; results: Promise<VerifiedPart[]> };
	/** Stops the helper (its thread is not needed any more, or never was). */
	close(): void;
}

/** Starts a helper; called only for a ledger large enough to be verified in parts. */
export type StartVerifyHelper = () => VerifyHelper;

const nextPart = 0;
const linesVerified = 1;

/** How a thread verifies the parts it takes. */
interface TakeOptions {
	/** Keep each audit line's value (the helper never does: see verifyInParts). */
	keepAuditValues?: boolean;
	/** Hears of every thousand audit lines verified on this thread. */
	onLines?: () => void;
	/** The two files' bytes as this thread has them, when not the job's shared ones. */
	files?: Files;
}

/**
 * Takes the job's parts one at a time, until none is left, and verifies each: what both this
 * thread and a helper run.
 */
export async function verifyTakenParts(
	job: VerifyPartsJob,
	hasher: SyncContentHasher,
	options: TakeOptions = {}
): Promise<VerifiedPart[]> {
	const verified: VerifiedPart[] = [];
	for (;;) {
		const index = Atomics.add(job.counters, nextPart, 1);
		const part = job.parts[index];
		if (part === undefined) return verified;
		verified.push({ index, result: await verifyPart(job, part, hasher, options) });
	}
}

/** The two files' bytes: the job's shared ones, or the same bytes as this thread has them. */
interface Files {
	audit: Uint8Array;
	trace: Uint8Array;
}

/**
 * Whether this platform's decoders read shared memory: Node's do; browsers' TextDecoder refuses
 * it, so a part of shared memory is copied out there first (a few megabytes, about a millisecond).
 */
const decodersReadSharedMemory = (() => {
	try {
		new TextDecoder().decode(new Uint8Array(new SharedArrayBuffer(1)));
		return true;
	} catch {
		return false;
	}
})();

/** Bytes `[start, end)` in memory this thread's decoders read. */
function readable(bytes: Uint8Array, [start, end]: readonly [number, number]): Uint8Array {
	return bytes.buffer instanceof SharedArrayBuffer && !decodersReadSharedMemory
		? bytes.slice(start, end)
		: bytes.subarray(start, end);
}

async function verifyPart(
	job: VerifyPartsJob,
	part: LedgerPart,
	hasher: SyncContentHasher,
	{ keepAuditValues = false, onLines, files = job }: TakeOptions
): Promise<VerifyPassResult> {
	let counted = 0;
	return verifyPass({
		auditJsonl: readable(files.audit, part.audit),
		traceJsonl: readable(files.trace, part.trace),
		hasher,
		lineDecoding: job.lineDecoding,
		keepAuditValues,
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
	/** Audit lines the progress said were verified. */
	let shown = 0;
	// The helper first: its thread starts (tens of milliseconds to a hundred) while this one plans
	// the parts and shares the bytes. One that cannot even be started leaves one pass.
	let helper: VerifyHelper;
	try {
		helper = startHelper();
	} catch {
		return verifyPass(input);
	}
	try {
		const parts = planLedgerParts(audit, trace, partCount);
		if (parts.length < 2) return await verifyPass(input);
		const job: VerifyPartsJob = {
			audit: shared(audit),
			trace: shared(trace),
			parts,
			counters: new Int32Array(new SharedArrayBuffer(8)),
			lineDecoding: input.lineDecoding
		};
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
			? () => {
					shown = Atomics.load(job.counters, linesVerified);
					input.onProgress?.(shown);
				}
			: undefined;
		// This thread reads the bytes it was given, not their shared copy.
		const own: TakeOptions = {
			keepAuditValues: input.keepAuditValues,
			onLines,
			files: { audit, trace }
		};
		const mine = await verifyTakenParts(job, input.hasher, own);
		const results: (VerifyPassResult | undefined)[] = new Array(parts.length);
		for (const { index, result } of mine) results[index] = result;
		// Every part was taken here: the helper's results are not waited for.
		if (mine.length < parts.length)
			for (const { index, result } of await helped) {
				// The helper keeps no values: sending a part's parsed lines between threads (a
				// structured clone of some 50k objects) measured about 400 ms on this thread, parsing
				// them again about a third of that.
				if (input.keepAuditValues)
					result.auditValues = await auditValuesOf(audit, parts[index] as LedgerPart, input);
				results[index] = result;
			}
		for (let index = 0; index < parts.length; index++)
			results[index] ??= await verifyPart(job, parts[index] as LedgerPart, input.hasher, own);
		const merged = mergeVerifyParts(results as VerifyPassResult[]);
		if (merged) {
			input.onProgress?.(merged.auditEvents);
			return merged;
		}
	} finally {
		helper.close();
	}
	// One pass reads the files again from their start: its progress shows once it is past what the
	// parts showed, so a progress bar never goes back.
	const onProgress = input.onProgress;
	return verifyPass({
		...input,
		onProgress: onProgress && ((read) => read > shown && onProgress(read))
	});
}

/**
 * The value of each of a part's audit lines, as verifyPass keeps them: one per non-empty line,
 * undefined where a line is not JSON.
 */
async function auditValuesOf(
	audit: Uint8Array,
	part: LedgerPart,
	{ lineDecoding }: VerifyPassInput
): Promise<unknown[]> {
	const placement = part.placement;
	const reader = new JsonlLineReader(readable(audit, part.audit), {
		decoding: lineDecoding,
		start: readStart(placement.auditLinesBefore)
	});
	const values: unknown[] = [];
	for (;;) {
		let line = reader.take();
		if (line === 'more') line = await reader.next();
		if (line === null) return values;
		values.push(parseJsonlLine(line).value);
	}
}

/** The bytes on a SharedArrayBuffer (copied there unless they already are). */
function shared(bytes: Uint8Array): Uint8Array {
	if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
	const copy = new Uint8Array(new SharedArrayBuffer(bytes.length));
	copy.set(bytes);
	return copy;
}
