import type { VerifyReport } from '../../../hooks/ledger/verify.js';

/** The ledger state key under which an imported export's verification is kept. */
export const importedExportKey = 'imported-export';

/** What the workspace remembers about the export it was imported from. */
export interface ImportedExportRecord {
	name: string;
	ok: boolean;
	/** The verify report of the zip as imported: what `threadline verify` says of it. */
	report: VerifyReport;
}

/** One sentence for the banner of a workspace imported from an export. */
export function describeImport(record: ImportedExportRecord): string {
	return record.ok
		? `Imported ${record.name} with its ledger (${record.report.audit.events} events): verified, and you can go on working.`
		: `${record.name} failed verification (${record.report.firstFailure ?? 'see Verify'}): its history is shown read-only. Reset the scenario to work again.`;
}

export function isImportedExportRecord(value: unknown): value is ImportedExportRecord {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as ImportedExportRecord).name === 'string' &&
		typeof (value as ImportedExportRecord).ok === 'boolean' &&
		typeof (value as ImportedExportRecord).report === 'object'
	);
}
