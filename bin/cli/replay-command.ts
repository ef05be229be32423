import {
	lstat,
	mkdir,
	mkdtemp,
	readdir,
	readFile,
	readlink,
	stat,
	writeFile
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { formatIntentsError, parseIntents } from '../../hooks/intents/parse-intents.js';
import { exportOrchestration } from '../../hooks/ledger/export.js';
import { normalizeWorkspacePath } from '../../hooks/paths/normalize-path.js';
import type { LedgerEvent } from '../../hooks/ledger/ledger-event.js';
import { MemoryLedger } from '../../hooks/ledger/memory-ledger.js';
import { verifyLedger } from '../../hooks/ledger/verify.js';
import { isApprovalPolicy } from '../../hooks/pipeline/approval-policy.js';
import { createToolPipeline } from '../../hooks/pipeline/create-tool-pipeline.js';
import {
	activeIntentsPath,
	agentNotesPath,
	GovernanceState,
	intentIgnorePath
} from '../../hooks/pipeline/governance-state.js';
import type { ApprovalAnswer } from '../../hooks/pipeline/ports.js';
import { hookPolicyPath } from '../../hooks/policies/hook-policy-schema.js';
import { formatHookPolicyError } from '../../hooks/policies/parse-hook-policy.js';
import { parseReplayScript, type ReplayStep } from '../../hooks/replay/replay-script.js';
import { DiskWorkspaceFiles } from '../../sandbox/local/disk-workspace-files.js';
import { createLocalSandbox } from '../../sandbox/local/local-sandbox.js';
import { nodeVerifyPorts, randomIds, systemClock, timerScheduler } from './node-ports.js';
import { unrecordedFolders } from './read-export-source.js';
import { parseArguments } from './parse-arguments.js';
import { UsageError } from './usage-error.js';
import { packageVersion } from './package-version.js';

const orchestrationFolder = '.orchestration';
const defaultSessionId = 'agent';

export async function replayCommand(
	argv: string[],
	output: { out(text: string): void; err(text: string): void }
): Promise<number> {
	const { positional, values } = parseArguments(argv, {
		values: ['workspace', 'approve', 'policy']
	});
	if (positional.length !== 1)
		throw new UsageError(
			'replay takes one script: threadline replay <script.yaml|json> --workspace <dir>'
		);
	const scriptPath = positional[0] as string;
	const workspaceOption = values.get('workspace');
	if (!workspaceOption) throw new UsageError('replay needs --workspace <dir>');
	const workspace: string = workspaceOption;
	const approveDefault = values.get('approve') ?? 'none';
	if (approveDefault !== 'all' && approveDefault !== 'none')
		throw new UsageError('--approve must be all or none');
	const policy = values.get('policy') ?? 'destructive';
	if (!isApprovalPolicy(policy))
		throw new UsageError('--policy must be always, destructive or never');

	const scriptText = await readText(scriptPath, 'script');
	const parsedScript = parseReplayScript(scriptText);
	if (!parsedScript.ok) {
		for (const error of parsedScript.errors)
			output.err(`${scriptPath}:${error.line}:${error.column} ${error.message}`);
		throw new UsageError(`${scriptPath} is not a valid replay script`);
	}
	const script = parsedScript.script;

	const info = await stat(workspace).catch(() => null);
	if (!info?.isDirectory()) throw new UsageError(`workspace ${workspace} is not a folder`);
	const intentsYaml = await readText(join(workspace, activeIntentsPath), 'intents file');
	const parsedIntents = parseIntents(intentsYaml);
	if (!parsedIntents.ok) {
		for (const error of parsedIntents.errors)
			output.err(`${join(workspace, activeIntentsPath)}:${formatIntentsError(error)}`);
		throw new UsageError(`${activeIntentsPath} in ${workspace} is not valid`);
	}
	const intentIgnore = await readFile(join(workspace, intentIgnorePath), 'utf8').catch(() => '');

	const previousEvents = await loadPreviousLedger(workspace);
	const ledger = new MemoryLedger({ clock: systemClock, events: previousEvents });
	const state = new GovernanceState({ intentsYaml, intentIgnore, approvalPolicy: policy });
	const sandbox = await createLocalSandbox({ files: new DiskWorkspaceFiles(workspace) });
	let currentStep: ReplayStep | null = null;
	const pipeline = createToolPipeline({
		state,
		fs: sandbox.fs,
		runner: sandbox,
		capabilities: sandbox.capabilities,
		ledger,
		approvals: { request: async () => answerFor(currentStep, approveDefault) },
		clock: systemClock,
		scheduler: timerScheduler,
		ids: randomIds,
		toolVersion: packageVersion()
	});

	let failure: string | null = null;
	let unmet = 0;
	try {
		// The same scenario hook policy as in the browser; a broken one fails closed, as there.
		const hookPolicy = await readFile(join(workspace, hookPolicyPath), 'utf8').catch(() => null);
		await pipeline.loadHookPolicy(hookPolicy);
		for (const error of state.hookPolicy.errors)
			output.err(`${join(workspace, hookPolicyPath)}:${formatHookPolicyError(error)}`);
		if (previousEvents.length === 0) {
			const { paths, links } = await listWorkspaceEntries(workspace);
			await pipeline.recordWorkspaceSnapshot(paths, 'workspace', { links });
		}
		for (const [index, step] of script.steps.entries()) {
			const number = index + 1;
			currentStep = step;
			try {
				unmet += await runStep(step, number);
			} catch (error) {
				// A failing step stops the run, but what already happened is still exported below.
				failure = `step ${number}: ${plainMessage(error)}`;
				break;
			}
		}
	} catch (error) {
		failure = `the replay could not start: ${plainMessage(error)}`;
	} finally {
		await sandbox.dispose().catch(() => undefined);
	}

	const written = await writeOrchestration(workspace, state, await ledger.events());
	if (written.fallback) {
		output.err(
			`could not write ${written.problem}; the ledger was written to ${written.fallback} instead`
		);
		failure ??= `could not write the export into ${workspace}: ${written.problem}`;
	}
	if (failure) {
		output.err(`replay stopped: ${failure}`);
		return 1;
	}
	if (unmet > 0) {
		output.err(`${unmet} step(s) did not give the expected result`);
		return 1;
	}
	return 0;

	/** Runs one step; 1 when it ran but its `expect` was not met. Throws when it could not run. */
	async function runStep(step: ReplayStep, number: number): Promise<number> {
		const sessionId = step.session ?? defaultSessionId;
		const session = state.session(sessionId);
		session.modelId = script.sessions?.[sessionId]?.model ?? script.model;
		session.name = script.sessions?.[sessionId]?.name ?? sessionId;
		// The script speaks too (issue 31): the learner's `user` lines and the model's `say` lines
		// are conversation entries, as are each call as sent and its result as received.
		if ('user' in step) {
			await pipeline.recordConversation([{ sessionId, role: 'user', text: step.user }]);
			output.err(`[${sessionId}] learner: ${step.user}`);
			return 0;
		}
		if ('say' in step) {
			await pipeline.recordConversation([
				{ sessionId, role: 'assistant', text: step.say, model: session.modelId }
			]);
			output.err(`[${sessionId}] ${step.say}`);
			return 0;
		}
		if ('human_edit' in step) {
			await refuseUnsafeHumanEdit(workspace, step.human_edit.path);
			await pipeline.recordHumanEdit({
				path: step.human_edit.path,
				content: step.human_edit.content
			});
			output.err(`[human] edited ${step.human_edit.path}`);
			return 0;
		}
		const toolCallId = `step-${number}-${randomIds.uuid().slice(0, 8)}`;
		await pipeline.recordConversation([
			{
				sessionId,
				role: 'assistant',
				toolCall: { id: toolCallId, name: step.call, input: step.input },
				model: session.modelId
			}
		]);
		const outcome = await pipeline.run({
			sessionId,
			toolCallId,
			tool: step.call,
			input: step.input
		});
		await pipeline.recordConversation([
			{
				sessionId,
				role: 'tool',
				toolResult: outcome.ok
					? { id: toolCallId, ok: true, output: outcome.output }
					: { id: toolCallId, ok: false, error: outcome.error }
			}
		]);
		output.out(
			JSON.stringify(
				outcome.ok
					? { step: number, session: sessionId, tool: step.call, ok: true, output: outcome.output }
					: { step: number, session: sessionId, tool: step.call, ok: false, error: outcome.error }
			)
		);
		const got = outcome.ok ? 'ok' : outcome.error.code;
		if (step.expect && step.expect !== got) {
			output.err(`step ${number}: expected ${step.expect}, got ${got}`);
			return 1;
		}
		return 0;
	}
}

function plainMessage(error: unknown): string {
	const code = (error as NodeJS.ErrnoException | null)?.code;
	const message = error instanceof Error ? error.message : String(error);
	return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * A person's edit in a replay must name a file inside the workspace, reached without a symbolic
 * link on the way (a link could lead out of the workspace or into `.git/`), and not a folder.
 */
async function refuseUnsafeHumanEdit(workspace: string, path: string): Promise<void> {
	const normalised = normalizeWorkspacePath(path);
	if (!normalised.ok)
		throw new Error(`human_edit on ${JSON.stringify(path)}: ${normalised.reason}`);
	let current = workspace;
	for (const segment of normalised.path.split('/')) {
		current = join(current, segment);
		const info = await lstat(current).catch(() => null);
		if (!info) return;
		if (info.isSymbolicLink()) {
			throw new Error(
				`human_edit on ${JSON.stringify(path)}: ${relative(workspace, current).split(sep).join('/')} is a symbolic link; edits never go through links`
			);
		}
	}
	const info = await lstat(current).catch(() => null);
	if (info?.isDirectory()) {
		throw new Error(`human_edit on ${JSON.stringify(path)}: that is a folder, not a file`);
	}
}

function answerFor(step: ReplayStep | null, approveDefault: 'all' | 'none'): ApprovalAnswer {
	const approve = step && 'approve' in step ? step.approve : undefined;
	if (approve === undefined) {
		return approveDefault === 'all'
			? { approved: true }
			: {
					approved: false,
					reason: 'rejected by --approve none (the script gave no answer for this step)'
				};
	}
	return typeof approve === 'boolean' ? { approved: approve } : approve;
}

/** Scripts and intents files are small; anything else is refused before it is read. */
const maximumInputBytes = 16 * 1024 * 1024;

async function readText(path: string, what: string): Promise<string> {
	try {
		const info = await stat(path);
		if (!info.isFile()) throw new UsageError(`${what} ${path} is not a file`);
		if (info.size > maximumInputBytes) {
			throw new UsageError(
				`${what} ${path} is larger than ${maximumInputBytes / (1024 * 1024)} MB`
			);
		}
		return await readFile(path, 'utf8');
	} catch (error) {
		if (error instanceof UsageError) throw error;
		throw new UsageError(
			`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
		);
	}
}

/** A replay continues the workspace's ledger, after checking that it is intact. */
async function loadPreviousLedger(workspace: string): Promise<LedgerEvent[]> {
	const auditPath = join(workspace, orchestrationFolder, 'audit.jsonl');
	const auditJsonl = await readFile(auditPath, 'utf8').catch(() => null);
	if (auditJsonl === null || auditJsonl.trim() === '') return [];
	const traceJsonl = await readFile(
		join(workspace, orchestrationFolder, 'agent_trace.jsonl'),
		'utf8'
	).catch(() => '');
	const report = await verifyLedger({ auditJsonl, traceJsonl, ...nodeVerifyPorts });
	if (!report.audit.intact || !report.trace.intact) {
		throw new UsageError(
			`the existing ledger in ${auditPath} is broken (${report.firstFailure}); move it away to start a new one`
		);
	}
	return auditJsonl
		.split('\n')
		.filter((line) => line.trim())
		.map((line) => JSON.parse(line) as LedgerEvent);
}

/**
 * The starting workspace straight from disk, never following links: every file (`.orchestration/`
 * and `.git/` included: verify checks both) and every symbolic link with its target.
 */
async function listWorkspaceEntries(
	workspace: string
): Promise<{ paths: string[]; links: Record<string, string> }> {
	const paths: string[] = [];
	const links: Record<string, string> = {};
	const walk = async (folder: string): Promise<void> => {
		for (const child of await readdir(folder, { withFileTypes: true })) {
			const location = join(folder, child.name);
			const path = relative(workspace, location).split(sep).join('/');
			if (child.isSymbolicLink()) links[path] = await readlink(location);
			else if (child.isDirectory()) {
				if (!unrecordedFolders.has(child.name)) await walk(location);
			} else if (child.isFile()) paths.push(path);
		}
	};
	await walk(workspace);
	return { paths, links };
}

/**
 * Writes `.orchestration/` (the ledger, the derived files, the intents). If the workspace refuses
 * (a folder where a file goes, a full disk), the same files go to a fresh temporary folder so the
 * ledger of what happened is never lost.
 */
async function writeOrchestration(
	workspace: string,
	state: GovernanceState,
	events: readonly LedgerEvent[]
): Promise<{ fallback: string | null; problem: string | null }> {
	const intentsOnDisk = await readFile(join(workspace, activeIntentsPath), 'utf8').catch(
		() => null
	);
	const agentMd = await readFile(join(workspace, agentNotesPath), 'utf8').catch(() => '');
	const files = exportOrchestration({
		events,
		activeIntentsYaml: intentsOnDisk ?? state.intentsYaml,
		agentMd
	});
	try {
		await writeAll(join(workspace, orchestrationFolder), files);
		return { fallback: null, problem: null };
	} catch (error) {
		const fallback = await mkdtemp(join(tmpdir(), 'threadline-replay-'));
		await writeAll(fallback, files);
		return { fallback, problem: plainMessage(error) };
	}
}

async function writeAll(folder: string, files: ReadonlyMap<string, string>): Promise<void> {
	await mkdir(folder, { recursive: true });
	for (const [name, content] of files) await writeFile(join(folder, name), content);
}
