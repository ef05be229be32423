import type { LineDecoding } from '../bytes/line-decoding.js';
import type { SyncContentHasher } from '../hashing/sync-sha256.js';
import { validateTraceRecord } from './agent-trace-schema.js';
import { canonicalJson, canonicalWithoutForm, memberText } from './canonical-json.js';
import { surelyValidTraceRecord } from './trace-record-fast-check.js';
import {
	JsonlLineReader,
	parseJsonlLine,
	type JsonlEntry,
	type JsonlLine,
	type JsonlReadStart,
	type JsonlSource
} from './read-jsonl.js';
import {
	ChainVerifier,
	readLinks,
	safeLineForm,
	type ChainCheck,
	type ChainEnds,
	type ChainKind
} from './verify-chain.js';

export interface InvalidRecord {
	seq: number | null;
	line: number;
	errors: string[];
}

export interface ClassMismatch {
	seq: number;
	path: string;
	declared: string;
	computed: string;
}

export interface VerifyPassInput {
	auditJsonl: JsonlSource;
	traceJsonl: JsonlSource;
	hasher: SyncContentHasher;
	/** How byte lines become text (line-decoding.ts); the same text either way. */
	lineDecoding?: LineDecoding;
	/** Keep every audit line's value (the workspace-files check needs them). */
	keepAuditValues: boolean;
	/** Called every `progressEvery` audit lines with the number read so far. */
	onProgress?: (auditLinesRead: number) => void;
	progressEvery?: number;
	/** The files are a part of the ledger (verify-parts.ts); absent for the whole files. */
	placement?: PartPlacement;
}

/** Where a part of the two files sits in them (see verify-parts.ts). */
export interface PartPlacement {
	/** Lines of each file before the part, empty lines counted. */
	auditLinesBefore: number;
	traceLinesBefore: number;
	/** The part starts at both files' starts: its chains start from the genesis hash. */
	first: boolean;
	/** The part ends at the audit log's end: it reads the trace lines no mutation record pulled. */
	last: boolean;
}

/**
 * Where a reader of a part starts: after the lines before it, or, when there are none, at the
 * file's start, where a BOM is the file's and not text. A later part can start there too (a trace
 * whose first lines belong to a later audit part), so this goes by the lines before, not by
 * `first`; a part whose lines before were guessed wrong is caught by the merge's numbering check.
 */
export function readStart(linesBefore: number): JsonlReadStart | undefined {
	return linesBefore > 0 ? { linesBefore } : undefined;
}

/** What merging a part with its neighbours needs (verify-parts.ts). */
export interface PartBoundaries {
	audit: ChainEnds;
	trace: ChainEnds;
	/** Every trace line of the part was paired with one of its mutation records (always, when last). */
	traceExhausted: boolean;
	/**
	 * Each file's line numbers around the part, empty lines counted: the lines before it (as the
	 * placement said) and the last one it read. A part's `before` must be the last line of the part
	 * before, or its lines were numbered from a wrong guess.
	 */
	lines: { audit: LineSpan; trace: LineSpan };
}

/** Line numbers around a part of a file: the lines before it and the last one read. */
export interface LineSpan {
	before: number;
	last: number;
}

export interface VerifyPassResult {
	audit: ChainCheck;
	trace: ChainCheck;
	auditEvents: number;
	traceRecords: number;
	mutationRecords: number;
	/** Trace records that are not valid Agent Trace or differ from the trace in their audit event. */
	invalid: InvalidRecord[];
	classMismatches: ClassMismatch[];
	/** Every audit line's value (undefined for a line that is not JSON), when asked for. */
	auditValues: unknown[] | null;
	/** The file's line number (empty lines counted) of the first audit line that is not JSON. */
	firstUnreadableAuditLine: number | null;
	boundaries: PartBoundaries;
}

export const auditChain: ChainKind = {
	fileName: 'audit.jsonl',
	linksOf: (value) => readLinks(value, 'the line'),
	hashPath: ['hash']
};

export const traceChain: ChainKind = {
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

/** The audit event a trace line is paired with: the mutation-record event at the same position. */
interface AuditPartner {
	entry: JsonlEntry;
	/** Canonical text of the event's trace, or null when it has none (or none that serialises). */
	traceText: string | null;
}

/**
 * Reads `audit.jsonl` and `agent_trace.jsonl` together in one pass, line by line: each audit line
 * is parsed once and checked against its chain, and each `mutation-record` event pulls the next
 * trace line, which is checked against the trace chain, validated, and compared with the event's
 * trace. Only the current lines are alive (plus the audit values when asked for), so a 91 MB
 * ledger never becomes 100k strings and their objects at once.
 *
 * The usual trace line is the canonical text of its audit event's trace, which the audit line
 * already proved canonical: then it is neither parsed nor serialised again (its value is the
 * event's trace). Any other trace line is parsed and checked on its own.
 */
export async function verifyPass(input: VerifyPassInput): Promise<VerifyPassResult> {
	const placement = input.placement;
	const first = placement?.first ?? true;
	const last = placement?.last ?? true;
	const auditReader = new JsonlLineReader(input.auditJsonl, {
		decoding: input.lineDecoding,
		start: readStart(placement?.auditLinesBefore ?? 0)
	});
	const traceReader = new JsonlLineReader(input.traceJsonl, {
		decoding: input.lineDecoding,
		start: readStart(placement?.traceLinesBefore ?? 0)
	});
	const auditVerifier = new ChainVerifier(auditChain, input.hasher, { open: !first });
	const traceVerifier = new ChainVerifier(traceChain, input.hasher, { open: !first });
	const invalid: InvalidRecord[] = [];
	const classMismatches: ClassMismatch[] = [];
	const auditValues: unknown[] | null = input.keepAuditValues ? [] : null;
	const progressEvery = input.progressEvery ?? 2_000;
	let auditEvents = 0;
	let traceRecords = 0;
	let mutationRecords = 0;
	let firstUnreadableAuditLine: number | null = null;

	const checkTrace = (line: JsonlLine, partner: AuditPartner | null) => {
		traceRecords++;
		let entry: JsonlEntry;
		let paired = false;
		if (
			partner?.traceText != null &&
			partner.traceText !== unserialisable &&
			partner.traceText === line.text &&
			!line.malformed
		) {
			// The line is the canonical text of the event's trace: same value, canonical form.
			const value = (partner.entry.value as { trace: unknown }).trace;
			entry = { line: line.line, text: line.text, bytes: line.bytes, value };
			paired = true;
			if (!traceVerifier.broken) {
				let form: ReturnType<typeof canonicalWithoutForm> | null = null;
				try {
					form = canonicalWithoutForm(line.text, value, traceChain.hashPath);
				} catch {
					// Not for a value that serialised; the checked path below names the problem anyway.
				}
				if (form === null) traceVerifier.check(entry);
				else traceVerifier.check(entry, { canonical: true, fast: true, ...form });
			}
		} else {
			entry = parseJsonlLine(line);
			if (!traceVerifier.broken) {
				const form =
					entry.error === undefined
						? safeLineForm(entry.text, entry.value, traceChain.hashPath)
						: undefined;
				if (typeof form === 'string') traceVerifier.check(entry, undefined);
				else traceVerifier.check(entry, form);
			}
		}

		let record: InvalidRecord | null = null;
		if (entry.error !== undefined) {
			record = { seq: null, line: entry.line, errors: [entry.error] };
		} else {
			const validation = surelyValidTraceRecord(entry.value)
				? ({ ok: true } as const)
				: validateTraceRecord(entry.value);
			if (!validation.ok) {
				record = { seq: traceSeqOf(entry.value), line: entry.line, errors: validation.errors };
			}
			// Each trace line must be, canonically, the trace inside the matching mutation-record event.
			if (partner && !paired) {
				const same =
					partner.traceText !== null &&
					(partner.traceText === entry.text || partner.traceText === safeCanonical(entry.value));
				if (!same) {
					const auditSeq = (partner.entry.value as { seq?: unknown }).seq;
					const message = `differs from the trace in audit.jsonl line ${partner.entry.line}${typeof auditSeq === 'number' ? ` (seq ${auditSeq})` : ''}`;
					if (record) record.errors.push(message);
					else record = { seq: traceSeqOf(entry.value), line: entry.line, errors: [message] };
				}
			}
			collectClassMismatches(entry.value, classMismatches);
		}
		if (record) invalid.push(record);
	};

	for (;;) {
		let line = auditReader.take();
		if (line === 'more') line = await auditReader.next();
		if (line === null) break;
		const entry = parseJsonlLine(line);
		auditEvents++;
		if (entry.error !== undefined) firstUnreadableAuditLine ??= entry.line;
		let provenCanonical = false;
		if (!auditVerifier.broken) {
			const form =
				entry.error === undefined
					? safeLineForm(entry.text, entry.value, auditChain.hashPath)
					: undefined;
			if (typeof form === 'string') {
				// The verifier recomputes it and reports why the line has no canonical form.
				auditVerifier.check(entry);
			} else {
				provenCanonical = auditVerifier.check(entry, form) && form !== undefined && form.fast;
			}
		}
		auditValues?.push(entry.value);
		if (isObject(entry.value) && entry.value.type === 'mutation-record') {
			mutationRecords++;
			let traceLine = traceReader.take();
			if (traceLine === 'more') traceLine = await traceReader.next();
			if (traceLine !== null) {
				const trace = entry.value.trace;
				// A nested value of a line proven canonical (every object's keys sorted, the text
				// equal to JSON.stringify) serialises canonically with JSON.stringify too.
				const traceText =
					trace === undefined
						? null
						: provenCanonical
							? (memberText(entry.text, entry.value, 'trace') ?? JSON.stringify(trace))
							: safeCanonical(trace);
				checkTrace(traceLine, { entry, traceText });
			}
		}
		if (input.onProgress && auditEvents % progressEvery === 0) input.onProgress(auditEvents);
	}
	// Trace lines no mutation record pulled: the whole files' last part reads them; any other part
	// only says whether it had some, and then was not cut where its neighbour's began.
	let traceExhausted = true;
	for (;;) {
		const line = await traceReader.next();
		if (line === null) break;
		if (!last) {
			traceExhausted = false;
			break;
		}
		checkTrace(line, null);
	}
	input.onProgress?.(auditEvents);

	return {
		audit: auditVerifier.result,
		trace: traceVerifier.result,
		auditEvents,
		traceRecords,
		mutationRecords,
		invalid,
		classMismatches,
		auditValues,
		firstUnreadableAuditLine,
		boundaries: {
			audit: auditVerifier.ends,
			trace: traceVerifier.ends,
			traceExhausted,
			lines: {
				audit: {
					before: first ? 0 : (placement?.auditLinesBefore ?? 0),
					last: auditReader.lastLine
				},
				trace: {
					before: first ? 0 : (placement?.traceLinesBefore ?? 0),
					last: traceReader.lastLine
				}
			}
		}
	};
}

function collectClassMismatches(value: unknown, mismatches: ClassMismatch[]): void {
	if (!isObject(value) || !isObject(value.metadata)) return;
	const links = value.metadata['dev.threadline'];
	if (!isObject(links)) return;
	const declared = links.declared_mutation_class;
	const computed = links.mutation_class;
	if (typeof declared !== 'string' || typeof computed !== 'string') return;
	if (declared === computed) return;
	const seq = typeof links.seq === 'number' ? links.seq : 0;
	const files = Array.isArray(value.files) ? value.files : [];
	for (const file of files) {
		if (isObject(file) && typeof file.path === 'string') {
			mismatches.push({ seq, path: file.path, declared, computed });
		}
	}
}

function traceSeqOf(value: unknown): number | null {
	const metadata = isObject(value) ? value.metadata : undefined;
	const links = isObject(metadata) ? metadata['dev.threadline'] : undefined;
	return isObject(links) && typeof links.seq === 'number' ? links.seq : null;
}

const unserialisable = '\u0000unserialisable';

/** Canonical text, or a marker for values that have none (cannot equal a real line). */
function safeCanonical(value: unknown): string {
	try {
		return canonicalJson(value);
	} catch {
		return unserialisable;
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
