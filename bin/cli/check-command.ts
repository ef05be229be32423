import type { IntentCheck } from '../../hooks/intents/check-criteria.js';
import {
	checkExportCriteria,
	ExportCriteriaError
} from '../../hooks/intents/check-export-criteria.js';
import { createLocalSandbox } from '../../sandbox/local/local-sandbox.js';
import { MemoryWorkspaceFiles } from '../../sandbox/local/memory-workspace-files.js';
import { loadExport, type LoadedExport } from './read-export-source.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';

/**
 * `threadline check <export.zip|dir> [--intent ID] [--json]`: re-runs the acceptance criteria
 * recorded in the export's `.orchestration/active_intents.yaml` on the exported workspace, in
 * the offline sandbox (the same runtime as the browser: node, npm test, the shell). The workspace
 * is a copy in memory: nothing is written back to the export. Exit 1 when a criterion fails.
 */
export async function checkCommand(
	argv: string[],
	output: { out(text: string): void; err(text: string): void }
): Promise<number> {
	const { positional, values, flags } = parseArguments(argv, {
		values: ['intent', 'timeout'],
		flags: ['json']
	});
	if (positional.length !== 1) {
		throw new UsageError(
			'check takes one export: threadline check <dir|zip> [--intent ID] [--json]'
		);
	}
	const timeoutMs = values.has('timeout') ? Number(values.get('timeout')) * 1000 : 120_000;
	if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
		throw new UsageError('--timeout is a number of seconds');
	const loaded = await loadExport(positional[0] as string);
	const checks = await checkExport(loaded, { intentId: values.get('intent'), timeoutMs });
	const failed = checks.some((check) =>
		check.criteria.some((criterion) => criterion.outcome === 'failed')
	);
	if (flags.has('json')) {
		output.out(JSON.stringify({ ok: !failed, intents: checks }, null, 2));
	} else {
		output.out(renderChecks(checks));
	}
	return failed ? 1 : 0;
}

/** The criteria of the export's intents (or one), run on an in-memory copy of its workspace. */
export async function checkExport(
	loaded: LoadedExport,
	options: { intentId?: string | undefined; timeoutMs?: number } = {}
): Promise<IntentCheck[]> {
	try {
		return await checkExportCriteria({
			files: loaded.files,
			orchestration: loaded.orchestrationFiles,
			intentId: options.intentId,
			timeoutMs: options.timeoutMs ?? 120_000,
			startSandbox: (files) => createLocalSandbox({ files: new MemoryWorkspaceFiles(files) })
		});
	} catch (error) {
		if (error instanceof ExportCriteriaError) throw new UsageError(error.message);
		throw error;
	}
}

export function renderChecks(checks: readonly IntentCheck[]): string {
	const lines: string[] = [];
	for (const check of checks) {
		lines.push(`${check.intent_id} ${check.name} (${check.status})`);
		if (check.criteria.length === 0) lines.push('  (no acceptance criteria)');
		for (const criterion of check.criteria) {
			const mark =
				criterion.outcome === 'passed'
					? 'PASS  '
					: criterion.outcome === 'failed'
						? 'FAIL  '
						: 'MANUAL';
			lines.push(
				`  ${mark} ${criterion.description}${criterion.run ? `\n         $ ${criterion.run}${criterion.outcome === 'failed' ? `  (exit ${criterion.exit_code})` : ''}` : ''}`
			);
			if (criterion.outcome === 'failed' && criterion.output) {
				const tail = criterion.output.trimEnd().split('\n').slice(-20);
				for (const line of tail) lines.push(`         | ${line}`);
			}
		}
	}
	const all = checks.flatMap((check) => check.criteria);
	const failed = all.filter((criterion) => criterion.outcome === 'failed').length;
	const passed = all.filter((criterion) => criterion.outcome === 'passed').length;
	const manual = all.length - failed - passed;
	lines.push('');
	lines.push(
		`${failed === 0 ? 'OK' : 'FAILED'}: ${passed} passed, ${failed} failed, ${manual} manual (not checkable by a machine)`
	);
	return lines.join('\n');
}
