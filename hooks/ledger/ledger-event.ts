import type { AgentTraceRecord, UnsealedTraceRecord } from './agent-trace-record.js';
import type { ToolErrorCode } from '../errors/tool-error.js';
import type { ReceiptLogEntry } from '../witness/class-log-leaf.js';

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
	/**
	 * A shell command created or removed a folder: governed and recorded like a file change (files
	 * have trace records; a folder has no content to hash). `tool_call_id` is null for a terminal.
	 */
	| (EventBase & {
			type: 'folder-change';
			tool: string;
			tool_call_id: string | null;
			path: string;
			change: 'created' | 'deleted';
			contributor: 'ai' | 'human';
			intent_id?: string | null;
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
	/**
	 * The system (never an agent tool) rewrote a governance file, e.g. `active_intents.yaml` after an
	 * approved scope expansion or a completion: every version is in the ledger, so verify can check
	 * the exported file against the last one (a scope widened afterwards fails).
	 */
	| (EventBase & {
			type: 'governance-file-write';
			path: string;
			file_hash: string;
			content: string;
	  })
	/**
	 * The scenario's `.orchestration/hooks.yaml` was loaded or changed: which policy governs the
	 * calls after it (`policy_hash` null when there is none; `ok` false when it is broken and failing closed).
	 */
	| (EventBase & {
			type: 'hook-policy-load';
			path: string;
			/** `sha256:<hex>` of the file's text (named apart from the event's own chain `hash`). */
			policy_hash: string | null;
			ok: boolean;
			rules: number;
			errors?: string[];
			by: 'workspace' | 'human';
	  })
	/**
	 * Which scenario this workspace is (issue 28): recorded when the workspace is loaded, once per
	 * distinct identity, so an export says which exercise it belongs to and a grader's rubric
	 * applies only to its own scenario's exports. `source`: where it came from (`built-in`, a URL,
	 * `share:…`, `authored:…`); `content_hash`: `sha256:` of manifest, demo and files together.
	 */
	| (EventBase & {
			type: 'scenario-load';
			scenario_id: string;
			title: string;
			source: string;
			manifest_hash: string;
			content_hash: string;
	  })
	/**
	 * A step of a scenario taught in steps was checked (issue 28: steps are evidence): its number
	 * (from 1), title, the intents whose criteria were run, and whether every one passed.
	 */
	| (EventBase & {
			type: 'step-check';
			step: number;
			title: string;
			intents: string[];
			passed: boolean;
	  })
	/**
	 * The starting workspace: every file's `sha256:` hash (`.orchestration/` and `.git/` included),
	 * so verify can tell recorded from unrecorded changes. `links`: symbolic links (path → target),
	 * never followed. `texts`: the starting text of the `.orchestration/` files that derived files
	 * grow from (`AGENT.md`), so verify can recompute them; absent in ledgers older than that.
	 */
	| (EventBase & {
			type: 'workspace-snapshot';
			files: Record<string, string>;
			links?: Record<string, string>;
			texts?: Record<string, string>;
			/**
			 * Class mode: the birth certificate the class server signed when it issued this ledger
			 * (before its first event was written), so the history is bound to that ledger, learner
			 * and time from its first event on; absent for a ledger born outside a class.
			 */
			class_ledger?: ClassLedgerBirth;
	  })
	/**
	 * One entry of the conversation (issue 31): what the learner said, what the model said, a tool
	 * call as the model sent it and its result as the model received it. Built only by
	 * `conversation-entry.ts` (secrets redacted, bodies over the size limit cut and named by hash).
	 */
	| (EventBase & ConversationEntryFields & { type: 'conversation-entry' })
	/**
	 * The class server's signed receipt for this ledger's head at `receipt.seq` (issue 13): Ed25519
	 * over the canonical JSON of `receipt`, checked by `threadline verify --witness-key`.
	 */
	| (EventBase & {
			type: 'witness-receipt';
			receipt: WitnessReceipt;
			signature: string;
			/**
			 * The learner's browser as a witness of the class log (issue 33): the proof, fetched from
			 * the server and checked before this event was written, that this receipt's checkpoint
			 * extends the previous one the browser saw (`from` and `to` are tree sizes; base64 hashes).
			 */
			log_consistency?: { from: number; to: number; hashes: string[] };
	  })
	/**
	 * The class server showed this learner's browser a class log that contradicts one it showed
	 * before (issue 33): a checkpoint whose tree does not extend an earlier checkpoint's — the
	 * server rewrote or forked its log. Both signed checkpoints are kept as evidence; the learner's
	 * own events are untouched.
	 */
	| (EventBase & {
			type: 'witness-fork';
			/** The earlier checkpoint (signed note) and the later one that does not extend it. */
			earlier: string;
			later: string;
			/** What failed, in words. */
			problem: string;
	  });

export type LedgerEventType = LedgerEventBody['type'];

/**
 * What the class server signs for a head it stored: the ledger's head and when, with the
 * identity the ledger was bound to at its first append (its learner, its seq 1, its scenario),
 * so an export whose receipts were moved to another history or learner is caught offline.
 */
export interface WitnessReceipt {
	ledger: string;
	/** The learner id the ledger belongs to, and their display name (absent in older receipts). */
	learner?: string;
	learner_name?: string;
	/** The hash of the ledger's seq 1 (absent for ledgers stored before ledgers were bound). */
	genesis_hash?: string;
	scenario?: string;
	seq: number;
	head_hash: string;
	received_at: string;
	/**
	 * The head event's place in the class log (issue 33; absent when the append stored nothing
	 * new, or in receipts from before the log): its leaf index, the signed checkpoint of the tree
	 * right after it, and its inclusion proof there (hooks/witness/class-log-leaf.ts).
	 */
	log?: ReceiptLogEntry;
}

/** Who spoke: the learner (`user`), the model (`assistant`), or a tool's result (`tool`). */
export type ConversationRole = 'user' | 'assistant' | 'tool';

/** A body cut to the size limit: its full size in UTF-8 bytes and the hash of the whole. */
export interface ConversationCut {
	bytes: number;
	sha256: string;
}

/** The fields of a `conversation-entry` event (see hooks/ledger/conversation-entry.ts). */
export interface ConversationEntryFields {
	role: ConversationRole;
	/** When it was said (RFC 3339). */
	at: string;
	/** The learner's or the model's text (user and assistant). */
	text?: string;
	/** A tool call as the model sent it (assistant). */
	tool_call?: { id: string; name: string; input: unknown };
	/** A tool's result as the model received it (tool): `output` when ok, `error` otherwise. */
	tool_result?: { id: string; ok: boolean; output?: unknown; error?: unknown };
	/** `provider/model` of the turn. */
	model?: string;
	/** Token usage, when the provider reports it. */
	usage?: { input_tokens?: number; output_tokens?: number; total_tokens?: number };
	/** Bodies over the limit: what was cut (the stored value is its start). */
	cut?: {
		text?: ConversationCut;
		input?: ConversationCut;
		output?: ConversationCut;
		error?: ConversationCut;
	};
}

/** What the class server signs when it issues a ledger (`POST /api/class/ledgers`). */
export interface ClassLedgerCertificate {
	kind: 'threadline-ledger-birth';
	class: string;
	ledger: string;
	learner: string;
	learner_name: string;
	scenario?: string;
	issued_at: string;
}

/** A certificate with the class key's Ed25519 signature over its canonical JSON (base64). */
export interface ClassLedgerBirth {
	certificate: ClassLedgerCertificate;
	signature: string;
}

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
