import type { SyncContentHasher } from '../hooks/hashing/sync-sha256.js';
import { exportOrchestration } from '../hooks/ledger/export.js';
import { verifyLedger, type VerifyReport } from '../hooks/ledger/verify.js';
import type { AuditLedger } from './audit-ledger.js';
import { round } from './statistics.js';

export interface ExportedLedger {
	auditJsonl: string;
	traceJsonl: string;
}

/** The two chained files of `.orchestration/`, exactly as the export writes them. */
export function exportLedger(ledger: AuditLedger): ExportedLedger {
	const exported = exportOrchestration({
		events: ledger.events,
		activeIntentsYaml: ledger.intentsYaml,
		agentMd: '# Lessons\n',
		intents: ledger.intents
	});
	const auditJsonl = exported.get('audit.jsonl');
	const traceJsonl = exported.get('agent_trace.jsonl');
	if (auditJsonl === undefined || traceJsonl === undefined)
		throw new Error('the export has no audit.jsonl or agent_trace.jsonl');
	return { auditJsonl, traceJsonl };
}

export function megabytesOf(text: string): number {
	return round(Buffer.byteLength(text, 'utf8') / (1024 * 1024), 2);
}

/**
 * Throws unless verify found both chains intact, every record valid and the counts expected: a
 * verify that rejects (or skips) the ledger would otherwise look fast.
 */
export function assertVerified(
	report: VerifyReport,
	expected: { events: number; records: number }
): void {
	const problems: string[] = [];
	if (!report.ok) problems.push(`not ok: ${report.firstFailure ?? 'no failure named'}`);
	if (!report.audit.intact) problems.push(`audit chain broken: ${report.audit.problem}`);
	if (!report.trace.intact) problems.push(`trace chain broken: ${report.trace.problem}`);
	if (report.trace.invalid.length > 0)
		problems.push(`${report.trace.invalid.length} invalid trace records`);
	if (report.audit.events !== expected.events)
		problems.push(`verified ${report.audit.events} events, expected ${expected.events}`);
	if (report.trace.records !== expected.records)
		problems.push(`verified ${report.trace.records} trace records, expected ${expected.records}`);
	if (problems.length > 0)
		throw new Error(`verify did not accept the bench ledger: ${problems.join('; ')}`);
}

/** One timed verify of the exported text. */
export async function timeVerify(
	exported: ExportedLedger,
	hasher?: SyncContentHasher
): Promise<{ durationMs: number; report: VerifyReport }> {
	const started = performance.now();
	const report = await verifyLedger({
		auditJsonl: exported.auditJsonl,
		traceJsonl: exported.traceJsonl,
		hasher
	});
	return { durationMs: performance.now() - started, report };
}
