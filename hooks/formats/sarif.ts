import { toolErrorCodes, type ToolErrorCode } from '../errors/tool-error.js';
import { jsSha256Hex } from '../hashing/js-sha256.js';
import type { VerifyReport } from '../ledger/verify.js';

/**
 * SARIF 2.1.0 (OASIS) for `threadline verify --format sarif` and `threadline report --format
 * sarif`: what code-scanning pages (GitHub, Azure DevOps, VS Code's SARIF viewer) show. One rule
 * per ToolError code (a blocked tool call) and per kind of verify failure; every result has a
 * location (a path in the export, and a line where there is one) and a fingerprint that stays
 * the same for the same finding in the same export, so a re-run does not raise it again.
 * Checked against the official schema and by Microsoft's SARIF Multitool (sarif.test.ts).
 */

export const sarifSchemaUri =
	'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Where result paths start: the export's root (a folder or a zip's top level). */
const exportRoot = 'EXPORTROOT';

export type SarifLevel = 'error' | 'warning' | 'note';

export interface FindingLocation {
	/** A path inside the export, `/`-separated (e.g. `.orchestration/audit.jsonl`, `src/a.ts`). */
	path: string;
	/** 1-based, when the finding has a line. */
	line?: number;
}

export interface Finding {
	ruleId: string;
	message: string;
	location: FindingLocation;
	related?: FindingLocation[];
	/** What makes this finding itself (not its wording): the fingerprint is their hash. */
	identity: readonly (string | number)[];
}

interface Rule {
	id: string;
	name: string;
	description: string;
	level: SarifLevel;
}

/** The verify failure kinds, each a rule. */
export const verifyRules = [
	{
		id: 'audit-chain-broken',
		name: 'AuditChainBroken',
		description:
			'The audit log’s hash chain does not hold: an event was changed, removed, inserted or reordered.',
		level: 'error'
	},
	{
		id: 'trace-chain-broken',
		name: 'TraceChainBroken',
		description:
			'The Agent Trace file’s hash chain does not hold, or it disagrees with the audit log’s mutation records.',
		level: 'error'
	},
	{
		id: 'trace-record-invalid',
		name: 'TraceRecordInvalid',
		description:
			'A trace record is not valid Agent Trace 0.1.0 or differs from the trace its audit event sealed.',
		level: 'error'
	},
	{
		id: 'file-changed-without-record',
		name: 'FileChangedWithoutRecord',
		description: 'A workspace file differs from what the ledger says it holds.',
		level: 'error'
	},
	{
		id: 'file-unattributed',
		name: 'FileUnattributed',
		description: 'A workspace file that neither the starting snapshot nor any record accounts for.',
		level: 'error'
	},
	{
		id: 'file-missing',
		name: 'FileMissing',
		description: 'A file the ledger says exists is missing from the export.',
		level: 'error'
	},
	{
		id: 'range-hash-mismatch',
		name: 'RangeHashMismatch',
		description: 'A recorded changed-line range does not hash to what its trace record says.',
		level: 'error'
	},
	{
		id: 'link-changed',
		name: 'LinkChanged',
		description: 'A symbolic link differs from the starting snapshot.',
		level: 'error'
	},
	{
		id: 'protected-change',
		name: 'ProtectedChange',
		description: 'A recorded change under a path nothing may write (.git/).',
		level: 'error'
	},
	{
		id: 'orchestration-file-mismatch',
		name: 'OrchestrationFileMismatch',
		description: 'An .orchestration/ file differs from what the ledger recorded or derives.',
		level: 'error'
	},
	{
		id: 'attestation-failed',
		name: 'AttestationFailed',
		description: 'An attestation’s signature, subjects or ledger heads do not match this export.',
		level: 'error'
	},
	{
		id: 'witness-failed',
		name: 'WitnessFailed',
		description: 'The class server’s receipts or copy do not vouch for this ledger.',
		level: 'error'
	},
	{
		id: 'mutation-class-mismatch',
		name: 'MutationClassMismatch',
		description:
			'The agent declared another mutation class than the one computed (reported, not a failure).',
		level: 'note'
	}
] as const satisfies readonly Rule[];

export type VerifyRuleId = (typeof verifyRules)[number]['id'];

const toolErrorDescriptions: Record<ToolErrorCode, string> = {
	intent_required: 'A tool call that changes something was made before an intent was selected.',
	intent_not_found: 'A call named an intent that is not in active_intents.yaml.',
	intent_not_active: 'A call named an intent that is not IN_PROGRESS.',
	intent_mismatch: 'A call declared another intent than the one checked out.',
	intent_locked: 'The intent is held by another session.',
	scope_violation: 'A change outside the active intent’s owned_scope.',
	protected_path:
		'A change to a governance path (.orchestration/, .git/, .intentignore) or through a link.',
	stale_file: 'A write based on a version of the file that changed since it was read.',
	user_rejected: 'The person declined the action.',
	command_denied: 'A shell command the command policy or a hook rule denies.',
	command_failed: 'A command (or an acceptance criterion) exited with an error.',
	invalid_input: 'A tool call whose input did not match the tool’s schema.',
	hook_failed: 'A hook threw or timed out (fail closed: the call was denied).'
};

/** One rule per ToolError code: a blocked tool call. */
export const toolErrorRules: readonly Rule[] = toolErrorCodes.map((code) => ({
	id: code,
	name: code.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase()),
	description: toolErrorDescriptions[code],
	level: code === 'user_rejected' ? 'note' : 'warning'
}));

const allRules: readonly Rule[] = [...verifyRules, ...toolErrorRules];

/** A path as a relative URI reference: each segment percent-encoded (spaces, `#`, `%`, non-ASCII). */
export function pathUri(path: string): string {
	return path.split('/').map(encodeURIComponent).join('/');
}

/** Ends a sentence with a period, as SARIF's guidance asks of messages. */
function sentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function physicalLocation(location: FindingLocation) {
	return {
		physicalLocation: {
			artifactLocation: { uri: pathUri(location.path), uriBaseId: exportRoot },
			...(location.line !== undefined && location.line >= 1
				? { region: { startLine: location.line } }
				: {})
		}
	};
}

/** A SARIF 2.1.0 log of one run of threadline over one export. */
export function sarifLog(
	findings: readonly Finding[],
	options: { toolVersion: string; rules: 'verify' | 'report' }
): Record<string, unknown> {
	const rules = options.rules === 'verify' ? [...verifyRules] : allRules;
	const index = new Map(rules.map((rule, position) => [rule.id, position]));
	return {
		$schema: sarifSchemaUri,
		version: '2.1.0',
		runs: [
			{
				tool: {
					driver: {
						name: 'threadline',
						version: options.toolVersion,
						rules: rules.map((rule) => ({
							id: rule.id,
							name: rule.name,
							shortDescription: { text: sentence(rule.description) },
							fullDescription: { text: sentence(rule.description) },
							help: { text: sentence(rule.description) },
							defaultConfiguration: { level: rule.level }
						}))
					}
				},
				originalUriBaseIds: {
					[exportRoot]: { description: { text: 'The root of the export (its folder or zip).' } }
				},
				columnKind: 'unicodeCodePoints',
				results: findings.map((finding) => {
					const ruleIndex = index.get(finding.ruleId);
					if (ruleIndex === undefined) throw new Error(`no SARIF rule ${finding.ruleId}`);
					return {
						ruleId: finding.ruleId,
						ruleIndex,
						level: rules[ruleIndex]?.level ?? 'error',
						message: { text: sentence(finding.message) },
						locations: [physicalLocation(finding.location)],
						...(finding.related?.length
							? {
									relatedLocations: finding.related.map((location, id) => ({
										id,
										...physicalLocation(location)
									}))
								}
							: {}),
						partialFingerprints: {
							'threadlineFinding/v1': jsSha256Hex(
								JSON.stringify([finding.ruleId, ...finding.identity])
							)
						}
					};
				})
			}
		]
	};
}

/** Line numbers by seq, for pointing at the record a finding is about. */
export interface SeqLines {
	audit(seq: number): number | null;
	trace(seq: number): number | null;
}

const auditPath = '.orchestration/audit.jsonl';
const tracePath = '.orchestration/agent_trace.jsonl';

function at(path: string, line: number | null): FindingLocation {
	return line === null ? { path } : { path, line };
}

/** Every failure a verify report names (and its notes), as findings. */
export function verifyFindings(
	report: VerifyReport,
	lines: SeqLines,
	witness?: { ok: boolean; firstFailure: string | null } | null,
	/** The export's paths (files, links, `.orchestration/` names inside it), to read sentences by. */
	knownPaths: Iterable<string> = []
): Finding[] {
	const known = [...knownPaths];
	const findings: Finding[] = [];
	if (!report.audit.intact) {
		const seq = report.audit.firstBrokenSeq ?? 0;
		findings.push({
			ruleId: 'audit-chain-broken',
			message: `audit.jsonl seq ${seq}: ${report.audit.problem ?? 'the chain breaks here'}`,
			location: at(auditPath, lines.audit(seq)),
			identity: [seq]
		});
	}
	if (!report.trace.intact) {
		const seq = report.trace.firstBrokenSeq ?? 0;
		findings.push({
			ruleId: 'trace-chain-broken',
			message: `agent_trace.jsonl seq ${seq}: ${report.trace.problem ?? 'the chain breaks here'}`,
			location: at(tracePath, lines.trace(seq)),
			identity: [seq]
		});
	}
	for (const invalid of report.trace.invalid) {
		findings.push({
			ruleId: 'trace-record-invalid',
			message: `agent_trace.jsonl line ${invalid.line}: ${invalid.errors.join('; ')}`,
			location: { path: tracePath, line: invalid.line },
			identity: [invalid.line, invalid.seq ?? -1]
		});
	}
	const files = report.files;
	const pathFinding = (ruleId: VerifyRuleId, what: string) => (path: string) =>
		findings.push({ ruleId, message: `${path}: ${what}`, location: { path }, identity: [path] });
	files.contentMismatches.forEach(
		pathFinding('file-changed-without-record', 'changed with no record')
	);
	files.unattributed.forEach(
		pathFinding('file-unattributed', 'no record or snapshot accounts for it')
	);
	files.missing.forEach(
		pathFinding('file-missing', 'the ledger says it exists; the export does not have it')
	);
	for (const mismatch of files.rangeMismatches) {
		findings.push({
			ruleId: 'range-hash-mismatch',
			message: `${mismatch.path}: the ranges of trace record seq ${mismatch.seq} do not hash to what it recorded`,
			location: { path: mismatch.path },
			related: [at(tracePath, lines.trace(mismatch.seq))],
			identity: [mismatch.path, mismatch.seq]
		});
	}
	for (const problem of files.linkProblems ?? []) {
		findings.push({
			ruleId: 'link-changed',
			message: problem,
			location: { path: leadingPath(problem, known) },
			identity: [problem]
		});
	}
	for (const problem of files.protectedChanges ?? []) {
		findings.push({
			ruleId: 'protected-change',
			message: problem,
			location: { path: leadingPath(problem, known) },
			identity: [problem]
		});
	}
	for (const problem of report.orchestration?.problems ?? []) {
		findings.push({
			ruleId: 'orchestration-file-mismatch',
			message: `.orchestration/${problem}`,
			location: { path: `.orchestration/${leadingPath(problem, known)}` },
			identity: [problem]
		});
	}
	if (witness && !witness.ok) {
		findings.push({
			ruleId: 'witness-failed',
			message: witness.firstFailure ?? 'the witness does not vouch for this ledger',
			location: { path: auditPath },
			identity: [witness.firstFailure ?? '']
		});
	}
	for (const mismatch of report.classMismatches) {
		findings.push({
			ruleId: 'mutation-class-mismatch',
			message: `${mismatch.path}: declared ${mismatch.declared}, computed ${mismatch.computed}`,
			location: at(auditPath, lines.audit(mismatch.seq)),
			related: [{ path: mismatch.path }],
			identity: [mismatch.seq, mismatch.path]
		});
	}
	return findings;
}

/**
 * The path a verify sentence (`<path>: …`) is about. A path may itself hold spaces or `: `, so
 * the longest of the export's own paths the sentence starts with wins; else the text before the
 * first `: ` (a path the export no longer has).
 */
function leadingPath(problem: string, known: readonly string[]): string {
	let best: string | null = null;
	for (const path of known)
		if (problem.startsWith(`${path}: `) && (best === null || path.length > best.length))
			best = path;
	if (best !== null) return best;
	const cut = problem.indexOf(': ');
	return cut > 0 ? problem.slice(0, cut) : '.';
}

type EventValue = Record<string, unknown>;

/**
 * Every blocked tool call in an audit log, as a finding under its ToolError code: located at the
 * audit line that recorded the block, with the path the call was about (when it had one) as a
 * related location. `eventLines[i]` is the file line of `events[i]`.
 */
export function blockFindings(
	events: readonly unknown[],
	eventLines: readonly number[]
): Finding[] {
	const starts = new Map<string, EventValue>();
	const denials = new Map<string, string>();
	const findings: Finding[] = [];
	events.forEach((value, position) => {
		if (typeof value !== 'object' || value === null) return;
		const event = value as EventValue;
		const callId = typeof event.tool_call_id === 'string' ? event.tool_call_id : null;
		if (event.type === 'tool-call-start' && callId) starts.set(callId, event);
		if (event.type === 'tool-decision' && callId && typeof event.message === 'string')
			denials.set(callId, event.message);
		const code = event.code;
		if (typeof code !== 'string' || !(toolErrorCodes as readonly string[]).includes(code)) return;
		const line = eventLines[position];
		const location = at(auditPath, line ?? null);
		const seq = typeof event.seq === 'number' ? event.seq : position;
		if (event.type === 'tool-call-finish' && event.ok === false) {
			const input = callId ? starts.get(callId)?.input : undefined;
			const target =
				typeof input === 'object' &&
				input !== null &&
				typeof (input as EventValue).path === 'string'
					? ((input as EventValue).path as string)
					: null;
			const tool = typeof event.tool === 'string' ? event.tool : 'a tool';
			const why = callId ? denials.get(callId) : undefined;
			findings.push({
				ruleId: code,
				message: `${tool}${target ? ` on ${target}` : ''} was blocked (${code})${why ? `: ${why}` : ''}`,
				location,
				...(target ? { related: [{ path: target }] } : {}),
				identity: [seq, typeof event.hash === 'string' ? event.hash : '']
			});
		} else if (event.type === 'change-revert' && typeof event.path === 'string') {
			findings.push({
				ruleId: code,
				message: `${event.path}: a command's change was refused and never reached the workspace (${code})`,
				location,
				related: [{ path: event.path }],
				identity: [seq, typeof event.hash === 'string' ? event.hash : '']
			});
		}
	});
	return findings;
}

/** The 1-based line numbers of a JSONL text's non-empty lines, in order (a reader's values line up with them). */
export function nonEmptyLineNumbers(text: string): number[] {
	const numbers: number[] = [];
	let line = 1;
	let start = 0;
	while (start <= text.length) {
		const end = text.indexOf('\n', start);
		const stop = end === -1 ? text.length : end;
		if (text.slice(start, stop).trim() !== '') numbers.push(line);
		if (end === -1) break;
		line++;
		start = end + 1;
	}
	return numbers;
}

/**
 * Line lookups by seq for a JSONL ledger file: `seqOf` reads a line's seq (the audit event's own,
 * a trace record's `metadata["dev.threadline"].seq`). Lines that are not JSON are skipped.
 */
export function seqLineIndex(
	text: string,
	seqOf: (value: EventValue) => unknown
): (seq: number) => number | null {
	let index: Map<number, number> | null = null;
	return (seq) => {
		if (index === null) {
			index = new Map();
			const lines = text.split('\n');
			lines.forEach((line, position) => {
				if (line.trim() === '') return;
				try {
					const value = JSON.parse(line) as unknown;
					if (typeof value !== 'object' || value === null) return;
					const found = seqOf(value as EventValue);
					if (typeof found === 'number' && !index?.has(found)) index?.set(found, position + 1);
				} catch {
					// Not JSON: verify reports that line; it has no seq to find.
				}
			});
		}
		return index.get(seq) ?? null;
	};
}

export const auditSeq = (value: EventValue): unknown => value.seq;
export const traceSeq = (value: EventValue): unknown => {
	const metadata = value.metadata as EventValue | undefined;
	const own = metadata?.['dev.threadline'] as EventValue | undefined;
	return own?.seq;
};
