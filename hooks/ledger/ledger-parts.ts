import type { PartPlacement } from './verify-pass.js';

/** A part of the two files: byte ranges `[start, end)` of each, cut at line ends, and its place. */
export interface LedgerPart {
	audit: readonly [start: number, end: number];
	trace: readonly [start: number, end: number];
	placement: PartPlacement;
}

const lineFeed = 0x0a;
const carriageReturn = 0x0d;
const lineDecoder = new TextDecoder();

/** How a canonical mutation-record line ends: `type` is the last key of an audit event. */
const mutationRecordEnding = new TextEncoder().encode('"type":"mutation-record"}');

/**
 * Cuts a ledger into about `count` parts of similar audit size, for verifying them side by side.
 * Each audit part is paired with the trace lines its mutation records will pull: the k-th
 * mutation-record event goes with the k-th non-empty trace line, so a part's trace lines start
 * after as many lines as there are mutation records before it.
 *
 * Where each part starts in both files, and how many lines come before it, is guessed without
 * reading the files through (guessLedgerParts), from the seq numbers of the few lines at the cuts:
 * right for every ledger the export writes. Where those lines cannot be read, the lines are
 * counted instead (countLedgerParts), which guesses only the mutation records. Verify checks every
 * guess (mergeVerifyParts) and reads the whole files in one piece when one was wrong, so an edited
 * ledger can make verify slower, never different.
 */
export function planLedgerParts(audit: Uint8Array, trace: Uint8Array, count: number): LedgerPart[] {
	return guessLedgerParts(audit, trace, count) ?? countLedgerParts(audit, trace, count);
}

/** Where a later part starts in both files, and the lines of each before it. */
interface Cut {
	audit: number;
	auditLinesBefore: number;
	trace: number;
	traceLinesBefore: number;
}

/**
 * The cuts guessed from seq numbers, reading a few lines at each (about two milliseconds for a
 * 91 MB ledger, where counting its lines took 50–100): in an export, audit line n holds seq n,
 * and a mutation record's trace has trace seq m when m - 1 mutation records come before it, on
 * trace line m. Null when a line that was needed is not such JSON.
 */
export function guessLedgerParts(
	audit: Uint8Array,
	trace: Uint8Array,
	count: number
): LedgerPart[] | null {
	const starts = auditCuts(audit, count);
	const cuts: Cut[] = new Array(starts.length);
	// From the last cut back: a part without mutation records starts its trace where the next does.
	let traceCut: { offset: number; linesBefore: number } | null = null;
	for (let index = starts.length - 1; index >= 0; index--) {
		const start = starts[index] as number;
		const auditSeq = numberAt(readLine(audit, start), ['seq']);
		if (auditSeq === null) return null;
		const end = starts[index + 1] ?? audit.length;
		const record = firstMutationRecord(audit, start, end);
		if (record === 'unreadable') return null;
		if (record !== null) {
			const traceSeq = numberAt(record, ['trace', 'metadata', 'dev.threadline', 'seq']);
			if (traceSeq === null) return null;
			const offset = traceLineWithSeq(trace, traceSeq);
			if (offset === null) return null;
			traceCut = { offset, linesBefore: traceSeq - 1 };
		} else if (traceCut === null) {
			// No mutation record after this cut: every trace line comes before it.
			traceCut = { offset: trace.length, linesBefore: traceLineCount(trace) };
			if (traceCut.linesBefore < 0) return null;
		}
		cuts[index] = {
			audit: start,
			auditLinesBefore: auditSeq - 1,
			trace: traceCut.offset,
			traceLinesBefore: traceCut.linesBefore
		};
	}
	for (let index = 1; index < cuts.length; index++)
		if ((cuts[index] as Cut).trace < (cuts[index - 1] as Cut).trace) return null;
	return partsOf(audit, trace, cuts);
}

/** The line starts after which about `count` parts of similar size begin (none at 0 or the end). */
function auditCuts(audit: Uint8Array, count: number): number[] {
	const starts: number[] = [];
	const target = audit.length / Math.max(1, count);
	for (let index = 1; index < count; index++) {
		const start = lineStartFrom(
			audit,
			Math.max(Math.round(target * index), (starts.at(-1) ?? 0) + 1)
		);
		if (start >= audit.length) break;
		starts.push(start);
	}
	return starts;
}

/**
 * The first line start at or after `position` (the length when there is none), looked for in the
 * next `within` bytes only: -1 when none starts there.
 */
function lineStartFrom(bytes: Uint8Array, position: number, within = Infinity): number {
	if (position <= 0) return 0;
	if (position >= bytes.length) return bytes.length;
	if (bytes[position - 1] === lineFeed) return position;
	const end = Math.min(bytes.length, position + within);
	const newline = bytes.subarray(position, end).indexOf(lineFeed);
	if (newline >= 0) return position + newline + 1;
	return end >= bytes.length ? bytes.length : -1;
}

/**
 * Lines the guess reads: an event at a cut, a trace line probed. Longer ones are not read (the
 * lines are counted instead), so a ledger of a few huge lines cannot make the guess parse or scan
 * them again and again: it reads at most some 400 lines of this size.
 */
const guessLineLimit = 64 * 1024;

/** The line starting at `start`, parsed; undefined when it is not JSON or longer than the limit. */
function readLine(bytes: Uint8Array, start: number): unknown {
	const window = bytes.subarray(start, Math.min(bytes.length, start + guessLineLimit + 2));
	const newline = window.indexOf(lineFeed);
	if (newline < 0 && start + window.length < bytes.length) return undefined;
	let end = newline < 0 ? bytes.length : start + newline;
	if (end > start && bytes[end - 1] === carriageReturn) end--;
	try {
		// A copy: browsers' decoders refuse shared memory.
		return JSON.parse(lineDecoder.decode(bytes.slice(start, end)));
	} catch {
		return undefined;
	}
}

/** A positive safe integer at `path` in `value`, else null. */
function numberAt(value: unknown, path: readonly string[]): number | null {
	let current = value;
	for (const key of path) {
		if (typeof current !== 'object' || current === null) return null;
		current = (current as Record<string, unknown>)[key];
	}
	return Number.isSafeInteger(current) && (current as number) > 0 ? (current as number) : null;
}

/** The first line in `[start, end)` that ends as a mutation record ends, parsed. */
function firstMutationRecord(
	audit: Uint8Array,
	start: number,
	end: number
): unknown | 'unreadable' | null {
	for (let lineStart = start; lineStart < end;) {
		const newline = audit.indexOf(lineFeed, lineStart);
		const lineEnd = newline < 0 ? audit.length : newline;
		if (endsAsMutationRecord(audit, lineEnd)) {
			const value = readLine(audit, lineStart);
			return value === undefined ? 'unreadable' : value;
		}
		lineStart = lineEnd + 1;
	}
	return null;
}

/**
 * The start of the trace line whose record has trace seq `seq`, found by bisection (trace seqs
 * rise line by line in an export); null when it is not found that way.
 */
function traceLineWithSeq(trace: Uint8Array, seq: number): number | null {
	const seqAt = (start: number) =>
		numberAt(readLine(trace, start), ['metadata', 'dev.threadline', 'seq']);
	let low = 0;
	let high = trace.length;
	while (low < high) {
		const middle = lineStartFrom(trace, low + Math.floor((high - low) / 2), guessLineLimit);
		if (middle < 0) return null;
		// No line starts in the upper half: step through the lower half's lines from its start.
		const probe = middle < high ? middle : low;
		const found = seqAt(probe);
		if (found === null) return null;
		if (found === seq) return probe;
		if (found < seq) low = lineStartFrom(trace, probe + 1, guessLineLimit);
		else if (probe === low) return null;
		else high = probe;
		if (low < 0) return null;
	}
	return null;
}

/** How many lines the trace holds, as the last one's trace seq says (-1 when it does not). */
function traceLineCount(trace: Uint8Array): number {
	let end = trace.length;
	while (end > 0 && (trace[end - 1] === lineFeed || trace[end - 1] === carriageReturn)) end--;
	if (end === 0) return 0;
	const start = trace.lastIndexOf(lineFeed, end - 1) + 1;
	return numberAt(readLine(trace, start), ['metadata', 'dev.threadline', 'seq']) ?? -1;
}

/** The parts between the cuts. */
function partsOf(audit: Uint8Array, trace: Uint8Array, cuts: readonly Cut[]): LedgerPart[] {
	const parts: LedgerPart[] = [];
	for (let index = 0; index <= cuts.length; index++) {
		const from = cuts[index - 1];
		const to = cuts[index];
		parts.push({
			audit: [from?.audit ?? 0, to?.audit ?? audit.length],
			trace: [from?.trace ?? 0, to?.trace ?? trace.length],
			placement: {
				auditLinesBefore: from?.auditLinesBefore ?? 0,
				traceLinesBefore: from?.traceLinesBefore ?? 0,
				first: index === 0,
				last: index === cuts.length
			}
		});
	}
	return parts;
}

/**
 * The cuts found by counting lines: every audit line's ending is read (a canonical mutation
 * record's tells it apart) and the trace's lines are counted up to each cut.
 */
export function countLedgerParts(
	audit: Uint8Array,
	trace: Uint8Array,
	count: number
): LedgerPart[] {
	/** Where each later part starts in the audit log: a line start, its lines and mutation records before. */
	const cuts: { offset: number; lines: number; mutationRecords: number }[] = [];
	const target = audit.length / Math.max(1, count);
	let lines = 0;
	let mutationRecords = 0;
	for (let start = 0; start < audit.length && cuts.length < count - 1;) {
		const newline = audit.indexOf(10, start);
		if (newline < 0) break;
		lines++;
		if (endsAsMutationRecord(audit, newline)) mutationRecords++;
		start = newline + 1;
		if (start >= target * (cuts.length + 1) && start < audit.length)
			cuts.push({ offset: start, lines, mutationRecords });
	}

	// The trace cut after the m-th non-empty line (the reader's empty lines: nothing, or a lone CR
	// before the newline), for each audit cut's m, in one walk through the trace.
	const traceCuts: { offset: number; lines: number }[] = [];
	let traceLines = 0;
	let nonEmpty = 0;
	let position = 0;
	for (const cut of cuts) {
		while (nonEmpty < cut.mutationRecords && position < trace.length) {
			const newline = trace.indexOf(10, position);
			if (newline < 0) {
				position = trace.length;
				break;
			}
			const length = newline - position;
			if (length > 1 || (length === 1 && trace[position] !== 13)) nonEmpty++;
			traceLines++;
			position = newline + 1;
		}
		traceCuts.push({ offset: position, lines: traceLines });
	}

	return partsOf(
		audit,
		trace,
		cuts.map((cut, index) => ({
			audit: cut.offset,
			auditLinesBefore: cut.lines,
			trace: traceCuts[index]?.offset ?? trace.length,
			traceLinesBefore: traceCuts[index]?.lines ?? 0
		}))
	);
}

/** Whether the line ending at `end` (its `\n`, or the end) ends as a canonical mutation record. */
function endsAsMutationRecord(bytes: Uint8Array, end: number): boolean {
	const textEnd = end > 0 && bytes[end - 1] === carriageReturn ? end - 1 : end;
	const start = textEnd - mutationRecordEnding.length;
	if (start < 0) return false;
	for (let index = 0; index < mutationRecordEnding.length; index++)
		if (bytes[start + index] !== mutationRecordEnding[index]) return false;
	return true;
}
