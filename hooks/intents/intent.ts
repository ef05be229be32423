/** The typed view of one entry of `.orchestration/active_intents.yaml`. */
export const intentStatuses = ['DRAFT', 'IN_PROGRESS', 'BLOCKED', 'COMPLETED'] as const;
export type IntentStatus = (typeof intentStatuses)[number];

export interface RunnableCriterion {
	description: string;
	run: string;
}

export type AcceptanceCriterion = string | RunnableCriterion;

export interface Intent {
	id: string;
	name: string;
	status: IntentStatus;
	owned_scope: string[];
	constraints: string[];
	acceptance_criteria: AcceptanceCriterion[];
	/** When true, several sessions may hold the intent at once. */
	parallel: boolean;
	/** Fields the instructor wrote that we do not interpret; kept so nothing is lost. */
	extra: Record<string, unknown>;
}

export interface IntentsDocument {
	intents: Intent[];
	/** Top-level keys other than `active_intents`, kept verbatim. */
	extra: Record<string, unknown>;
}
