import type { Intent } from '../../../hooks/intents/intent.js';
import type { LedgerEvent } from '../../../hooks/ledger/ledger-event.js';

/** Where the export Worker finds the events: in the page's database (nothing copied), or given. */
export type StoredEventsSource =
	| { kind: 'database'; name: string; store: string; upToSeq: number }
	| { kind: 'events'; events: readonly LedgerEvent[] };

export interface ExportRequest {
	events: StoredEventsSource;
	activeIntentsYaml: string;
	intents: Intent[];
	files: Map<string, Uint8Array>;
	folder?: string;
	secrets?: readonly string[];
}

export type ExportResponse =
	| { kind: 'progress'; done: number; total: number }
	| { kind: 'done'; zip: Uint8Array }
	| { kind: 'failed'; message: string };
