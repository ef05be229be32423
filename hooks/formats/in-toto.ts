import type { IntentCheck } from '../intents/check-criteria.js';

/**
 * in-toto Statement v1 (in-toto/attestation spec v1) about one export: its subjects are the
 * export's chained files by SHA-256, its predicate the heads of both chains and the class
 * server's receipts found in the ledger; with `threadline attest --check` a second Statement
 * carries the in-toto Test Result predicate (test-result/v0.1) of the criteria run. Each goes
 * into a DSSE envelope (dsse.ts); several envelopes are a bundle, one JSON object per line.
 */

export const statementType = 'https://in-toto.io/Statement/v1';
export const inTotoPayloadType = 'application/vnd.in-toto+json';
/** Threadline's own predicate: what the ledger held when it was attested. */
export const ledgerPredicateType = 'urn:threadline:attestation:ledger:v1';
export const testResultPredicateType = 'https://in-toto.io/attestation/test-result/v0.1';

/** The export's files whose content the two hash chains seal (the other files are checked against them). */
export const chainedFileNames = ['audit.jsonl', 'agent_trace.jsonl', 'conversation.jsonl'] as const;

export interface ResourceDescriptor {
	name: string;
	digest: { sha256: string };
}

export interface Statement {
	_type: typeof statementType;
	subject: ResourceDescriptor[];
	predicateType: string;
	predicate: Record<string, unknown>;
}

export interface ChainHead {
	seq: number;
	hash: string;
}

export interface LedgerPredicate {
	audit: { events: number; head: ChainHead | null };
	trace: { records: number; head: ChainHead | null };
	/** Every `witness-receipt` event of the ledger: the receipt and its signature, as recorded. */
	receipts: { seq: number; receipt: unknown; signature: unknown }[];
	tool: { name: 'threadline'; version: string };
}

/** The subjects: each chained `.orchestration/` file the export has, by name and SHA-256 (hex). */
export function chainedSubjects(
	orchestrationFiles: ReadonlyMap<string, Uint8Array>,
	sha256Hex: (bytes: Uint8Array) => string
): ResourceDescriptor[] {
	const subjects: ResourceDescriptor[] = [];
	for (const name of chainedFileNames) {
		const bytes = orchestrationFiles.get(name);
		if (bytes)
			subjects.push({ name: `.orchestration/${name}`, digest: { sha256: sha256Hex(bytes) } });
	}
	return subjects;
}

type EventValue = Record<string, unknown>;

function parsedLines(text: string): EventValue[] {
	const values: EventValue[] = [];
	for (const line of text.split('\n')) {
		if (line.trim() === '') continue;
		try {
			const value = JSON.parse(line) as unknown;
			if (typeof value === 'object' && value !== null && !Array.isArray(value))
				values.push(value as EventValue);
		} catch {
			// verify names such a line; an attestation states the heads of the lines that are JSON.
		}
	}
	return values;
}

function headOf(value: EventValue | undefined): ChainHead | null {
	if (!value) return null;
	return typeof value.seq === 'number' && typeof value.hash === 'string'
		? { seq: value.seq, hash: value.hash }
		: null;
}

/** The heads of both chains and the receipts, read from the export's audit and trace text. */
export function ledgerPredicate(
	auditJsonl: string,
	traceJsonl: string,
	toolVersion: string
): LedgerPredicate {
	const events = parsedLines(auditJsonl);
	const records = parsedLines(traceJsonl);
	const lastRecord = records.at(-1);
	const traceMetadata = (lastRecord?.metadata as EventValue | undefined)?.['dev.threadline'] as
		EventValue | undefined;
	return {
		audit: { events: events.length, head: headOf(events.at(-1)) },
		trace: { records: records.length, head: headOf(traceMetadata) },
		receipts: events
			.filter((event) => event.type === 'witness-receipt')
			.map((event) => ({
				seq: typeof event.seq === 'number' ? event.seq : -1,
				receipt: event.receipt ?? null,
				signature: event.signature ?? null
			})),
		tool: { name: 'threadline', version: toolVersion }
	};
}

export function ledgerStatement(
	subjects: ResourceDescriptor[],
	predicate: LedgerPredicate
): Statement {
	return {
		_type: statementType,
		subject: subjects,
		predicateType: ledgerPredicateType,
		predicate: predicate as unknown as Record<string, unknown>
	};
}

/**
 * The Test Result predicate of a criteria run: each criterion named `<intent>: <description>`;
 * passed ones in passedTests, failed and not-run ones in failedTests, plain-sentence (manual)
 * ones in warnedTests (no machine checked them). FAILED when any failed, WARNED when only
 * manual ones are left, else PASSED. The configuration is the intents file that defined them.
 */
export function testResultStatement(
	subjects: ResourceDescriptor[],
	checks: readonly IntentCheck[],
	configuration: ResourceDescriptor
): Statement {
	const passedTests: string[] = [];
	const warnedTests: string[] = [];
	const failedTests: string[] = [];
	for (const check of checks) {
		for (const criterion of check.criteria) {
			const name = `${check.intent_id}: ${criterion.description}`;
			if (criterion.outcome === 'passed') passedTests.push(name);
			else if (criterion.outcome === 'manual') warnedTests.push(name);
			else failedTests.push(name);
		}
	}
	return {
		_type: statementType,
		subject: subjects,
		predicateType: testResultPredicateType,
		predicate: {
			result: failedTests.length > 0 ? 'FAILED' : warnedTests.length > 0 ? 'WARNED' : 'PASSED',
			configuration: [configuration],
			passedTests,
			warnedTests,
			failedTests
		}
	};
}

/** A Statement's bytes: compact JSON, the serialization the envelope signs. */
export function statementBytes(statement: Statement): Uint8Array {
	return new TextEncoder().encode(JSON.stringify(statement));
}

export type StatementCheck = { ok: true; statement: Statement } | { ok: false; problem: string };

/** Reads an untrusted Statement v1 (the envelope's payload): the fields the spec requires, with their types. */
export function readStatement(payload: Uint8Array): StatementCheck {
	let value: unknown;
	try {
		value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
	} catch {
		return { ok: false, problem: 'the payload is not UTF-8 JSON' };
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		return { ok: false, problem: 'the statement is not a JSON object' };
	const statement = value as Record<string, unknown>;
	if (statement._type !== statementType)
		return { ok: false, problem: `_type is not ${statementType}` };
	if (typeof statement.predicateType !== 'string' || statement.predicateType === '')
		return { ok: false, problem: 'the statement has no predicateType' };
	if (!Array.isArray(statement.subject) || statement.subject.length === 0)
		return { ok: false, problem: 'the statement has no subject' };
	for (const subject of statement.subject as unknown[]) {
		const entry = subject as Record<string, unknown> | null;
		const digest = entry?.digest as Record<string, unknown> | undefined;
		if (
			typeof entry?.name !== 'string' ||
			typeof digest?.sha256 !== 'string' ||
			!/^[0-9a-f]{64}$/.test(digest.sha256)
		)
			return { ok: false, problem: 'a subject has no name or no sha256 digest (64 lowercase hex)' };
	}
	if (
		typeof statement.predicate !== 'object' ||
		statement.predicate === null ||
		Array.isArray(statement.predicate)
	)
		return { ok: false, problem: 'the statement has no predicate object' };
	return { ok: true, statement: value as Statement };
}
