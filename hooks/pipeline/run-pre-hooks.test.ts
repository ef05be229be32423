import { describe, expect, it } from 'vitest';
import { toolError } from '../errors/tool-error.js';
import { allow, ask, deny, skip, type Decision } from './decision.js';
import { HookRegistry } from './hook-registry.js';
import type { PreHook, PreHookContext } from './hook-types.js';
import { immediateScheduler, neverScheduler } from './pipeline-test-kit.js';
import { runPreHooks } from './run-pre-hooks.js';

const context = {} as PreHookContext;
const hook = (
	name: string,
	priority: number,
	decision: Decision | (() => Decision | Promise<Decision>)
): PreHook => ({
	name,
	priority,
	run: typeof decision === 'function' ? decision : () => decision
});
const denial = deny(toolError('scope_violation', 'no', 'ask'));

describe('runPreHooks', () => {
	it('gives deny > ask > allow, and skip abstains', async () => {
		expect(
			(await runPreHooks([hook('a', 1, allow), hook('b', 2, skip)], context, neverScheduler))
				.decision
		).toBe('allow');
		expect(
			(
				await runPreHooks(
					[hook('a', 1, ask({ hook: 'a', reasons: ['r'] })), hook('b', 2, allow)],
					context,
					neverScheduler
				)
			).decision
		).toBe('ask');
		const verdict = await runPreHooks(
			[hook('a', 1, ask({ hook: 'a', reasons: ['r'] })), hook('b', 2, denial)],
			context,
			neverScheduler
		);
		expect(verdict.decision).toBe('deny');
		expect(verdict.denial?.hook).toBe('b');
	});

	it('stops at the first deny', async () => {
		let ran = false;
		await runPreHooks(
			[hook('a', 1, denial), hook('b', 2, () => ((ran = true), allow))],
			context,
			neverScheduler
		);
		expect(ran).toBe(false);
	});

	it('fails closed on a throw, a timeout and a non-decision', async () => {
		const thrown = await runPreHooks(
			[
				hook('boom', 1, () => {
					throw new Error('x');
				})
			],
			context,
			neverScheduler
		);
		expect(thrown.denial?.decision.error.code).toBe('hook_failed');
		const slow = await runPreHooks(
			[hook('slow', 1, () => new Promise<Decision>(() => undefined))],
			context,
			immediateScheduler
		);
		expect(slow.denial?.decision.error.message).toMatch(/timed out/);
		const junk = await runPreHooks(
			[hook('junk', 1, () => ({ kind: 'maybe' }) as unknown as Decision)],
			context,
			neverScheduler
		);
		expect(junk.failures[0]?.message).toMatch(/not a decision/);
	});
});

describe('HookRegistry', () => {
	it('orders by priority, keeps registration order for ties, and disposes', () => {
		const registry = new HookRegistry();
		const disposeLate = registry.registerPre(hook('late', 50, allow));
		registry.registerPre(hook('first', 10, allow));
		registry.registerPre(hook('tie', 50, allow));
		expect(registry.preHooksFor('read_file', []).map((entry) => entry.name)).toEqual([
			'first',
			'late',
			'tie'
		]);
		disposeLate();
		expect(registry.preHooksFor('read_file', []).map((entry) => entry.name)).toEqual([
			'first',
			'tie'
		]);
	});
});
