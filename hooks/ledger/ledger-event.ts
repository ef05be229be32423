import type { AgentTraceRecord, UnsealedTraceRecord } from './agent-trace-record.js';
import type { ToolErrorCode } from '../errors/tool-error.js';

/**
 * Every event of the hash-chained ledger. Types are noun-verb. `seq` is 1-based;
 * `hash = sha256(prev_hash + canonicalJson(event without hash))`, written `sha256:<hex>`.
 */
interface EventBase {
	session_id: string;
}

export type LedgerEventBody =
	| (EventBase & { type: 'tool-call-start'; tool: string; tool_call_id: string; input: unknown })
	| (EventBase & {
			type: 'tool-decision';
			tool: string;
			tool_call_id: string;
			decision: 'allow' | 'deny' | 'ask';
			code?: ToolErrorCode;
			hooks: string[];
			message?: string;
			intent_id?: string | null;
	  })
	| (EventBase & {
			type: 'approval-request';
			tool: string;
			tool_call_id: string;
			hooks: string[];
			reasons: string[];
			intent_id?: string | null;
	  })
	| (EventBase & {
			type: 'approval-response';
			tool: string;
			tool_call_id: string;
			approved: boolean;
			reason?: string;
			by: 'human' | 'policy' | 'remembered';
			intent_id?: string | null;
	  })
	| (EventBase & {
			type: 'tool-call-finish';
			tool: string;
			tool_call_id: string;
			ok: boolean;
			code?: ToolErrorCode;
			intent_id?: string | null;
	  })
	| (EventBase & { type: 'mutation-record'; trace: AgentTraceRecord })
	| (EventBase & {
			type: 'change-revert';
			tool: string;
			tool_call_id: string;
			path: string;
			code: ToolErrorCode;
	  })
	| (EventBase & { type: 'intent-select'; intent_id: string; tool_call_id: string | null })
	| (EventBase & { type: 'intent-status-change'; intent_id: string; from: string; to: string })
	| (EventBase & { type: 'scope-expand'; intent_id: string; paths: string[]; reason: string })
	| (EventBase & {
			type: 'lesson-record';
			intent_id: string | null;
			lesson: string;
			category: string;
			source: 'agent' | 'command-failure';
	  })
	| (EventBase & {
			type: 'hook-error';
			hook: string;
			tool: string;
			tool_call_id: string;
			message: string;
	  })
	/** The starting workspace: every file's `sha256:` hash, so verify can tell recorded from unrecorded changes. */
	| (EventBase & { type: 'workspace-snapshot'; files: Record<string, string> })
	/**
	 * The class server's signed receipt for this ledger's head at `receipt.seq` (issue 13): Ed25519
	 * over the canonical JSON of `receipt`, checked by `threadline verify --witness-key`.
	 */
	| (EventBase & {
			type: 'witness-receipt';
			receipt: { ledger: string; seq: number; head_hash: string; received_at: string };
			signature: string;
	  });

export type LedgerEventType = LedgerEventBody['type'];

/** What callers hand the ledger; a mutation carries its trace record before the trace chain seals it. */
export type LedgerEventDraft =
	| Exclude<LedgerEventBody, { type: 'mutation-record' }>
	| (EventBase & { type: 'mutation-record'; trace: UnsealedTraceRecord });

export type LedgerEvent = LedgerEventBody & {
	seq: number;
	timestamp: string;
	prev_hash: string;
	hash: string;
};

export const genesisHash = `sha256:${'0'.repeat(64)}`;
