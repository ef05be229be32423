import { z } from 'zod';

/**
 * What a scripted demo does when a call's outcome is known: `expect` names the outcome the script
 * was written for (`ok` or a ToolError code); `on` says, per outcome, what to say and whether to
 * go on, skip some of the session's next steps, or stop. An outcome that is neither expected nor
 * listed (nor covered by `other`) stops the demo with "that did not go as scripted", so a demo
 * never claims an outcome it did not get. `threadline replay` follows the expected path only: a
 * branch for the expected outcome should only `say`.
 */
export const outcomeBranchSchema = z.strictObject({
	say: z.string().optional(),
	then: z.enum(['continue', 'stop']).default('continue'),
	/** How many of this session's following steps to leave out (e.g. a retry that is not needed). */
	skip: z.number().int().min(1).max(1000).optional()
});

export const outcomeBranchesSchema = z.record(z.string().min(1), outcomeBranchSchema);

export type OutcomeBranch = z.infer<typeof outcomeBranchSchema>;
export type OutcomeBranches = z.infer<typeof outcomeBranchesSchema>;

/** The key of `on` that matches any outcome not listed and not expected. */
export const otherOutcome = 'other';

export type OutcomeDecision =
	| { kind: 'as-scripted'; branch: OutcomeBranch | null }
	| { kind: 'branch'; branch: OutcomeBranch }
	| { kind: 'off-script' };

/** How a step's script goes on after `outcome` (`ok` or a ToolError code). */
export function decideOutcome(
	step: { expect?: string; on?: OutcomeBranches },
	outcome: string
): OutcomeDecision {
	const listed = step.on?.[outcome];
	if (step.expect === undefined || step.expect === outcome)
		return { kind: 'as-scripted', branch: listed ?? null };
	if (listed) return { kind: 'branch', branch: listed };
	const other = step.on?.[otherOutcome];
	if (other) return { kind: 'branch', branch: other };
	return { kind: 'off-script' };
}
