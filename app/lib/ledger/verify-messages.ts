import type { Intent } from '../../../hooks/intents/intent.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';
import type { VerifyReport } from '../../../hooks/ledger/verify.js';

/** What the verify Worker is asked: exported jsonl (as bytes), or the stored events to export first. */
export type VerifyRequest =
	| { kind: 'jsonl'; audit: Uint8Array; trace: Uint8Array; files?: Map<string, Uint8Array> }
	| {
			/** The stored events, read by the Worker itself (nothing is copied across): seq 1..upToSeq. */
			kind: 'database';
			name: string;
			store: string;
			upToSeq: number;
	  }
	| {
			kind: 'events';
			events: readonly LedgerEvent[];
			activeIntentsYaml: string;
			intents: Intent[];
			files?: Map<string, Uint8Array>;
	  };

/** What it answers: progress (audit records checked of the total), then the report or an error. */
export type VerifyResponse =
	| { kind: 'progress'; checked: number; total: number }
	| { kind: 'done'; report: VerifyReport }
	| { kind: 'failed'; message: string };

export interface VerifyProgress {
	checked: number;
	total: number;
}
