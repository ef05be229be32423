import { z } from 'zod';
import { toolErrorCodes } from '../errors/tool-error.js';
import type { GradingReport } from './build-report.js';
import type { CriteriaResult } from './criteria-results.js';

/**
 * A scenario's optional grading rubric (`rubric:` in scenario.yaml). Points come from acceptance
 * criteria; penalties from blocks by ToolError code, from files verify cannot attribute, and from
 * a failed verification. Strict like the rest of the manifest: a misspelled key is an error.
 */
const points = z
	.number({ error: 'points must be a number' })
	.min(0, { error: 'points must be 0 or more' })
	.max(10_000, { error: 'points must be at most 10,000' });

export const rubricSchema = z.strictObject({
	criteria: z
		.array(
			z.strictObject({
				intent: z.string().min(1, { error: 'intent must name an intent id, e.g. INT-001' }),
				points
			})
		)
		.max(100, { error: 'rubric.criteria may list at most 100 intents' })
		.default([]),
	/**
	 * Points per step of a scenario taught in steps (`steps:` in scenario.yaml, numbered from 1):
	 * earned when the step's check passed in the ledger (a `step-check` event), all or nothing.
	 */
	steps: z
		.array(
			z.strictObject({
				step: z
					.number({ error: 'step must be a step number, from 1' })
					.int({ error: 'step must be a whole number' })
					.min(1, { error: 'steps are numbered from 1' }),
				points
			})
		)
		.max(50, { error: 'rubric.steps may list at most 50 steps' })
		.optional(),
	/** true: an intent earns points in proportion to its passing criteria; false: all or nothing. */
	partial_credit: z.boolean().default(true),
	penalties: z
		.strictObject({
			blocks: z.partialRecord(z.enum(toolErrorCodes), points).default({}),
			unattributed_change: points.default(0),
			verify_failed: points.default(0)
		})
		.default({ blocks: {}, unattributed_change: 0, verify_failed: 0 }),
	/** The score never goes below this (penalties stop here). */
	minimum: z.number().default(0)
});

export type Rubric = z.output<typeof rubricSchema>;
export const rubricKeys = Object.keys(rubricSchema.shape);
export const rubricPenaltyKeys = ['blocks', 'unattributed_change', 'verify_failed'];
export const rubricCriterionKeys = ['intent', 'points'];
export const rubricStepKeys = ['step', 'points'];

export interface ScoreInput {
	report: GradingReport;
	criteria: readonly CriteriaResult[];
	verified: boolean;
	/** Files verify found changed with no record, or not attributed to any record. */
	unattributedFiles: number;
	/** Step numbers (from 1) whose check passed in the ledger (`passedSteps`); none when absent. */
	passedSteps?: ReadonlySet<number>;
}

export interface ScoreLine {
	label: string;
	points: number;
}

export interface Score {
	score: number;
	maximum: number;
	lines: ScoreLine[];
}

/** The score of one export under a rubric, with every line that made it (for the report). */
export function scoreExport(rubric: Rubric, input: ScoreInput): Score {
	const lines: ScoreLine[] = [];
	let maximum = 0;
	for (const item of rubric.criteria) {
		maximum += item.points;
		const result = input.criteria.find((candidate) => candidate.intent_id === item.intent);
		const total = result?.total ?? 0;
		const passed = result?.passed ?? 0;
		// An intent without criteria earns its points by being completed through complete_intent.
		const share =
			total === 0
				? result?.outcome === 'passed'
					? 1
					: 0
				: rubric.partial_credit
					? passed / total
					: passed === total
						? 1
						: 0;
		lines.push({
			label: `${item.intent} criteria ${passed}/${total} passing`,
			points: round(item.points * share)
		});
	}
	for (const item of rubric.steps ?? []) {
		maximum += item.points;
		const passed = input.passedSteps?.has(item.step) === true;
		lines.push({
			label: `step ${item.step} ${passed ? 'passed' : 'not passed'}`,
			points: passed ? round(item.points) : 0
		});
	}
	const blocks = new Map<string, number>();
	for (const intent of [...input.report.intents, input.report.unassigned]) {
		for (const [code, count] of Object.entries(intent.blocked_by_code))
			blocks.set(code, (blocks.get(code) ?? 0) + count);
	}
	for (const [code, penalty] of Object.entries(rubric.penalties.blocks).sort(([left], [right]) =>
		left.localeCompare(right)
	)) {
		const count = blocks.get(code) ?? 0;
		if (count > 0 && penalty)
			lines.push({ label: `${code} ×${count}`, points: -round(penalty * count) });
	}
	if (input.unattributedFiles > 0 && rubric.penalties.unattributed_change > 0)
		lines.push({
			label: `unattributed change ×${input.unattributedFiles}`,
			points: -round(rubric.penalties.unattributed_change * input.unattributedFiles)
		});
	if (!input.verified && rubric.penalties.verify_failed > 0)
		lines.push({ label: 'verification failed', points: -rubric.penalties.verify_failed });
	const raw = lines.reduce((sum, line) => sum + line.points, 0);
	return { score: round(Math.max(rubric.minimum, raw)), maximum: round(maximum), lines };
}

/** Two decimals, so the CSV never shows 33.333333333333336. */
function round(value: number): number {
	return Math.round(value * 100) / 100 + 0;
}
