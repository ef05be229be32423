import type { ContentHasher } from '../hashing/sha256.js';
import { validateTraceRecord } from './agent-trace-schema.js';
import { canonicalJson } from './canonical-json.js';
import { readJsonl, type JsonlEntry } from './read-jsonl.js';
import { readLinks, verifyChain, type ChainKind } from './verify-chain.js';
import { emptyFilesCheck, verifyWorkspaceFiles, type FilesCheck } from './verify-files.js';
import { verifyOrchestrationFiles, type OrchestrationCheck } from './verify-orchestration.js';

export interface VerifyInput {
	auditJsonl: string;
	traceJsonl: string;
	/** The exported workspace by relative path; when given, file contents are checked too. */
	files?: ReadonlyMap<string, Uint8Array>;
	/** The workspace's symbolic links (path → target), compared with the starting snapshot. */
	links?: ReadonlyMap<string, string>;
	/**
	 * The exported `.orchestration/` by name inside it, as bytes; when given, every file is checked
	 * (derived files recomputed, governance files against their last recorded version).
	 */
	orchestrationFiles?: ReadonlyMap<string, Uint8Array>;
	/** A faster sha256 for the two chains (the CLI passes Node's); Web Crypto otherwise. */
	hasher?: ContentHasher;
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

type InvalidRecord = VerifyReport['trace']['invalid'][number];

const auditChain: ChainKind = {
	fileName: 'audit.jsonl',
	linksOf: (value) => readLinks(value, 'the line'),
	hashPath: ['hash']
};

const traceChain: ChainKind = {
	fileName: 'agent_trace.jsonl',
	linksOf: (value) => {
		const metadata = isObject(value) ? value.metadata : undefined;
		return readLinks(
			isObject(metadata) ? metadata['dev.threadline'] : undefined,
			'metadata["dev.threadline"]'
		);
	},
	hashPath: ['metadata', 'dev.threadline', 'hash']
};

/**
 * Checks an export: recomputes the audit and trace chains, validates every trace record, matches
 * the trace records with the audit log's mutation records, and (when the workspace is given)
 * compares every file with what the ledger says it should be.
 */
export async function verifyLedger(input: VerifyInput): Promise<VerifyReport> {
	const auditEntries = readJsonl(input.auditJsonl);
	const traceEntries = readJsonl(input.traceJsonl);

	// Side by side, so one chain's hashing overlaps the other's parsing work.
	const [audit, trace] = await Promise.all([
		verifyChain(auditEntries, auditChain, input.hasher),
		verifyChain(traceEntries, traceChain, input.hasher)
	]);

	const invalidByLine = new Map<number, InvalidRecord>();
	for (const entry of traceEntries) {
		if (entry.error !== undefined) {
			invalidByLine.set(entry.line, { seq: null, line: entry.line, errors: [entry.error] });
			continue;
		}
		const validation = validateTraceRecord(entry.value);
		if (!validation.ok) {
			const seq = traceSeqOf(entry.value);
			invalidByLine.set(entry.line, { seq, line: entry.line, errors: validation.errors });
		}
	}

	const mutationEntries = auditEntries.filter(
		(entry) => isObject(entry.value) && entry.value.type === 'mutation-record'
	);
	let traceProblem = trace.problem;
	let traceFailure = trace.failure;
	let traceBrokenSeq = trace.firstBrokenSeq;
	compareWithAudit(traceEntries, mutationEntries, invalidByLine);
	if (trace.intact && traceEntries.length !== mutationEntries.length) {
		// Each chain is whole but one file lost (or gained) records at its end.
		const shorter = Math.min(traceEntries.length, mutationEntries.length);
		traceBrokenSeq = shorter + 1;
		traceProblem = `agent_trace.jsonl has ${traceEntries.length} record${traceEntries.length === 1 ? '' : 's'} but audit.jsonl has ${mutationEntries.length} mutation-record event${mutationEntries.length === 1 ? '' : 's'}`;
		traceFailure = `agent_trace.jsonl (seq ${traceBrokenSeq}): ${traceProblem}`;
	}
	const invalid = [...invalidByLine.values()].sort((left, right) => left.line - right.line);

	const events = auditEntries.map((entry) => entry.value);
	let files: FilesCheck = emptyFilesCheck();
	let filesFailure: string | null = null;
	if (input.files) {
		const checked = await verifyWorkspaceFiles(events, input.files, input.links);
		files = checked.report;
		filesFailure = checked.failure;
	}
	let orchestration: OrchestrationCheck | null = null;
	if (input.orchestrationFiles) {
		orchestration = await verifyOrchestrationFiles(
			events,
			auditEntries.map((entry) => entry.text),
			traceEntries.map((entry) => entry.text),
			input.orchestrationFiles
		);
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

	return {
		ok: firstFailure === null,
		audit: {
			events: auditEntries.length,
			intact: audit.intact,
			firstBrokenSeq: audit.firstBrokenSeq,
			problem: audit.problem
		},
		trace: {
			records: traceEntries.length,
			intact: traceProblem === null,
			firstBrokenSeq: traceBrokenSeq,
			problem: traceProblem,
			invalid
		},
		files,
		orchestration,
		classMismatches: classMismatchesOf(traceEntries),
		firstFailure
	};
}

/** Each trace line must be, canonically, the trace inside the matching mutation-record event. */
function compareWithAudit(
	traceEntries: readonly JsonlEntry[],
	mutationEntries: readonly JsonlEntry[],
	invalidByLine: Map<number, InvalidRecord>
): void {
	const count = Math.min(traceEntries.length, mutationEntries.length);
	for (let position = 0; position < count; position++) {
		const traceEntry = traceEntries[position] as JsonlEntry;
		const auditEntry = mutationEntries[position] as JsonlEntry;
		if (traceEntry.error !== undefined) continue;
		const auditTrace = (auditEntry.value as { trace?: unknown }).trace;
		// The trace line is canonical when its chain holds, so one side's text usually suffices.
		const auditText = auditTrace === undefined ? null : safeCanonical(auditTrace);
		const same =
			auditText !== null &&
			(auditText === traceEntry.text || auditText === safeCanonical(traceEntry.value));
		if (same) continue;
		const auditSeq = (auditEntry.value as { seq?: unknown }).seq;
		const message = `differs from the trace in audit.jsonl line ${auditEntry.line}${typeof auditSeq === 'number' ? ` (seq ${auditSeq})` : ''}`;
		const existing = invalidByLine.get(traceEntry.line);
		if (existing) existing.errors.push(message);
		else {
			const seq = traceSeqOf(traceEntry.value);
			invalidByLine.set(traceEntry.line, { seq, line: traceEntry.line, errors: [message] });
		}
	}
}

function classMismatchesOf(traceEntries: readonly JsonlEntry[]): VerifyReport['classMismatches'] {
	const mismatches: VerifyReport['classMismatches'] = [];
	for (const entry of traceEntries) {
		if (!isObject(entry.value) || !isObject(entry.value.metadata)) continue;
		const links = entry.value.metadata['dev.threadline'];
		if (!isObject(links)) continue;
		const declared = links.declared_mutation_class;
		const computed = links.mutation_class;
		if (typeof declared !== 'string' || typeof computed !== 'string') continue;
		if (declared === computed) continue;
		const seq = typeof links.seq === 'number' ? links.seq : 0;
		const files = Array.isArray(entry.value.files) ? entry.value.files : [];
		for (const file of files) {
			if (isObject(file) && typeof file.path === 'string') {
				mismatches.push({ seq, path: file.path, declared, computed });
			}
		}
	}
	return mismatches;
}

function traceSeqOf(value: unknown): number | null {
	const metadata = isObject(value) ? value.metadata : undefined;
	const links = isObject(metadata) ? metadata['dev.threadline'] : undefined;
	return isObject(links) && typeof links.seq === 'number' ? links.seq : null;
}

/** Canonical text, or a marker for values that have none (cannot equal a real line). */
function safeCanonical(value: unknown): string {
	try {
		return canonicalJson(value);
	} catch {
		return '\u0000unserialisable';
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
