import { loadSyncContentHasher, type SyncContentHasher } from '../hashing/sync-sha256.js';
import type { LineDecoding } from '../bytes/line-decoding.js';
import type { JsonlSource } from './read-jsonl.js';
import { verifyPass, type VerifyPassInput } from './verify-pass.js';
import { verifyPassInParts, type StartVerifyHelper } from './verify-parts.js';
import { emptyFilesCheck, verifyWorkspaceFiles, type FilesCheck } from './verify-files.js';
import { verifyOrchestrationFiles, type OrchestrationCheck } from './verify-orchestration.js';

export interface VerifyInput {
	/** Text, or chunks of text or UTF-8 bytes (e.g. a file read piece by piece). */
	auditJsonl: JsonlSource;
	traceJsonl: JsonlSource;
	/** The exported workspace by relative path; when given, file contents are checked too. */
	files?: ReadonlyMap<string, Uint8Array>;
	/** The workspace's symbolic links (path → target), compared with the starting snapshot. */
	links?: ReadonlyMap<string, string>;
	/**
	 * The exported `.orchestration/` by name inside it, as bytes; when given, every file is checked
	 * (derived files recomputed, governance files against their last recorded version).
	 */
	orchestrationFiles?: ReadonlyMap<string, Uint8Array>;
	/** A synchronous sha256 for the two chains (the CLI passes Node's); the plain-JS one otherwise. */
	hasher?: SyncContentHasher;
	/**
	 * How byte lines become text: the same text either way, the fastest way differs by platform
	 * (line-decoding.ts). The CLI passes `'text-decoder'`; the browser's default is faster there.
	 */
	lineDecoding?: LineDecoding;
	/** Audit lines read so far, every few thousand lines (for a progress line or bar). */
	onProgress?: (auditLinesRead: number) => void;
	/**
	 * Starts a helper thread (verify-parts.ts): when both files are given whole as bytes and are
	 * large, they are verified in parts on this thread and the helper's together.
	 */
	startHelper?: StartVerifyHelper;
}

export interface VerifyReport {
	ok: boolean;
	audit: { events: number; intact: boolean; firstBrokenSeq: number | null; problem: string | null };
	trace: {
		records: number;
		intact: boolean;
		firstBrokenSeq: number | null;
		problem: string | null;
		/** Records that are not valid Agent Trace or differ from the trace in their audit event. */
		invalid: { seq: number | null; line: number; errors: string[] }[];
	};
	files: FilesCheck;
	/** The `.orchestration/` files; null when the caller gave none to check. */
	orchestration?: OrchestrationCheck | null;
	/** Where the agent declared another class than the one computed: reported, not a failure. */
	classMismatches: { seq: number; path: string; declared: string; computed: string }[];
	/** One line naming the first failing record, e.g. `audit.jsonl line 7 (seq 7): hash does not match its content`. */
	firstFailure: string | null;
}

/**
 * Checks an export: recomputes the audit and trace chains, validates every trace record, matches
 * the trace records with the audit log's mutation records, and (when the workspace is given)
 * compares every file with what the ledger says it should be. Both files are read in one pass,
 * line by line (see verifyPass); they may be given as text or as chunks (a file read in pieces).
 */
export async function verifyLedger(input: VerifyInput): Promise<VerifyReport> {
	return (await verifyLedgerReading(input, false)).report;
}

/**
 * verifyLedger, also handing back the audit log's values as the pass parsed them (one per
 * non-empty line, `undefined` where a line is not JSON), so a report needs no second parse, and
 * the file's line number of the first line that is not JSON (empty lines counted, as an editor
 * numbers them).
 */
export async function verifyLedgerAndValues(input: VerifyInput): Promise<{
	report: VerifyReport;
	auditValues: unknown[];
	firstUnreadableAuditLine: number | null;
}> {
	const read = await verifyLedgerReading(input, true);
	return {
		report: read.report,
		auditValues: read.auditValues ?? [],
		firstUnreadableAuditLine: read.firstUnreadableAuditLine
	};
}

async function verifyLedgerReading(
	input: VerifyInput,
	keepValues: boolean
): Promise<{
	report: VerifyReport;
	auditValues: unknown[] | null;
	firstUnreadableAuditLine: number | null;
}> {
	const passInput: VerifyPassInput = {
		auditJsonl: input.auditJsonl,
		traceJsonl: input.traceJsonl,
		hasher: input.hasher ?? (await loadSyncContentHasher()),
		lineDecoding: input.lineDecoding,
		keepAuditValues:
			keepValues || input.files !== undefined || input.orchestrationFiles !== undefined,
		onProgress: input.onProgress
	};
	const { auditJsonl, traceJsonl } = passInput;
	const pass =
		input.startHelper && auditJsonl instanceof Uint8Array && traceJsonl instanceof Uint8Array
			? await verifyPassInParts({ ...passInput, auditJsonl, traceJsonl }, input.startHelper)
			: await verifyPass(passInput);
	const audit = pass.audit;
	const trace = pass.trace;
	let traceProblem = trace.problem;
	let traceFailure = trace.failure;
	let traceBrokenSeq = trace.firstBrokenSeq;
	if (trace.intact && pass.traceRecords !== pass.mutationRecords) {
		// Each chain is whole but one file lost (or gained) records at its end.
		const shorter = Math.min(pass.traceRecords, pass.mutationRecords);
		traceBrokenSeq = shorter + 1;
		traceProblem = `agent_trace.jsonl has ${pass.traceRecords} record${pass.traceRecords === 1 ? '' : 's'} but audit.jsonl has ${pass.mutationRecords} mutation-record event${pass.mutationRecords === 1 ? '' : 's'}`;
		traceFailure = `agent_trace.jsonl (seq ${traceBrokenSeq}): ${traceProblem}`;
	}
	const invalid = pass.invalid;

	const events = pass.auditValues ?? [];
	let files: FilesCheck = emptyFilesCheck();
	let filesFailure: string | null = null;
	if (input.files) {
		const checked = await verifyWorkspaceFiles(events, input.files, input.links);
		files = checked.report;
		filesFailure = checked.failure;
	}
	let orchestration: OrchestrationCheck | null = null;
	if (input.orchestrationFiles) {
		orchestration = await verifyOrchestrationFiles(events, input.orchestrationFiles);
	}
	const orchestrationFailure = orchestration?.problems[0]
		? `.orchestration/${orchestration.problems[0]}`
		: null;

	const firstInvalid = invalid[0];
	const invalidFailure = firstInvalid
		? `agent_trace.jsonl line ${firstInvalid.line}${firstInvalid.seq === null ? '' : ` (seq ${firstInvalid.seq})`}: ${firstInvalid.errors[0] ?? 'invalid'}`
		: null;
	const firstFailure =
		audit.failure ?? traceFailure ?? invalidFailure ?? orchestrationFailure ?? filesFailure;

	const report: VerifyReport = {
		ok: firstFailure === null,
		audit: {
			events: pass.auditEvents,
			intact: audit.intact,
			firstBrokenSeq: audit.firstBrokenSeq,
			problem: audit.problem
		},
		trace: {
			records: pass.traceRecords,
			intact: traceProblem === null,
			firstBrokenSeq: traceBrokenSeq,
			problem: traceProblem,
			invalid
		},
		files,
		orchestration,
		classMismatches: pass.classMismatches,
		firstFailure
	};
	return {
		report,
		auditValues: pass.auditValues,
		firstUnreadableAuditLine: pass.firstUnreadableAuditLine
	};
}
