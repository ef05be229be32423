import type { PartPlacement } from './verify-pass.js';

/** A part of the two files: byte ranges `[start, end)` of each, cut at line ends, and its place. */
export interface LedgerPart {
	audit: readonly [start: number, end: number];
	trace: readonly [start: number, end: number];
	placement: PartPlacement;
}

/** How a canonical mutation-record line ends: `type` is the last key of an audit event. */
const mutationRecordEnding = new TextEncoder().encode('"type":"mutation-record"}');

/**
 * Cuts a ledger into about `count` parts of similar audit size, for verifying them side by side.
 * Each audit part is paired with the trace lines its mutation records will pull: the k-th
 * mutation-record event goes with the k-th non-empty trace line, so a part's trace lines start
 * after as many lines as there are mutation records before it. Those are counted here from how a
 * canonical line ends, without parsing: a guess, right for every ledger the export writes. Verify
 * checks it (mergeVerifyParts) and reads the whole files in one piece when it was wrong, so an
 * edited ledger can make verify slower, never different.
 */
export function planLedgerParts(audit: Uint8Array, trace: Uint8Array, count: number): LedgerPart[] {
	/** Where each later part starts in the audit log: a line start, its lines and mutation records before. */
	const cuts: { offset: number; lines: number; mutationRecords: number }[] = [];
	const target = audit.length / Math.max(1, count);
	let lines = 0;
	let mutationRecords = 0;
	for (let start = 0; start < audit.length && cuts.length < count - 1;) {
		const newline = audit.indexOf(10, start);
		if (newline < 0) break;
		lines++;
		if (endsWith(audit, newline, mutationRecordEnding)) mutationRecords++;
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

	const parts: LedgerPart[] = [];
	for (let index = 0; index <= cuts.length; index++) {
		const auditFrom = index === 0 ? 0 : (cuts[index - 1]?.offset ?? 0);
		const auditTo = index === cuts.length ? audit.length : (cuts[index]?.offset ?? audit.length);
		const traceFrom = index === 0 ? 0 : (traceCuts[index - 1]?.offset ?? 0);
		const traceTo =
			index === cuts.length ? trace.length : (traceCuts[index]?.offset ?? trace.length);
		parts.push({
			audit: [auditFrom, auditTo],
			trace: [traceFrom, traceTo],
			placement: {
				auditLinesBefore: index === 0 ? 0 : (cuts[index - 1]?.lines ?? 0),
				traceLinesBefore: index === 0 ? 0 : (traceCuts[index - 1]?.lines ?? 0),
				first: index === 0,
				last: index === cuts.length
			}
		});
	}
	return parts;
}

/** Whether the bytes just before `end` are `ending`. */
function endsWith(bytes: Uint8Array, end: number, ending: Uint8Array): boolean {
	const start = end - ending.length;
	if (start < 0) return false;
	for (let index = 0; index < ending.length; index++)
		if (bytes[start + index] !== ending[index]) return false;
	return true;
}
