import { contentHash } from '../hooks/hashing/sha256.js';
import { isGovernancePath } from '../hooks/paths/protected-paths.js';
import type { AgentSession } from '../hooks/pipeline/agent-session.js';
import { CachedFileHashes } from '../hooks/pipeline/cached-file-hashes.js';
import { createBuiltInRegistry } from '../hooks/pipeline/create-tool-pipeline.js';
import { GovernanceState } from '../hooks/pipeline/governance-state.js';
import type { HookRegistry } from '../hooks/pipeline/hook-registry.js';
import type { FileHashLookup, PreHookContext } from '../hooks/pipeline/hook-types.js';
import type { Scheduler } from '../hooks/pipeline/ports.js';
import { runPreHooks, type PreHookVerdict } from '../hooks/pipeline/run-pre-hooks.js';
import type { ToolCall } from '../hooks/pipeline/tool-call.js';
import { riskOf } from '../hooks/tools/tool-catalog.js';
import { validateToolCall } from '../hooks/pipeline/validate-tool-call.js';
import { InMemoryFileSystem } from '../hooks/workspace/in-memory-file-system.js';
import {
	contentOf,
	generateIntentsYaml,
	generateWorkspace,
	intentIdOf,
	isSelectable
} from './governance-workspace.js';
import { summarize, type TimingSummary } from './statistics.js';
import { timerScheduler } from './timer-scheduler.js';

/** Everything one governance decision needs, prepared once so only the decision is timed. */
export interface DecisionWorkload {
	registry: HookRegistry;
	scheduler: Scheduler;
	state: GovernanceState;
	session: AgentSession;
	intentId: string;
	workspaceFiles: number;
	/** write_to_file calls on files inside the intent's scope that the session has read. */
	inScope: PreHookContext[];
	/** write_to_file calls on existing files outside the scope (not protected paths). */
	outOfScope: PreHookContext[];
}

export interface DecisionWorkloadOptions {
	intentCount: number;
	globsPerIntent?: number;
	fileCount: number;
	/** How many different out-of-scope paths the calls rotate through. */
	outOfScopeVariety?: number;
	scheduler?: Scheduler;
}

/**
 * Validates a call and resolves its targets exactly as ToolPipeline.run does before the pre-hooks,
 * and returns the context the pipeline would hand them. Throws where the pipeline would answer
 * invalid_input: a bench call that does not validate is a broken bench.
 */
export function buildPreHookContext(
	state: GovernanceState,
	files: FileHashLookup,
	call: ToolCall
): PreHookContext {
	const validated = validateToolCall(call);
	if ('error' in validated)
		throw new Error(`invalid ${call.tool} call: ${validated.error.message}`);
	const { validatedCall, targets, command } = validated;
	return {
		call: validatedCall,
		session: state.session(call.sessionId),
		state,
		risk: riskOf(call.tool),
		targets,
		command,
		files
	};
}

function writeCall(sessionId: string, intentId: string, path: string, number: number): ToolCall {
	return {
		sessionId,
		toolCallId: `call-${number}`,
		tool: 'write_to_file',
		input: {
			path,
			content: `${contentOf(path)}// revised\n`,
			intent_id: intentId,
			mutation_class: 'INTENT_EVOLUTION'
		}
	};
}

/** An IN_PROGRESS intent about two thirds down the list, so lookups do not hit the first entry. */
function activeIntentNumber(intentCount: number): number {
	for (let number = Math.ceil(intentCount * 0.68); number <= intentCount; number++)
		if (isSelectable(number)) return number;
	for (let number = 1; number <= intentCount; number++) if (isSelectable(number)) return number;
	throw new Error('no IN_PROGRESS intent to select');
}

/** Evenly spaced picks, so the sample covers the whole list rather than its head. */
function spread<Item>(items: readonly Item[], count: number): Item[] {
	if (items.length <= count) return [...items];
	const step = items.length / count;
	return Array.from({ length: count }, (_, position) => items[Math.floor(position * step)] as Item);
}

export async function prepareDecisionWorkload(
	options: DecisionWorkloadOptions
): Promise<DecisionWorkload> {
	const intentsYaml = generateIntentsYaml(options.intentCount, options.globsPerIntent);
	const fs = new InMemoryFileSystem(
		generateWorkspace({
			intentCount: options.intentCount,
			fileCount: options.fileCount,
			intentsYaml
		})
	);
	const state = new GovernanceState({ intentsYaml });
	const intentId = intentIdOf(activeIntentNumber(options.intentCount));
	const session = state.session('builder', 'anthropic/claude-sonnet-4');
	state.acquire(session, intentId);
	// "Approve all for this intent": the approval hook still works out its reasons, then allows,
	// so the verdict is a plain allow instead of a trip to the modal.
	session.approvedIntents.add(intentId);

	const paths = fs.paths();
	const inScopePaths = paths.filter((path) => state.scope.isInScope(intentId, path));
	if (inScopePaths.length === 0) throw new Error(`no workspace file is in ${intentId}'s scope`);
	// What read_file records: the hash of the bytes the session saw.
	for (const path of inScopePaths)
		session.readBaselines.set(path, await contentHash(await fs.readFile(path)));
	const outOfScopePaths = spread(
		paths.filter((path) => !isGovernancePath(path) && !state.scope.isInScope(intentId, path)),
		options.outOfScopeVariety ?? 64
	);
	if (outOfScopePaths.length === 0) throw new Error('every workspace file is in scope');

	const files = new CachedFileHashes(fs);
	let callNumber = 0;
	const contextsFor = (targetPaths: string[]) =>
		targetPaths.map((path) =>
			buildPreHookContext(state, files, writeCall(session.id, intentId, path, ++callNumber))
		);
	return {
		registry: createBuiltInRegistry(),
		scheduler: options.scheduler ?? timerScheduler,
		state,
		session,
		intentId,
		workspaceFiles: paths.length,
		inScope: contextsFor(inScopePaths),
		outOfScope: contextsFor(outOfScopePaths)
	};
}

/** The governance decision itself, as ToolPipeline.run makes it. */
export function decide(
	workload: DecisionWorkload,
	context: PreHookContext
): Promise<PreHookVerdict> {
	return runPreHooks(
		workload.registry.preHooksFor(context.call.tool, context.targets),
		context,
		workload.scheduler
	);
}

/** Throws unless an in-scope write was allowed after every check ran, the stale-file one included. */
export function expectAllowed(verdict: PreHookVerdict, context: PreHookContext): void {
	const required = ['protected-path', 'gatekeeper', 'scope', 'stale-file', 'approval-policy'];
	const missing = required.filter((hook) => !verdict.hooks.includes(hook));
	if (verdict.decision !== 'allow' || missing.length > 0 || verdict.failures.length > 0) {
		throw new Error(
			`expected ${context.targets.join(', ')} to be allowed by every hook, got ${verdict.decision}` +
				` (hooks: ${verdict.hooks.join(', ')}; denial: ${verdict.denial?.decision.error.code ?? 'none'})`
		);
	}
}

/** Throws unless an out-of-scope write was denied by the scope hook. */
export function expectScopeViolation(verdict: PreHookVerdict, context: PreHookContext): void {
	const code = verdict.denial?.decision.error.code;
	if (
		verdict.decision !== 'deny' ||
		verdict.denial?.hook !== 'scope' ||
		code !== 'scope_violation'
	) {
		throw new Error(
			`expected ${context.targets.join(', ')} to be a scope_violation, got ${verdict.decision} (${code ?? 'no code'})`
		);
	}
}

/**
 * Times decisions one by one, rotating through the contexts. Every verdict is checked (outside
 * the timed span), so a bench whose hooks stopped working cannot report a fast wrong answer.
 */
export async function timeDecisions(
	workload: DecisionWorkload,
	contexts: readonly PreHookContext[],
	options: {
		warmup: number;
		samples: number;
		check: (verdict: PreHookVerdict, context: PreHookContext) => void;
	}
): Promise<TimingSummary> {
	if (contexts.length === 0) throw new Error('no calls to time');
	for (let round = 0; round < options.warmup; round++) {
		const context = contexts[round % contexts.length] as PreHookContext;
		options.check(await decide(workload, context), context);
	}
	const durations = new Array<number>(options.samples);
	for (let round = 0; round < options.samples; round++) {
		const context = contexts[round % contexts.length] as PreHookContext;
		const started = performance.now();
		const verdict = await decide(workload, context);
		durations[round] = performance.now() - started;
		options.check(verdict, context);
	}
	return summarize(durations);
}

/** Validation and target resolution, the part of run() before the decision (informational). */
export function timeValidation(
	workload: DecisionWorkload,
	contexts: readonly PreHookContext[],
	samples: number
): TimingSummary {
	const calls: ToolCall[] = contexts.map((context) => ({
		sessionId: context.call.sessionId,
		toolCallId: context.call.toolCallId,
		tool: context.call.tool,
		input: context.call.input
	}));
	const files = contexts[0]?.files;
	if (!files) throw new Error('no calls to time');
	const durations = new Array<number>(samples);
	for (let round = 0; round < samples; round++) {
		const call = calls[round % calls.length] as ToolCall;
		const started = performance.now();
		buildPreHookContext(workload.state, files, call);
		durations[round] = performance.now() - started;
	}
	return summarize(durations);
}
