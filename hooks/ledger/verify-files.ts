import { contentHash, hashLines } from '../hashing/sha256.js';
import { decodeText, splitLines } from '../hashing/text-encoding.js';

export interface FilesCheck {
	checked: number;
	contentMismatches: string[];
	unattributed: string[];
	missing: string[];
	rangeMismatches: { path: string; seq: number }[];
	/** Symbolic links that differ from the starting snapshot (added, removed, retargeted). */
	linkProblems?: string[];
	/** Recorded changes under `.git/`, which nothing may write. */
	protectedChanges?: string[];
}

export function emptyFilesCheck(): Required<FilesCheck> {
	return {
		checked: 0,
		contentMismatches: [],
		unattributed: [],
		missing: [],
		rangeMismatches: [],
		linkProblems: [],
		protectedChanges: []
	};
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

/** The export's own folder is checked file by file in verify-orchestration.ts. */
const orchestrationPrefix = '.orchestration/';
/** `.git/` must stay as the starting snapshot recorded it: no record may change it. */
const gitPrefix = '.git/';

/**
 * Compares the exported workspace with what the ledger says: the last mutation record of each
 * path, else the latest `workspace-snapshot`.
 * Events are the parsed audit lines; anything malformed is skipped here, since the chain check
 * already reports it.
 */
export async function verifyWorkspaceFiles(
	events: readonly unknown[],
	files: ReadonlyMap<string, Uint8Array>,
	links: ReadonlyMap<string, string> = new Map()
): Promise<{ report: FilesCheck; failure: string | null }> {
	const { expected, expectedLinks, protectedChanges } = expectedFiles(events);
	const report = emptyFilesCheck();
	report.protectedChanges = protectedChanges;
	const linkProblems = report.linkProblems;
	// The first problem of each kind, reported in this order of gravity.
	const first = { protected: '', content: '', unattributed: '', missing: '', range: '', link: '' };
	if (protectedChanges[0]) first.protected = protectedChanges[0];
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
	for (const path of [...new Set([...links.keys(), ...expectedLinks.keys()])].sort(compareText)) {
		const actual = links.get(path);
		const wanted = expectedLinks.get(path);
		if (actual === wanted) continue;
		const message =
			wanted === undefined
				? `${path}: a symbolic link (to ${JSON.stringify(actual)}) the starting snapshot does not have`
				: actual === undefined
					? `${path}: the starting snapshot has a symbolic link here (to ${JSON.stringify(wanted)}), the export does not`
					: `${path}: a symbolic link to ${JSON.stringify(actual)}, but the starting snapshot says ${JSON.stringify(wanted)}`;
		linkProblems.push(message);
		note('link', message);
	}
	const failure =
		first.protected ||
		first.content ||
		first.unattributed ||
		first.missing ||
		first.range ||
		first.link ||
		null;
	return { report, failure };
}

/**
 * The last mutation record of a path decides; a path no record touched keeps the hash of the
 * latest `workspace-snapshot` (each snapshot lists the whole workspace at its time, so it replaces
 * the one before as the baseline; it never overrides a record, or a snapshot taken after an
 * unrecorded change would launder it).
 */
function expectedFiles(events: readonly unknown[]): {
	expected: Map<string, ExpectedFile>;
	expectedLinks: Map<string, string>;
	protectedChanges: string[];
} {
	let baseline = new Map<string, ExpectedFile>();
	const git = new Map<string, ExpectedFile>();
	const expectedLinks = new Map<string, string>();
	const recorded = new Map<string, ExpectedFile>();
	const protectedChanges: string[] = [];
	let snapshotSeen = false;
	for (const event of events) {
		if (!isObject(event)) continue;
		if (event.type === 'workspace-snapshot' && isObject(event.files)) {
			baseline = new Map();
			for (const [rawPath, hash] of Object.entries(event.files)) {
				const path = rawPath.normalize('NFC');
				if (typeof hash !== 'string' || path.startsWith(orchestrationPrefix)) continue;
				if (path.startsWith(gitPrefix)) {
					// Only the starting snapshot speaks for .git/: a later one cannot launder a change.
					if (!snapshotSeen) git.set(path, { source: 'baseline', hash });
				} else baseline.set(path, { source: 'baseline', hash });
			}
			if (!snapshotSeen && isObject(event.links)) {
				for (const [path, target] of Object.entries(event.links)) {
					if (typeof target === 'string') expectedLinks.set(path.normalize('NFC'), target);
				}
			}
			snapshotSeen = true;
		} else if (event.type === 'mutation-record' && isObject(event.trace)) {
			applyRecord(recorded, event.trace, protectedChanges, event.seq);
		}
	}
	for (const [path, expectation] of recorded) baseline.set(path, expectation);
	for (const [path, expectation] of git) baseline.set(path, expectation);
	return { expected: baseline, expectedLinks, protectedChanges };
}

function applyRecord(
	expected: Map<string, ExpectedFile>,
	trace: Record<string, unknown>,
	protectedChanges: string[],
	seq: unknown
): void {
	const links = isObject(trace.metadata) ? trace.metadata['dev.threadline'] : undefined;
	if (!isObject(links) || !Array.isArray(trace.files)) return;
	const deleted = links.operation === 'delete';
	const hash = typeof links.file_hash === 'string' ? links.file_hash : null;
	const traceSeq = typeof links.seq === 'number' ? links.seq : 0;
	for (const file of trace.files) {
		if (!isObject(file) || typeof file.path !== 'string') continue;
		const path = file.path.normalize('NFC');
		if (path.startsWith(orchestrationPrefix)) continue;
		if (path.startsWith(gitPrefix)) {
			protectedChanges.push(
				`${path}: the audit event seq ${typeof seq === 'number' ? seq : '?'} records a change under .git/, which nothing may write`
			);
			continue;
		}
		const ranges: { start_line: number; end_line: number; content_hash: string }[] = [];
		for (const conversation of Array.isArray(file.conversations) ? file.conversations : []) {
			if (!isObject(conversation) || !Array.isArray(conversation.ranges)) continue;
			for (const range of conversation.ranges) {
				if (isObject(range)) ranges.push(range as (typeof ranges)[number]);
			}
		}
		expected.set(path, { source: 'record', hash: deleted ? null : hash, traceSeq, ranges });
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
