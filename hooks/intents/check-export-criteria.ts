import { checkIntentCriteria, type IntentCheck } from './check-criteria.js';
import { criteriaDeadline } from './criteria-bounds.js';
import { parseIntents } from './parse-intents.js';

/** The sandbox an export's criteria run in: a throw-away copy of its workspace. */
export interface CriteriaSandbox {
	exec(
		command: string,
		options: { timeoutMs: number }
	): Promise<{ exitCode: number; output: string }>;
	dispose(): Promise<void>;
}

/** Why the criteria could not be run at all (no intents file, one that does not parse, no such intent). */
export class ExportCriteriaError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ExportCriteriaError';
	}
}

/**
 * Re-runs the acceptance criteria recorded in an export's `.orchestration/active_intents.yaml`
 * (all intents, or one) on a copy of its workspace: the one code path of `threadline check` and
 * the grader page's "Re-run criteria", which differ only in the sandbox they start (in this
 * thread for the CLI, in a Worker for the page). Nothing is written back: the sandbox is a copy
 * and its commands commit nothing. Bounded (criteria-bounds.ts): each criterion by `timeoutMs`,
 * all of them together by `deadlineMs`; when the deadline passes, the running criterion is
 * stopped and it and every later one are `not-run`, the results so far kept.
 */
export async function checkExportCriteria(input: {
	/** The export's workspace, by path (outside `.orchestration/`). */
	files: ReadonlyMap<string, Uint8Array>;
	/**
	 * The export's `.orchestration/` files as bytes, by their name inside it (`orchestrationFiles`
	 * of readExportFiles: every one, the chained jsonl files included, as a criterion may read them).
	 */
	orchestration: ReadonlyMap<string, Uint8Array>;
	intentId?: string | undefined;
	/** One criterion's time limit; criteriaBounds.criterionTimeoutMs by default. */
	timeoutMs?: number | undefined;
	/** All the criteria's time limit together; criteriaBounds.deadlineMs by default. */
	deadlineMs?: number | undefined;
	/** Monotonic milliseconds (the deadline's clock). */
	nowMs: () => number;
	startSandbox(files: Record<string, Uint8Array>): Promise<CriteriaSandbox>;
}): Promise<IntentCheck[]> {
	const yamlBytes = input.orchestration.get('active_intents.yaml');
	const yaml = yamlBytes === undefined ? undefined : new TextDecoder().decode(yamlBytes);
	if (yaml === undefined)
		throw new ExportCriteriaError('the export has no .orchestration/active_intents.yaml');
	const parsed = parseIntents(yaml);
	if (!parsed.ok) {
		const first = parsed.errors[0];
		throw new ExportCriteriaError(
			`.orchestration/active_intents.yaml:${first?.line ?? 1}:${first?.column ?? 1}: ${first?.message ?? 'not valid'}`
		);
	}
	let intents = parsed.document.intents;
	if (input.intentId !== undefined) {
		intents = intents.filter((intent) => intent.id === input.intentId);
		if (intents.length === 0)
			throw new ExportCriteriaError(`no intent ${input.intentId} in the export`);
	}
	const files: Record<string, Uint8Array> = {};
	for (const [path, content] of input.files) files[path] = content;
	for (const [path, bytes] of input.orchestration) files[`.orchestration/${path}`] = bytes;
	const sandbox = await input.startSandbox(files);
	try {
		// From when the sandbox is ready: its start is the grader's machine's time, not the criteria's.
		const deadline = criteriaDeadline({
			nowMs: input.nowMs,
			deadlineMs: input.deadlineMs,
			criterionTimeoutMs: input.timeoutMs
		});
		const checks: IntentCheck[] = [];
		for (const intent of intents) {
			checks.push(
				await checkIntentCriteria(
					intent,
					(command, { timeoutMs }) => sandbox.exec(command, { timeoutMs }),
					deadline
				)
			);
		}
		return checks;
	} finally {
		await sandbox.dispose();
	}
}
