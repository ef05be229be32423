/**
 * Which lines of a file's new content an edit added or changed: the `ranges` of an Agent Trace
 * record. Lines are compared as `splitLines` sees them, so CRLF ↔ LF and a final newline are not
 * changes, and line numbers match the hashes `hashLines` makes.
 */
import { diffArrays } from 'diff';
import type { TraceRange } from '../ledger/agent-trace-record.js';
import { hashLines } from '../hashing/sha256.js';
import { splitLines } from '../hashing/text-encoding.js';

/** 1-based, inclusive line numbers in the new content. */
export interface LineRange {
	start_line: number;
	end_line: number;
}

/**
 * Beyond this many inserted + deleted lines the diff gives up and the whole differing middle of
 * the file counts as changed: an over-approximation (never an under-report) instead of a diff
 * whose cost grows with the square of the edit (~1 s for two unrelated 3,000-line files).
 */
const maximumEditLength = 1_000;

export function changedRanges(before: string | null, after: string): LineRange[] {
	if (typeof after !== 'string') {
		throw new TypeError('changedRanges expects the new content as a string');
	}
	if (before !== null && typeof before !== 'string') {
		throw new TypeError('changedRanges expects the old content as a string or null');
	}
	const afterLines = splitLines(after);
	if (afterLines.length === 0) return [];
	if (before === null) return [{ start_line: 1, end_line: afterLines.length }];
	const beforeLines = splitLines(before);

	// Trim the common head and tail first: edits are usually small and local, and this keeps the
	// diff proportional to the edit instead of the file.
	let head = 0;
	while (
		head < beforeLines.length &&
		head < afterLines.length &&
		beforeLines[head] === afterLines[head]
	) {
		head++;
	}
	let tail = 0;
	while (
		tail < beforeLines.length - head &&
		tail < afterLines.length - head &&
		beforeLines[beforeLines.length - 1 - tail] === afterLines[afterLines.length - 1 - tail]
	) {
		tail++;
	}
	const beforeMiddle = beforeLines.slice(head, beforeLines.length - tail);
	const afterMiddle = afterLines.slice(head, afterLines.length - tail);
	if (afterMiddle.length === 0) return [];
	if (beforeMiddle.length === 0) {
		return [{ start_line: head + 1, end_line: head + afterMiddle.length }];
	}

	const changes = diffArrays(beforeMiddle, afterMiddle, { maxEditLength: maximumEditLength });
	if (changes === undefined) {
		return [{ start_line: head + 1, end_line: head + afterMiddle.length }];
	}
	const ranges: LineRange[] = [];
	let nextLine = head + 1;
	for (const change of changes) {
		if (change.removed) continue;
		if (change.added) {
			const previous = ranges[ranges.length - 1];
			const endLine = nextLine + change.count - 1;
			if (previous && previous.end_line === nextLine - 1) previous.end_line = endLine;
			else ranges.push({ start_line: nextLine, end_line: endLine });
		}
		nextLine += change.count;
	}
	return ranges;
}

/** Adds each range's `content_hash`: the hash of exactly those lines of `after`, joined with LF. */
export async function rangesWithHashes(
	after: string,
	ranges: readonly LineRange[]
): Promise<TraceRange[]> {
	const lines = splitLines(after);
	for (const range of ranges) {
		const { start_line: start, end_line: end } = range;
		if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) {
			throw new RangeError(
				`Invalid line range ${start}-${end}: lines are 1-based and a range ends at or after its start`
			);
		}
		if (end > lines.length) {
			throw new RangeError(
				`Line range ${start}-${end} is beyond the end of the content (${lines.length} lines)`
			);
		}
	}
	return Promise.all(
		ranges.map(async ({ start_line, end_line }) => ({
			start_line,
			end_line,
			content_hash: await hashLines(lines.slice(start_line - 1, end_line))
		}))
	);
}
