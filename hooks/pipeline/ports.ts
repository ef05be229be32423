import type { ApprovalRequest } from './decision.js';
import type { LedgerEvent, LedgerEventDraft } from '../ledger/ledger-event.js';

/** Side effects reach hooks/ only through these ports, so the core runs unchanged in browser, Worker and Node. */

export interface Clock {
	/** RFC 3339 UTC timestamp, e.g. `2026-11-21T12:00:00.000Z`. */
	nowIso(): string;
	/** Monotonic milliseconds, for timeouts and measurements. */
	nowMs(): number;
}

export interface Scheduler {
	/** Resolves after `ms`; hooks/ may not touch timers directly. */
	delay(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface IdSource {
	uuid(): string;
}

export interface ApprovalPrompt extends ApprovalRequest {
	sessionId: string;
	tool: string;
	toolCallId: string;
	input: unknown;
	/** For file changes: the content before and after, so the human sees a diff. */
	preview?: { path: string; before: string | null; after: string | null }[];
	/** For commands: the command, its folder and why it was classified as it was. */
	command?: {
		command: string;
		cwd: string;
		classification: string;
		reasons: string[];
		/** Workspace paths the command visibly writes (redirects, tee, cp/mv targets, …). */
		writes?: string[];
		/** It may write paths the preview cannot name (see CommandClassification.writesUnknown). */
		writesUnknown?: boolean;
		/** The active intent's owned scope: what the command's transaction will keep. */
		scope?: string[];
	};
}

export interface ApprovalAnswer {
	approved: boolean;
	/** Sent back to the model in the `user_rejected` ToolError. */
	reason?: string;
	/** `intent`: approve every further ask for this intent in this session. */
	remember?: 'once' | 'intent';
}

export interface ApprovalPort {
	request(prompt: ApprovalPrompt): Promise<ApprovalAnswer>;
}

export interface LedgerPort {
	/** Seals (seq, prev_hash, hash) and stores the events in order, atomically. */
	append(drafts: LedgerEventDraft[]): Promise<LedgerEvent[]>;
	/** All events so far, in order. */
	events(): Promise<readonly LedgerEvent[]>;
}
