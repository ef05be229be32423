/**
 * One agent conversation's governance state: which intent it holds and which file versions it has
 * seen. Several sessions (e.g. "Architect" and "Builder") share one GovernanceState.
 */
export interface AgentSession {
	id: string;
	/** Shown to people, e.g. "Builder". */
	name: string;
	/** `provider/model`, recorded as the trace contributor's model_id. */
	modelId: string;
	activeIntentId: string | null;
	/** Path → content hash of the version this session last read or wrote (stale-write lock). */
	readBaselines: Map<string, string>;
	/** Intents for which the human chose "Approve all for this intent". */
	approvedIntents: Set<string>;
}

export function createAgentSession(id: string, modelId: string, name = id): AgentSession {
	return {
		id,
		name,
		modelId,
		activeIntentId: null,
		readBaselines: new Map(),
		approvedIntents: new Set()
	};
}
