import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatIntentsError, parseIntents } from '../../hooks/intents/parse-intents.js';
import { exportOrchestration } from '../../hooks/ledger/export.js';
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
import { nodeContentHash, randomIds, systemClock, timerScheduler } from './node-ports.js';
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
	const workspace = values.get('workspace');
	if (!workspace) throw new UsageError('replay needs --workspace <dir>');
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

	try {
		// The same scenario hook policy as in the browser; a broken one fails closed, as there.
		const hookPolicy = await readFile(join(workspace, hookPolicyPath), 'utf8').catch(() => null);
		await pipeline.loadHookPolicy(hookPolicy);
		for (const error of state.hookPolicy.errors)
			output.err(`${join(workspace, hookPolicyPath)}:${formatHookPolicyError(error)}`);
		if (previousEvents.length === 0) {
			const paths = (await listWorkspaceFiles(sandbox.fs)).filter(
				(path) => !path.startsWith(`${orchestrationFolder}/`)
			);
			await pipeline.recordWorkspaceSnapshot(paths);
		}
		let unmet = 0;
		for (const [index, step] of script.steps.entries()) {
			const number = index + 1;
			currentStep = step;
			const sessionId = step.session ?? defaultSessionId;
			const session = state.session(sessionId);
			session.modelId = script.sessions?.[sessionId]?.model ?? script.model;
			session.name = script.sessions?.[sessionId]?.name ?? sessionId;
			if ('say' in step) {
				output.err(`[${sessionId}] ${step.say}`);
			} else if ('human_edit' in step) {
				await pipeline.recordHumanEdit({
					path: step.human_edit.path,
					content: step.human_edit.content
				});
				output.err(`[human] edited ${step.human_edit.path}`);
			} else {
				const outcome = await pipeline.run({
					sessionId,
					toolCallId: `step-${number}-${randomIds.uuid().slice(0, 8)}`,
					tool: step.call,
					input: step.input
				});
				output.out(
					JSON.stringify(
						outcome.ok
							? {
									step: number,
									session: sessionId,
									tool: step.call,
									ok: true,
									output: outcome.output
								}
							: {
									step: number,
									session: sessionId,
									tool: step.call,
									ok: false,
									error: outcome.error
								}
					)
				);
				const got = outcome.ok ? 'ok' : outcome.error.code;
				if (step.expect && step.expect !== got) {
					unmet++;
					output.err(`step ${number}: expected ${step.expect}, got ${got}`);
				}
			}
		}
		await writeOrchestration(workspace, state, await ledger.events(), sandbox.fs);
		if (unmet > 0) {
			output.err(`${unmet} step(s) did not give the expected result`);
			return 1;
		}
		return 0;
	} finally {
		await sandbox.dispose();
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

async function readText(path: string, what: string): Promise<string> {
	try {
		return await readFile(path, 'utf8');
	} catch (error) {
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
	const report = await verifyLedger({ auditJsonl, traceJsonl, hasher: nodeContentHash });
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

async function listWorkspaceFiles(
	fs: import('../../hooks/tools/sandbox-ports.js').SandboxFileSystem,
	folder = ''
): Promise<string[]> {
	const paths: string[] = [];
	for (const entry of await fs.readdir(folder)) {
		const path = folder ? `${folder}/${entry.name}` : entry.name;
		if (entry.kind === 'directory') {
			if (entry.name === '.git' || entry.name === 'node_modules') continue;
			paths.push(...(await listWorkspaceFiles(fs, path)));
		} else paths.push(path);
	}
	return paths;
}

async function writeOrchestration(
	workspace: string,
	state: GovernanceState,
	events: readonly LedgerEvent[],
	fs: import('../../hooks/tools/sandbox-ports.js').SandboxFileSystem
): Promise<void> {
	const agentMd = (await fs.stat(agentNotesPath)) ? await fs.readTextFile(agentNotesPath) : '';
	const files = exportOrchestration({
		events,
		activeIntentsYaml: state.intentsYaml,
		agentMd,
		intents: state.intents.intents
	});
	await mkdir(join(workspace, orchestrationFolder), { recursive: true });
	for (const [name, content] of files)
		await writeFile(join(workspace, orchestrationFolder, name), content);
}
