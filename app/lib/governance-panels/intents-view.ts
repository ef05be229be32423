/**
 * The intents panel's logic: one card per intent (status, owners, scope, constraints, criteria,
 * protection, who may select it by hand) and the YAML editing rules (problems of the draft, when
 * Save is allowed, what to do when the file changes on disk while someone edits it).
 */

import type { IntentStatus } from '../../../hooks/intents/intent.js';
import {
	formatIntentsError,
	parseIntents,
	type IntentsError
} from '../../../hooks/intents/parse-intents.js';
import type { GovernanceState } from '../../../hooks/pipeline/governance-state.js';
import type { SessionName } from './session-name.js';

/** The parts of GovernanceState the panel reads. */
export type IntentsSource = Pick<
	GovernanceState,
	'intents' | 'locks' | 'protectedIntentIds' | 'sessions'
>;

export const intentStatusLabels: Record<IntentStatus, string> = {
	DRAFT: 'Draft',
	IN_PROGRESS: 'In progress',
	BLOCKED: 'Blocked',
	COMPLETED: 'Completed'
};

export interface CriterionView {
	description: string;
	/** The command that checks it, for runnable criteria. */
	command: string | null;
}

/** "Select for <session>" on one intent. */
export interface SelectChoice {
	sessionId: string;
	sessionName: string;
	/** This session already holds the intent. */
	holds: boolean;
	/** Why the button is disabled, or null when it is enabled. */
	unavailableReason: string | null;
}

export interface IntentCard {
	id: string;
	name: string;
	status: IntentStatus;
	statusLabel: string;
	/** Sessions holding the intent's lock. */
	owners: SessionName[];
	ownedScope: string[];
	constraints: string[];
	criteria: CriterionView[];
	/** Listed in `.intentignore`: destructive actions under it always ask the human. */
	protected: boolean;
	parallel: boolean;
	/** Only IN_PROGRESS intents can be selected; empty otherwise. */
	choices: SelectChoice[];
}

export function intentCards(source: IntentsSource, sessions: readonly SessionName[]): IntentCard[] {
	const nameOf = sessionNamer(source, sessions);
	return source.intents.intents.map((intent) => {
		const holders = [...(source.locks.get(intent.id) ?? [])];
		const owners = holders.map((id) => ({ id, name: nameOf(id) }));
		const choices =
			intent.status === 'IN_PROGRESS'
				? sessions.map((session): SelectChoice => {
						const holds = holders.includes(session.id);
						const others = owners.filter((owner) => owner.id !== session.id);
						let unavailableReason: string | null = null;
						if (holds) unavailableReason = `${session.name} already holds ${intent.id}.`;
						else if (!intent.parallel && others.length > 0) {
							unavailableReason = `${intent.id} is held by ${others.map((owner) => owner.name).join(', ')}; it is not marked parallel.`;
						}
						return {
							sessionId: session.id,
							sessionName: session.name,
							holds,
							unavailableReason
						};
					})
				: [];
		return {
			id: intent.id,
			name: intent.name,
			status: intent.status,
			statusLabel: intentStatusLabels[intent.status],
			owners,
			ownedScope: [...intent.owned_scope],
			constraints: [...intent.constraints],
			criteria: intent.acceptance_criteria.map((criterion) =>
				typeof criterion === 'string'
					? { description: criterion, command: null }
					: { description: criterion.description, command: criterion.run }
			),
			protected: source.protectedIntentIds.has(intent.id),
			parallel: intent.parallel,
			choices
		};
	});
}

/**
 * Locks on intents the YAML no longer lists (renamed or removed while a session held them): the
 * panel names them so a stale lock is not invisible.
 */
export function orphanLocks(
	source: IntentsSource,
	sessions: readonly SessionName[]
): { intentId: string; owners: SessionName[] }[] {
	const nameOf = sessionNamer(source, sessions);
	const listed = new Set(source.intents.intents.map((intent) => intent.id));
	const orphans: { intentId: string; owners: SessionName[] }[] = [];
	for (const [intentId, holders] of source.locks) {
		if (listed.has(intentId) || holders.size === 0) continue;
		orphans.push({ intentId, owners: [...holders].map((id) => ({ id, name: nameOf(id) })) });
	}
	return orphans;
}

function sessionNamer(
	source: IntentsSource,
	sessions: readonly SessionName[]
): (id: string) => string {
	const names = new Map(sessions.map((session) => [session.id, session.name]));
	return (id) => names.get(id) ?? source.sessions.get(id)?.name ?? id;
}

// ---------------------------------------------------------------------------------------------
// Editing active_intents.yaml.

/** The problems of a draft, with line and column, sorted by position. Empty when it is valid. */
export function draftProblems(yamlText: string): IntentsError[] {
	const parsed = parseIntents(yamlText);
	return parsed.ok ? [] : parsed.errors;
}

/** `3:5 status must be one of …`, as the list and the CLI show it. */
export const describeProblem = formatIntentsError;

export interface SaveState {
	enabled: boolean;
	/** Why Save is disabled, in words; null when enabled. */
	reason: string | null;
}

export function saveState(options: {
	draft: string;
	saved: string;
	problems: readonly IntentsError[];
	saving: boolean;
}): SaveState {
	if (options.saving) return { enabled: false, reason: 'Saving…' };
	const count = options.problems.length;
	if (count > 0) {
		return {
			enabled: false,
			reason: `Fix ${count === 1 ? 'the problem' : `the ${count} problems`} to save; the last valid intents stay in force.`
		};
	}
	if (options.draft === options.saved) return { enabled: false, reason: 'No changes to save.' };
	return { enabled: true, reason: null };
}

export interface YamlDraft {
	/** The file text the draft started from (or was last brought up to date with). */
	base: string;
	draft: string;
	/** The file changed on disk while the draft had edits of its own. */
	outsideChange: boolean;
}

export function startDraft(fileText: string): YamlDraft {
	return { base: fileText, draft: fileText, outsideChange: false };
}

/**
 * The file changed on disk (e.g. an approved scope expansion wrote it) while the editor is open.
 * An untouched draft follows the file; a draft with edits is kept and flagged, so neither side is
 * lost silently.
 */
export function reconcileDraft(current: YamlDraft, fileText: string): YamlDraft {
	if (fileText === current.base) return current;
	if (current.draft === current.base || current.draft === fileText) {
		return { base: fileText, draft: fileText, outsideChange: false };
	}
	return { base: fileText, draft: current.draft, outsideChange: true };
}

/** The 1-based line of an error clamped into the text, so a stale error never points past the end. */
export function clampPosition(
	text: string,
	line: number,
	column: number
): { line: number; column: number } {
	const lines = text.split(/\r\n|\r|\n/);
	const clampedLine = Math.min(Math.max(1, Math.trunc(line) || 1), lines.length);
	const length = (lines[clampedLine - 1] ?? '').length;
	const clampedColumn = Math.min(Math.max(1, Math.trunc(column) || 1), length + 1);
	return { line: clampedLine, column: clampedColumn };
}
