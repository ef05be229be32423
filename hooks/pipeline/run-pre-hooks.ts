import { toolError } from '../errors/tool-error.js';
import type { ApprovalRequest, Decision } from './decision.js';
import type { PreHook, PreHookContext } from './hook-types.js';
import type { Scheduler } from './ports.js';

export const defaultHookTimeoutMs = 2_000;

export interface PreHookVerdict {
	decision: 'allow' | 'deny' | 'ask';
	/** The deny, when there is one. */
	denial?: { hook: string; decision: Extract<Decision, { kind: 'deny' }> };
	/** Every ask, in hook order; the human answers them together. */
	asks: ApprovalRequest[];
	/** Hooks that took part (not skipped), for the ledger. */
	hooks: string[];
	/** Hooks that threw or timed out. */
	failures: { hook: string; message: string }[];
}

/**
 * Runs pre-hooks in priority order. The first deny wins and stops the run; asks are collected;
 * precedence deny > ask > allow. A hook that throws or exceeds its timeout denies with
 * `hook_failed`: governance fails closed.
 */
export async function runPreHooks(
	hooks: readonly PreHook[],
	context: PreHookContext,
	scheduler: Scheduler
): Promise<PreHookVerdict> {
	const asks: ApprovalRequest[] = [];
	const participants: string[] = [];
	const failures: { hook: string; message: string }[] = [];
	for (const hook of hooks) {
		let decision: Decision;
		try {
			decision = await decide(hook, context, scheduler);
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			failures.push({ hook: hook.name, message });
			decision = {
				kind: 'deny',
				error: toolError(
					'hook_failed',
					`The ${hook.name} check failed (${message}), so the call was blocked.`,
					'Retry once; if it fails again, tell the human that a governance check is failing.'
				)
			};
		}
		if (decision.kind === 'skip') continue;
		participants.push(hook.name);
		if (decision.kind === 'deny') {
			return {
				decision: 'deny',
				denial: { hook: hook.name, decision },
				asks,
				hooks: participants,
				failures
			};
		}
		if (decision.kind === 'ask') asks.push(decision.request);
	}
	return { decision: asks.length > 0 ? 'ask' : 'allow', asks, hooks: participants, failures };
}

async function decide(
	hook: PreHook,
	context: PreHookContext,
	scheduler: Scheduler
): Promise<Decision> {
	const result = hook.run(context);
	// Synchronous hooks (the common case) need no timer: that keeps a decision well under 0.1 ms.
	if (!(result instanceof Promise)) return validated(result);
	const timeoutMs = hook.timeoutMs ?? defaultHookTimeoutMs;
	const controller = new AbortController();
	const timeout = scheduler.delay(timeoutMs, controller.signal).then(() => {
		throw new Error(`timed out after ${timeoutMs} ms`);
	});
	try {
		return validated(await Promise.race([result, timeout]));
	} finally {
		controller.abort();
		// The losing timer rejects on abort; nobody listens to it any more.
		timeout.catch(() => undefined);
	}
}

function validated(decision: Decision): Decision {
	if (
		typeof decision !== 'object' ||
		decision === null ||
		!['allow', 'deny', 'ask', 'skip'].includes((decision as { kind?: string }).kind ?? '')
	) {
		throw new Error('returned something that is not a decision');
	}
	return decision;
}
