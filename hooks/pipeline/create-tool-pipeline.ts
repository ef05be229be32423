import { intentMapHook } from '../post-hooks/intent-map-hook.js';
import { hookPolicyRunHook } from '../post-hooks/hook-policy-run-hook.js';
import { lessonHook } from '../post-hooks/lesson-hook.js';
import { approvalPolicyHook } from '../pre-hooks/approval-policy-hook.js';
import { commandPolicyHook } from '../pre-hooks/command-policy-hook.js';
import { gatekeeperHook } from '../pre-hooks/gatekeeper-hook.js';
import { hookPolicyHook } from '../pre-hooks/hook-policy-hook.js';
import { intentLockHook } from '../pre-hooks/intent-lock-hook.js';
import { protectedIntentHook } from '../pre-hooks/protected-intent-hook.js';
import { protectedPathHook } from '../pre-hooks/protected-path-hook.js';
import { scopeHook } from '../pre-hooks/scope-hook.js';
import { staleFileHook } from '../pre-hooks/stale-file-hook.js';
import { HookRegistry } from './hook-registry.js';
import { ToolPipeline, type ToolPipelineOptions } from './tool-pipeline.js';

/** The built-in pre-hooks, in the order DESIGN.md gives. */
export const builtInPreHooks = [
	protectedPathHook,
	gatekeeperHook,
	intentLockHook,
	scopeHook,
	protectedIntentHook,
	commandPolicyHook,
	hookPolicyHook,
	staleFileHook,
	approvalPolicyHook
];

export const builtInPostHooks = [intentMapHook, hookPolicyRunHook, lessonHook];

export function createBuiltInRegistry(): HookRegistry {
	const registry = new HookRegistry();
	for (const hook of builtInPreHooks) registry.registerPre(hook);
	for (const hook of builtInPostHooks) registry.registerPost(hook);
	return registry;
}

/** A pipeline with every built-in hook registered. */
export function createToolPipeline(
	options: Omit<ToolPipelineOptions, 'registry'> & { registry?: HookRegistry }
): ToolPipeline {
	return new ToolPipeline({ ...options, registry: options.registry ?? createBuiltInRegistry() });
}
