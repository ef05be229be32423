import type { GradeSummary } from './grade-protocol.js';
import { allIntents, blocksByCode } from './grade-table.js';

/** How many exports hit each block code, and how many completed each intent. */
export interface ClassSummary {
	exports: number;
	verified: number;
	blockCodes: { code: string; exports: number; total: number }[];
	intents: { intentId: string; completed: number }[];
}

export function classSummary(summaries: readonly GradeSummary[]): ClassSummary {
	const codes = new Map<string, { exports: number; total: number }>();
	const completed = new Map<string, number>();
	for (const summary of summaries) {
		for (const [code, count] of Object.entries(blocksByCode(summary))) {
			const entry = codes.get(code) ?? { exports: 0, total: 0 };
			entry.exports++;
			entry.total += count;
			codes.set(code, entry);
		}
		for (const intent of summary.report.intents) {
			completed.set(
				intent.intent_id,
				(completed.get(intent.intent_id) ?? 0) + (intent.status === 'COMPLETED' ? 1 : 0)
			);
		}
	}
	return {
		exports: summaries.length,
		verified: summaries.filter((summary) => summary.verified).length,
		blockCodes: [...codes]
			.map(([code, entry]) => ({ code, ...entry }))
			.sort((left, right) => right.exports - left.exports || left.code.localeCompare(right.code)),
		intents: [...completed]
			.map(([intentId, count]) => ({ intentId, completed: count }))
			.sort((left, right) => left.intentId.localeCompare(right.intentId))
	};
}

/**
 * The class summary per scenario (issue 28): INT-001 of jwt-auth and INT-001 of weather-api are
 * different exercises, so intents are never added up across scenarios. Groups follow `scenarioKey`
 * (the scenario the ledger names), labelled with its id and title, in label order.
 */
export function classSummaryByScenario(
	summaries: readonly GradeSummary[]
): { key: string; label: string; summary: ClassSummary }[] {
	const groups = new Map<string, { label: string; members: GradeSummary[] }>();
	for (const summary of summaries) {
		const group = groups.get(summary.scenarioKey) ?? { label: summary.scenarioLabel, members: [] };
		group.members.push(summary);
		groups.set(summary.scenarioKey, group);
	}
	return [...groups]
		.map(([key, group]) => ({ key, label: group.label, summary: classSummary(group.members) }))
		.sort((left, right) => left.label.localeCompare(right.label));
}

export interface CompareSide {
	name: string;
	/** verified / NOT verified: the first row a grader reads. */
	verdict: string;
	/** verify's first failure, or null. */
	firstFailure: string | null;
	stepsPassed: number[];
	files: string[];
	blocks: Record<string, number>;
	criteria: Record<string, string>;
}

/** Two exports side by side; null when they are not of the same scenario (`scenarioKey`). */
export function compareExports(
	left: GradeSummary,
	right: GradeSummary
): {
	left: CompareSide;
	right: CompareSide;
	codes: string[];
	intents: string[];
	files: string[];
} | null {
	if (left.scenarioKey !== right.scenarioKey) return null;
	const side = (summary: GradeSummary): CompareSide => ({
		name: summary.name,
		verdict: summary.verified ? 'verified' : 'NOT verified',
		firstFailure: summary.firstFailure,
		stepsPassed: summary.stepsPassed ?? [],
		files: [...new Set(allIntents(summary).flatMap((intent) => intent.files_touched))].sort(),
		blocks: blocksByCode(summary),
		criteria: Object.fromEntries(
			summary.criteria.map((result) => [result.intent_id, result.outcome])
		)
	});
	const leftSide = side(left);
	const rightSide = side(right);
	return {
		left: leftSide,
		right: rightSide,
		codes: [...new Set([...Object.keys(leftSide.blocks), ...Object.keys(rightSide.blocks)])].sort(),
		intents: [
			...new Set([...Object.keys(leftSide.criteria), ...Object.keys(rightSide.criteria)])
		].sort(),
		files: [...new Set([...leftSide.files, ...rightSide.files])].sort()
	};
}
