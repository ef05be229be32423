import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type { VerifyReport } from '../../../hooks/ledger/verify.js';
import type { GradedExport } from '../../../hooks/report/grade-export.js';
import type { GradeSummary } from './grade-protocol.js';

/** The table row of one graded export. */
export function summarizeGraded(
	id: number,
	name: string,
	kind: GradeSummary['kind'],
	graded: GradedExport,
	filesChecked: boolean
): GradeSummary {
	const verification = graded.verification;
	const intents = [...graded.intents].sort((left, right) => left.id.localeCompare(right.id));
	return {
		id,
		name,
		kind,
		// issue 28: the scenario the ledger names; the intents only for a ledger that names none.
		scenarioKey: graded.scenario
			? `scenario:${graded.scenario.id}:${graded.scenario.contentHash}`
			: intents.map((intent) => `${intent.id}:${intent.name}`).join('|'),
		scenarioLabel: graded.scenario
			? `${graded.scenario.id} — ${graded.scenario.title}`
			: intents.length
				? `(scenario not recorded) ${intents.map((intent) => `${intent.id} ${intent.name}`).join('; ')}`
				: '(scenario not recorded, no intents file)',
		scenario: graded.scenario,
		scoreNote: graded.scoreNote,
		stepsPassed: graded.stepsPassed,
		verified: graded.verified,
		filesChecked,
		firstFailure: verification.firstFailure,
		stopSeq: failingAuditSeq(graded.events, verification),
		chain: { audit: verification.audit.intact, trace: verification.trace.intact },
		schemaInvalid: verification.trace.invalid.length,
		contentMismatches: verification.files.contentMismatches.length,
		unattributed: verification.files.unattributed,
		missing: verification.files.missing.length,
		events: verification.audit.events,
		report: graded.report,
		criteria: graded.criteria,
		classMismatches: verification.classMismatches.length,
		score: graded.score
	};
}

/**
 * The audit seq of the record where trust ends: the audit chain's first broken event, else the
 * mutation-record event carrying the trace chain's first broken record, else the first invalid
 * trace record's event. Null when both chains and every record hold (file problems do not stop
 * time travel: the history itself is intact).
 */
export function failingAuditSeq(
	events: readonly LedgerEvent[],
	verification: VerifyReport
): number | null {
	if (!verification.audit.intact) return verification.audit.firstBrokenSeq ?? 1;
	const traceSeq =
		(!verification.trace.intact ? verification.trace.firstBrokenSeq : null) ??
		verification.trace.invalid[0]?.seq ??
		null;
	if (traceSeq === null) return verification.trace.invalid.length ? 1 : null;
	for (const event of events) {
		if (
			event.type === 'mutation-record' &&
			event.trace?.metadata?.['dev.threadline']?.seq === traceSeq
		)
			return event.seq;
	}
	// The trace lost records at its end: the audit log holds more mutations than the trace.
	let mutations = 0;
	for (const event of events) {
		if (event.type === 'mutation-record' && ++mutations === traceSeq) return event.seq;
	}
	return events.at(-1)?.seq ?? 1;
}
