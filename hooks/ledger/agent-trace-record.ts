/** Agent Trace 0.1.0 record as Threadline writes it (cursor/agent-trace README §6.1). */
export type MutationClass = 'AST_REFACTOR' | 'INTENT_EVOLUTION';
export const mutationClasses: readonly MutationClass[] = ['AST_REFACTOR', 'INTENT_EVOLUTION'];

export interface TraceContributor {
	type: 'ai' | 'human' | 'mixed' | 'unknown';
	model_id?: string;
}

export interface TraceRange {
	start_line: number;
	end_line: number;
	/** `sha256:<64 hex>` of the range's lines joined with LF. */
	content_hash: string;
}

export interface TraceRelated {
	type: string;
	url: string;
	/** The intent id, kept for TRP1 graders who read `value`. */
	value?: string;
}

export interface TraceConversation {
	url: string;
	contributor: TraceContributor;
	ranges: TraceRange[];
	related: TraceRelated[];
}

export interface TraceFile {
	path: string;
	conversations: TraceConversation[];
}

export interface ThreadlineTraceMetadata {
	intent_id: string | null;
	/** The class computed from the change itself. */
	mutation_class: MutationClass;
	/** The class the agent declared; `null` for humans and shell commands. */
	declared_mutation_class: MutationClass | null;
	tool: string;
	tool_call_id: string | null;
	session_id: string;
	/** `write` or `delete`, so graders can tell a deletion (no ranges) from an edit. */
	operation: 'write' | 'delete';
	/** `sha256:<hex>` of the whole file after the change; `null` after a deletion. */
	file_hash: string | null;
	/** Position in the trace chain (1-based) and its links. */
	seq: number;
	prev_hash: string;
	hash: string;
}

export interface AgentTraceRecord {
	version: '0.1.0';
	id: string;
	timestamp: string;
	tool: { name: 'threadline'; version: string };
	files: TraceFile[];
	vcs?: { type: 'git' | 'jj' | 'hg' | 'svn'; revision: string };
	metadata: { 'dev.threadline': ThreadlineTraceMetadata } & Record<string, unknown>;
}

/** A record before the ledger seals it into the trace chain. */
export type UnsealedTraceRecord = Omit<AgentTraceRecord, 'metadata'> & {
	metadata: { 'dev.threadline': Omit<ThreadlineTraceMetadata, 'seq' | 'prev_hash' | 'hash'> };
};
