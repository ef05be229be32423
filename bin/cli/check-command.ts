import { anyCriterionUnmet, type IntentCheck } from '../../hooks/intents/check-criteria.js';
import { criteriaBounds } from '../../hooks/intents/criteria-bounds.js';
import {
	checkExportCriteria,
	ExportCriteriaError
} from '../../hooks/intents/check-export-criteria.js';
import { criteriaJunit } from '../../hooks/formats/junit.js';
import { startSandboxThread } from './check-sandbox-thread.js';
import { loadExport, type LoadedExport } from './read-export-source.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';

/**
 * `threadline check <export.zip|dir> [--intent ID] [--json]`: re-runs the acceptance criteria
 * recorded in the export's `.orchestration/active_intents.yaml` on the exported workspace, in
 * the offline sandbox (the same runtime as the browser: node, npm test, the shell). The workspace
 * is a copy in memory: nothing is written back to the export. Exit 1 when a criterion fails or
 * was not run. Bounded like every run of criteria (hooks/intents/criteria-bounds.ts): a time
 * limit per criterion (`--timeout`), one for all of them (`--deadline`), the sandbox's cap on
 * what one command may write (`--max-write-mb`), and its thread's heap (`--sandbox-memory-mb`).
 */
export async function checkCommand(
	argv: string[],
	output: { out(text: string): void; err(text: string): void }
): Promise<number> {
	const { positional, values, flags } = parseArguments(argv, {
		values: ['intent', 'timeout', 'deadline', 'max-write-mb', 'sandbox-memory-mb', 'format'],
		flags: ['json']
	});
	const format = values.get('format') ?? (flags.has('json') ? 'json' : 'text');
	if (!['text', 'json', 'junit'].includes(format))
		throw new UsageError('--format must be one of text, json, junit');
	if (positional.length !== 1) {
		throw new UsageError(
			'check takes one export: threadline check <dir|zip> [--intent ID] [--json]'
		);
	}
	const timeoutMs = positiveOption(values, 'timeout', 'a number of seconds', 1000);
	const deadlineMs = positiveOption(values, 'deadline', 'a number of seconds', 1000);
	const maxCommandWriteBytes = positiveOption(
		values,
		'max-write-mb',
		'a number of megabytes (MiB)',
		1024 * 1024
	);
	const sandboxHeapMb = positiveOption(
		values,
		'sandbox-memory-mb',
		'a number of megabytes (MiB)',
		1
	);
	const loaded = await loadExport(positional[0] as string);
	const checks = await checkExport(loaded, {
		intentId: values.get('intent'),
		timeoutMs,
		deadlineMs,
		maxCommandWriteBytes,
		sandboxHeapMb
	});
	const failed = anyCriterionUnmet(checks);
	if (format === 'json') {
		output.out(JSON.stringify({ ok: !failed, intents: checks }, null, 2));
	} else if (format === 'junit') {
		output.out(criteriaJunit(checks));
	} else {
		output.out(renderChecks(checks));
	}
	return failed ? 1 : 0;
}

/** `--name <number>` times `unit`; undefined when absent (the shared default applies). */
function positiveOption(
	values: Map<string, string>,
	name: string,
	what: string,
	unit: number
): number | undefined {
	const text = values.get(name);
	if (text === undefined) return undefined;
	const value = Number(text) * unit;
	if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
		throw new UsageError(`--${name} is ${what} above 0 (got ${JSON.stringify(text)})`);
	return value;
}

/** The criteria of the export's intents (or one), run on an in-memory copy of its workspace. */
export async function checkExport(
	loaded: LoadedExport,
	options: {
		intentId?: string | undefined;
		timeoutMs?: number | undefined;
		deadlineMs?: number | undefined;
		maxCommandWriteBytes?: number | undefined;
		sandboxHeapMb?: number | undefined;
	} = {}
): Promise<IntentCheck[]> {
	try {
		return await checkExportCriteria({
			files: loaded.files,
			orchestration: loaded.orchestrationFiles,
			intentId: options.intentId,
			timeoutMs: options.timeoutMs ?? criteriaBounds.criterionTimeoutMs,
			deadlineMs: options.deadlineMs ?? criteriaBounds.deadlineMs,
			nowMs: () => performance.now(),
			// In a worker thread with a bounded heap, so one hostile criterion cannot take the
			// grader's process (and the results so far) down with it.
			startSandbox: (files) =>
				startSandboxThread({
					files,
					...(options.sandboxHeapMb !== undefined ? { heapMb: options.sandboxHeapMb } : {}),
					...(options.maxCommandWriteBytes !== undefined
						? { maxCommandWriteBytes: options.maxCommandWriteBytes }
						: {})
				})
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
			const mark = {
				passed: 'PASS  ',
				failed: 'FAIL  ',
				manual: 'MANUAL',
				'not-run': 'NOT RUN'
			}[criterion.outcome];
			lines.push(
				`  ${mark} ${criterion.description}${criterion.run ? `\n         $ ${criterion.run}${criterion.outcome === 'failed' ? `  (exit ${criterion.exit_code})` : ''}` : ''}`
			);
			if ((criterion.outcome === 'failed' || criterion.outcome === 'not-run') && criterion.output) {
				const tail = criterion.output.trimEnd().split('\n').slice(-20);
				for (const line of tail) lines.push(`         | ${line}`);
			}
		}
	}
	const all = checks.flatMap((check) => check.criteria);
	const failed = all.filter((criterion) => criterion.outcome === 'failed').length;
	const passed = all.filter((criterion) => criterion.outcome === 'passed').length;
	const notRun = all.filter((criterion) => criterion.outcome === 'not-run').length;
	const manual = all.length - failed - passed - notRun;
	lines.push('');
	lines.push(
		`${failed + notRun === 0 ? 'OK' : 'FAILED'}: ${passed} passed, ${failed} failed, ${notRun > 0 ? `${notRun} not run (the deadline passed), ` : ''}${manual} manual (not checkable by a machine)`
	);
	return lines.join('\n');
}
