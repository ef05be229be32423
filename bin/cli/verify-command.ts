import {
	auditSeq,
	sarifLog,
	seqLineIndex,
	traceSeq,
	verifyFindings
} from '../../hooks/formats/sarif.js';
import { countLinesOfBytes } from '../../hooks/ledger/read-jsonl.js';
import { checkAttestationFile } from './attestation-check.js';
import { packageVersion } from './package-version.js';
import { verifyLedger } from '../../hooks/ledger/verify.js';
import { loadExport } from './read-export-source.js';
import { nodeVerifyPorts } from './node-ports.js';
import { verifyHelperThreads } from './verify-helper-thread.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';
import { witnessedVerify, type WitnessReport } from './witnessed-verify.js';

/** Ledgers this large get a progress line on a terminal (never in a pipe or with --json output). */
const progressFrom = 20_000;

/** `verifying audit.jsonl: 40,000 of 100,000 events` on stderr, rewritten in place on a TTY. */
function progressLine(audit: Uint8Array): { update(read: number): void; end(): void } | null {
	if (!process.stderr.isTTY) return null;
	const total = countLinesOfBytes(audit);
	if (total < progressFrom) return null;
	const format = (count: number) => count.toLocaleString('en-US');
	return {
		update: (read) =>
			process.stderr.write(`\rverifying audit.jsonl: ${format(read)} of ${format(total)} events`),
		end: () => process.stderr.write('\r\u001b[2K')
	};
}

export async function verifyCommand(
	argv: string[],
	output: { out(text: string): void; err(text: string): void }
): Promise<number> {
	const { positional, flags, values } = parseArguments(argv, {
		flags: ['json', 'allow-unwitnessed-tail'],
		values: ['witness-key', 'witness', 'token', 'ledger', 'witness-delay', 'format', 'attestation']
	});
	const format = values.get('format') ?? (flags.has('json') ? 'json' : 'text');
	if (!['text', 'json', 'sarif'].includes(format))
		throw new UsageError('--format must be one of text, json, sarif');
	if (values.has('attestation') && !values.has('witness-key'))
		throw new UsageError(
			'--attestation needs --witness-key <key>: the public key (PEM file or base64) that signed it'
		);
	if (positional.length !== 1)
		throw new UsageError(
			'verify takes one export: threadline verify <dir|zip> [--json] [--witness-key <key|url>] [--witness <url> --token <instructor token>] [--allow-unwitnessed-tail] [--witness-delay <hours>]'
		);
	const delayHours = values.has('witness-delay') ? Number(values.get('witness-delay')) : null;
	if (delayHours !== null && (!Number.isFinite(delayHours) || delayHours <= 0))
		throw new UsageError('--witness-delay takes a number of hours greater than 0');
	const source = positional[0] as string;
	// Compiled while the export is read, for a ledger large enough to verify on both cores.
	void verifyHelperThreads.prepare();
	const loaded = await loadExport(source);
	const auditBytes = loaded.orchestrationFiles.get('audit.jsonl') ?? new Uint8Array(0);
	const traceBytes = loaded.orchestrationFiles.get('agent_trace.jsonl') ?? new Uint8Array(0);
	const progress = format === 'text' ? progressLine(auditBytes) : null;
	const report = await verifyLedger({
		// The bytes whole: they are read a megabyte at a time and decoded line by line (decoding
		// 65 MB in one piece costs more than verifying it), and a large ledger in parts on both
		// cores (nodeVerifyPorts' helper thread).
		auditJsonl: auditBytes,
		traceJsonl: traceBytes,
		files: loaded.files,
		links: loaded.links,
		orchestrationFiles: loaded.orchestrationFiles,
		...nodeVerifyPorts,
		onProgress: progress?.update
	});
	progress?.end();
	// --attestation checks a signed statement about this export; without it, --witness-key is the
	// class key of the receipts in the ledger.
	const attestation = values.has('attestation')
		? await checkAttestationFile(
				values.get('attestation') as string,
				values.get('witness-key') as string,
				loaded
			)
		: null;
	const witnessed = (!attestation && values.has('witness-key')) || values.has('witness');
	const witness: WitnessReport | null = witnessed
		? await witnessedVerify(loaded.auditJsonl, {
				key: values.get('witness-key'),
				server: values.get('witness'),
				token: values.get('token'),
				ledger: values.get('ledger'),
				allowUnwitnessedTail: flags.has('allow-unwitnessed-tail'),
				maximumDelayMs: delayHours === null ? undefined : delayHours * 3_600_000
			})
		: null;
	const ok = report.ok && (witness?.ok ?? true) && (attestation?.ok ?? true);
	if (format === 'sarif') {
		const findings = verifyFindings(
			report,
			{
				audit: seqLineIndex(loaded.auditJsonl, auditSeq),
				trace: seqLineIndex(loaded.traceJsonl, traceSeq)
			},
			witness,
			[...loaded.files.keys(), ...loaded.links.keys(), ...loaded.orchestrationFiles.keys()]
		);
		if (attestation && !attestation.ok)
			findings.push({
				ruleId: 'attestation-failed',
				message: attestation.problems.join('; '),
				location: { path: values.get('attestation') as string },
				identity: attestation.problems
			});
		output.out(
			JSON.stringify(
				sarifLog(findings, { toolVersion: packageVersion(), rules: 'verify' }),
				null,
				2
			)
		);
		return ok ? 0 : 1;
	}
	if (flags.has('json') || format === 'json') {
		const { lines: _lines, ...witnessJson } = witness ?? { lines: [] };
		output.out(
			JSON.stringify(
				{
					...report,
					ok,
					...(witness ? { witness: witnessJson } : {}),
					...(attestation ? { attestation } : {})
				},
				null,
				2
			)
		);
		return ok ? 0 : 1;
	}
	const audit = report.audit;
	const trace = report.trace;
	output.out(`${source}`);
	output.out(
		`  audit chain:   ${audit.intact ? 'intact' : `BROKEN at seq ${audit.firstBrokenSeq}: ${audit.problem}`} (${audit.events} events)`
	);
	output.out(
		`  trace chain:   ${trace.intact ? 'intact' : `BROKEN at seq ${trace.firstBrokenSeq}: ${trace.problem}`} (${trace.records} records)`
	);
	output.out(
		`  trace records: ${trace.invalid.length === 0 ? 'all valid Agent Trace 0.1.0' : `${trace.invalid.length} invalid`}`
	);
	for (const invalid of trace.invalid.slice(0, 5))
		output.out(`    line ${invalid.line}: ${invalid.errors.join('; ')}`);
	const files = report.files;
	output.out(
		`  files:         ${files.checked} checked; ${files.contentMismatches.length} changed since their record, ${files.unattributed.length} unattributed, ${files.missing.length} missing, ${files.rangeMismatches.length} range hash mismatches`
	);
	for (const path of files.contentMismatches.slice(0, 10))
		output.out(`    changed with no record: ${path}`);
	for (const path of files.unattributed.slice(0, 10)) output.out(`    unattributed: ${path}`);
	for (const path of files.missing.slice(0, 10)) output.out(`    missing: ${path}`);
	for (const problem of (files.linkProblems ?? []).slice(0, 10)) output.out(`    link: ${problem}`);
	for (const problem of (files.protectedChanges ?? []).slice(0, 10))
		output.out(`    protected: ${problem}`);
	const orchestration = report.orchestration;
	if (orchestration) {
		output.out(
			`  .orchestration: ${orchestration.checked.length} file(s) checked; ${orchestration.problems.length === 0 ? 'all as the ledger says' : `${orchestration.problems.length} problem(s)`}`
		);
		for (const problem of orchestration.problems.slice(0, 10)) output.out(`    ${problem}`);
		for (const note of orchestration.notes ?? []) output.out(`    note: ${note}`);
	}
	if (report.classMismatches.length) {
		output.out(
			`  note: ${report.classMismatches.length} record(s) declared a different mutation class than computed`
		);
	}
	for (const line of witness?.lines ?? []) output.out(line);
	for (const line of attestation?.lines ?? []) output.out(line);
	if (ok) {
		output.out(
			witness
				? 'OK: chain, schema, content hashes and the witness hold; links and every .orchestration/ file match the ledger (node_modules/ is not checked)'
				: 'OK: chain, schema and content hashes hold; links and every .orchestration/ file match the ledger (node_modules/ is not checked)'
		);
		return 0;
	}
	if (!report.ok) output.err(`FAILED: ${report.firstFailure ?? 'see above'}`);
	if (witness && !witness.ok) output.err(`FAILED (witness): ${witness.firstFailure}`);
	if (attestation && !attestation.ok)
		output.err(`FAILED (attestation): ${attestation.problems[0] ?? 'see above'}`);
	return 1;
}
