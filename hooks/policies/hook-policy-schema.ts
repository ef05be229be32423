import { z } from 'zod';
import { toolInputSchemas } from '../tools/tool-catalog.js';

/**
 * `.orchestration/hooks.yaml`: a scenario's own rules, layered on the built-in hooks. A rule
 * matches on tools, path globs, command patterns and the active intent (every given field must
 * match), then denies with a message, asks the human, waives the approval policy's question
 * (`allow`) or runs a check after a matching successful write (`run`).
 */
export const hookPolicyPath = '.orchestration/hooks.yaml';

const toolNames = Object.keys(toolInputSchemas) as [string, ...string[]];
const nonEmptyList = z.array(z.string().min(1)).min(1);

export const policyMatchSchema = z
	.strictObject({
		tools: z.array(z.enum(toolNames)).min(1).optional(),
		paths: nonEmptyList.optional(),
		commands: nonEmptyList.optional(),
		intents: nonEmptyList.optional()
	})
	.refine((match) => Object.keys(match).length > 0, {
		message: 'match needs at least one of tools, paths, commands, intents'
	});

export const policyRuleSchema = z
	.strictObject({
		match: policyMatchSchema,
		action: z.enum(['deny', 'ask', 'allow', 'run']),
		message: z.string().min(1).optional(),
		run: z.string().min(1).optional(),
		/** Milliseconds before a `run` check is stopped (default 60 000). */
		timeout_ms: z.number().int().min(100).max(600_000).optional()
	})
	.superRefine((rule, context) => {
		if (rule.action === 'run' && !rule.run) {
			context.addIssue({
				code: 'custom',
				path: ['run'],
				message: 'a run rule needs `run: "<command>"` (e.g. "npm test")'
			});
		}
		if (rule.action !== 'run' && rule.run !== undefined) {
			context.addIssue({
				code: 'custom',
				path: ['run'],
				message: `\`run\` only applies to action: run (this rule's action is ${rule.action})`
			});
		}
	});

export const hookPolicySchema = z.strictObject({
	rules: z.array(policyRuleSchema).default([])
});

export type HookPolicy = z.infer<typeof hookPolicySchema>;
export type PolicyRule = HookPolicy['rules'][number];
export type PolicyMatch = PolicyRule['match'];
