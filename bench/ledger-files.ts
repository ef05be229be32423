import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ExportedLedger } from './chain-verify.js';

/** Where the bench leaves the 100k-event ledger for the browser figures (inside the project, so Vite may serve it). */
export interface LedgerFiles {
	auditPath: string;
	tracePath: string;
}

export const ledgerFilesFolder = resolve('node_modules/.cache/threadline-bench');

export function writeLedgerFiles(exported: ExportedLedger): LedgerFiles {
	mkdirSync(ledgerFilesFolder, { recursive: true });
	const auditPath = join(ledgerFilesFolder, 'audit.jsonl');
	const tracePath = join(ledgerFilesFolder, 'agent_trace.jsonl');
	writeFileSync(auditPath, exported.auditJsonl);
	writeFileSync(tracePath, exported.traceJsonl);
	return { auditPath, tracePath };
}
