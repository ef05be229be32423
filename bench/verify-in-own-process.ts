import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { LedgerFiles } from './ledger-files.js';

const run = promisify(execFile);

export interface OwnProcessVerify {
	verify_ms: number;
	runs_ms: number[];
	events: number;
	verified_ok: boolean;
}

/** Runs bench/verify-process.ts over the ledger files and reads its one JSON line. */
export async function verifyInOwnProcess(files: LedgerFiles | null): Promise<OwnProcessVerify> {
	if (!files) throw new Error('the 100k-event ledger was not written');
	const { stdout } = await run(
		process.execPath,
		['bin/run-ts.js', 'bench/verify-process.ts', files.auditPath, files.tracePath],
		{ maxBuffer: 1024 * 1024, timeout: 120_000 }
	);
	const figures = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as OwnProcessVerify;
	if (!figures.verified_ok || figures.events !== 100_000)
		throw new Error(`verify in its own process did not accept the ledger: ${stdout.trim()}`);
	return figures;
}
