import { genesisHash } from './ledger-event.js';
import { brokenChain, linkProblem, type ChainCheck, type ChainEnds } from './verify-chain.js';
import { auditChain, traceChain, type VerifyPassResult } from './verify-pass.js';

/**
 * The result of verifying the whole files, from the results of their parts in file order
 * (ledger-parts.ts), exactly as one pass over the whole files gives it; null when the parts were
 * not cut where one pass pairs trace lines with mutation records, and the whole files must be read
 * in one pass instead.
 *
 * Each part checked its own lines, links included, except its first line's seq and prev_hash,
 * which continue the part before: they are checked here, in file order, so the first broken link
 * found is the one a single pass finds first.
 */
export function mergeVerifyParts(parts: readonly VerifyPassResult[]): VerifyPassResult | null {
	if (!pairedAsOnePass(parts) || !numberedAsOnePass(parts)) return null;
	const merged: VerifyPassResult = {
		audit: mergeChain(
			auditChain.fileName,
			parts.map((part) => ({ check: part.audit, ends: part.boundaries.audit }))
		),
		trace: mergeChain(
			traceChain.fileName,
			parts.map((part) => ({ check: part.trace, ends: part.boundaries.trace }))
		),
		auditEvents: 0,
		traceRecords: 0,
		mutationRecords: 0,
		invalid: [],
		classMismatches: [],
		auditValues: parts.every((part) => part.auditValues !== null) ? [] : null,
		firstUnreadableAuditLine: null,
		boundaries: {
			audit: { opening: null, closing: null, unopenedBreak: null },
			trace: { opening: null, closing: null, unopenedBreak: null },
			traceExhausted: true,
			lines: {
				audit: { before: 0, last: parts.at(-1)?.boundaries.lines.audit.last ?? 0 },
				trace: { before: 0, last: parts.at(-1)?.boundaries.lines.trace.last ?? 0 }
			}
		}
	};
	for (const part of parts) {
		merged.auditEvents += part.auditEvents;
		merged.traceRecords += part.traceRecords;
		merged.mutationRecords += part.mutationRecords;
		for (const record of part.invalid) merged.invalid.push(record);
		for (const mismatch of part.classMismatches) merged.classMismatches.push(mismatch);
		if (merged.auditValues && part.auditValues)
			for (const value of part.auditValues) merged.auditValues.push(value);
		merged.firstUnreadableAuditLine ??= part.firstUnreadableAuditLine;
	}
	return merged;
}

/**
 * One pass gives the k-th mutation record the k-th trace line. The parts did the same within
 * themselves; that is one pass's pairing when every part but the last paired each of its trace
 * lines (none left over) and had a trace line for each of its mutation records, or else ran out of
 * trace lines with none left in any later part.
 */
function pairedAsOnePass(parts: readonly VerifyPassResult[]): boolean {
	for (let index = 0; index < parts.length - 1; index++) {
		const part = parts[index] as VerifyPassResult;
		if (!part.boundaries.traceExhausted) return false;
		if (part.traceRecords === part.mutationRecords) continue;
		if (part.traceRecords > part.mutationRecords) return false;
		for (let later = index + 1; later < parts.length; later++)
			if ((parts[later] as VerifyPassResult).traceRecords > 0) return false;
	}
	return true;
}

/**
 * The parts' lines were numbered as one pass numbers them: each part started counting from the
 * last line of the part before (the planner may have guessed where that was: ledger-parts.ts).
 */
function numberedAsOnePass(parts: readonly VerifyPassResult[]): boolean {
	for (let index = 1; index < parts.length; index++) {
		const before = (parts[index - 1] as VerifyPassResult).boundaries.lines;
		const lines = (parts[index] as VerifyPassResult).boundaries.lines;
		if (lines.audit.before !== before.audit.last || lines.trace.before !== before.trace.last)
			return false;
	}
	return true;
}

/** One chain's check over the parts: the first part that broke, or a link between two parts. */
function mergeChain(
	fileName: string,
	parts: readonly { check: ChainCheck; ends: ChainEnds }[]
): ChainCheck {
	let previous = { seq: 0, hash: genesisHash };
	for (const { check, ends } of parts) {
		if (ends.unopenedBreak) {
			// The part's first line broke before its seq was read: one pass reports the seq it expected.
			const { line, reason } = ends.unopenedBreak;
			return brokenChain(fileName, line, previous.seq + 1, reason);
		}
		if (ends.opening) {
			const problem = linkProblem(previous, {
				seq: ends.opening.seq,
				prev_hash: ends.opening.prevHash
			});
			if (problem) return brokenChain(fileName, ends.opening.line, problem.seq, problem.reason);
		}
		if (!check.intact) return check;
		if (ends.closing) previous = ends.closing;
	}
	return { intact: true, firstBrokenSeq: null, problem: null, failure: null };
}
