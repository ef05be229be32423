import { contentHash, hashLines } from '../hashing/sha256.js';
import { decodeText, splitLines } from '../hashing/text-encoding.js';

export interface FilesCheck {
	checked: number;
	contentMismatches: string[];
	unattributed: string[];
	missing: string[];
	rangeMismatches: { path: string; seq: number }[];
}

/** What the ledger says a path should hold after all its events. */
type ExpectedFile =
	| { source: 'baseline'; hash: string }
	| {
			source: 'record';
			/** `null`: the last record deleted the file. */
			hash: string | null;
			traceSeq: number;
			ranges: { start_line: number; end_line: number; content_hash: string }[];
	  };

/** The export's own folder is written by the export, not by the session: never checked. */
const orchestrationPrefix = '.orchestration/';

/**
 * Compares the exported workspace with what the ledger says: the last mutation record of each
 * path, else the latest `workspace-snapshot`.
 * Events are the parsed audit lines; anything malformed is skipped here, since the chain check
 * already reports it.
 */
export async function verifyWorkspaceFiles(
	events: readonly unknown[],
	files: ReadonlyMap<string, Uint8Array>
): Promise<{ report: FilesCheck; failure: string | null }> {
	const expected = expectedFiles(events);
	const report: FilesCheck = {
		checked: 0,
		contentMismatches: [],
		unattributed: [],
		missing: [],
		rangeMismatches: []
	};
	// The first problem of each kind, reported in this order of gravity.
	const first = { content: '', unattributed: '', missing: '', range: '' };
	const note = (kind: keyof typeof first, message: string): void => {
		if (first[kind] === '') first[kind] = message;
	};

	for (const path of [...files.keys()].sort(compareText)) {
		if (path.startsWith(orchestrationPrefix)) continue;
		const content = files.get(path) as Uint8Array;
		report.checked++;
		const expectation = expected.get(path);
		if (!expectation) {
			report.unattributed.push(path);
			note(
				'unattributed',
				`${path}: not in the starting snapshot and written by no recorded change`
			);
		} else if (expectation.hash === null) {
			report.contentMismatches.push(path);
			const seq = expectation.source === 'record' ? expectation.traceSeq : 0;
			note('content', `${path}: exists, but its last record (trace seq ${seq}) deleted it`);
		} else if ((await contentHash(content)) !== expectation.hash) {
			report.contentMismatches.push(path);
			note(
				'content',
				expectation.source === 'record'
					? `${path}: content differs from its last record (trace seq ${expectation.traceSeq})`
					: `${path}: content differs from the workspace snapshot and no recorded change explains it`
			);
		} else if (
			expectation.source === 'record' &&
			!(await rangesMatch(content, expectation.ranges))
		) {
			report.rangeMismatches.push({ path, seq: expectation.traceSeq });
			note(
				'range',
				`${path}: a range of its last record (trace seq ${expectation.traceSeq}) does not match the file's lines`
			);
		}
	}
	for (const [path, expectation] of [...expected].sort(([left], [right]) =>
		compareText(left, right)
	)) {
		if (expectation.hash !== null && !files.has(path)) {
			report.missing.push(path);
			note('missing', `${path}: the ledger says it exists, but the export does not contain it`);
		}
	}
	const failure = first.content || first.unattributed || first.missing || first.range || null;
	return { report, failure };
}

/**
 * The last mutation record of a path decides; a path no record touched keeps the hash of the
 * latest `workspace-snapshot` (each snapshot lists the whole workspace at its time, so it replaces
 * the one before as the baseline; it never overrides a record, or a snapshot taken after an
 * unrecorded change would launder it).
 */
function expectedFiles(events: readonly unknown[]): Map<string, ExpectedFile> {
	let baseline = new Map<string, ExpectedFile>();
	const recorded = new Map<string, ExpectedFile>();
	for (const event of events) {
		if (!isObject(event)) continue;
		if (event.type === 'workspace-snapshot' && isObject(event.files)) {
			baseline = new Map();
			for (const [path, hash] of Object.entries(event.files)) {
				if (typeof hash === 'string' && !path.startsWith(orchestrationPrefix)) {
					baseline.set(path, { source: 'baseline', hash });
				}
			}
		} else if (event.type === 'mutation-record' && isObject(event.trace)) {
			applyRecord(recorded, event.trace);
		}
	}
	for (const [path, expectation] of recorded) baseline.set(path, expectation);
	return baseline;
}

function applyRecord(expected: Map<string, ExpectedFile>, trace: Record<string, unknown>): void {
	const links = isObject(trace.metadata) ? trace.metadata['dev.threadline'] : undefined;
	if (!isObject(links) || !Array.isArray(trace.files)) return;
	const deleted = links.operation === 'delete';
	const hash = typeof links.file_hash === 'string' ? links.file_hash : null;
	const traceSeq = typeof links.seq === 'number' ? links.seq : 0;
	for (const file of trace.files) {
		if (
			!isObject(file) ||
			typeof file.path !== 'string' ||
			file.path.startsWith(orchestrationPrefix)
		) {
			continue;
		}
		const ranges: { start_line: number; end_line: number; content_hash: string }[] = [];
		for (const conversation of Array.isArray(file.conversations) ? file.conversations : []) {
			if (!isObject(conversation) || !Array.isArray(conversation.ranges)) continue;
			for (const range of conversation.ranges) {
				if (isObject(range)) ranges.push(range as (typeof ranges)[number]);
			}
		}
		expected.set(file.path, { source: 'record', hash: deleted ? null : hash, traceSeq, ranges });
	}
}

/** Each range must lie within the file's lines and hash to its `content_hash`. */
async function rangesMatch(
	content: Uint8Array,
	ranges: readonly { start_line: number; end_line: number; content_hash: string }[]
): Promise<boolean> {
	if (ranges.length === 0) return true;
	const decoded = decodeText(content);
	// A file recorded with line ranges but no longer text cannot match them.
	if (!decoded.ok) return false;
	const lines = splitLines(decoded.text);
	for (const { start_line: start, end_line: end, content_hash: expected } of ranges) {
		if (!Number.isInteger(start) || !Number.isInteger(end)) return false;
		if (start < 1 || end < start || end > lines.length) return false;
		if ((await hashLines(lines.slice(start - 1, end))) !== expected) return false;
	}
	return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compareText(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}
