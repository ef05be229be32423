import type { LedgerEvent, LedgerEventDraft } from '../../../hooks/ledger/ledger-event.js';
import type { LedgerChange } from '../ledger/indexeddb-ledger.js';
import { forkedMessage, witnessClassLog } from './class-log-witness.js';

/** What the witness needs of the ledger (IndexedDbLedger has it). */
export interface WitnessLedgerPort {
	readonly writable: boolean;
	/** Resolves, never rejects, once `eventsSince(0)` holds every event (a large ledger reads its history last). */
	whenHistoryLoaded(): Promise<void>;
	eventsSince(seq: number): readonly LedgerEvent[];
	append(drafts: LedgerEventDraft[]): Promise<LedgerEvent[]>;
	state<Value = unknown>(key: string): Value | undefined;
	setState(key: string, value: unknown): void;
	subscribe(listener: (change: LedgerChange) => void): () => void;
}

export type WitnessStatus =
	| { kind: 'idle' }
	| { kind: 'sending' }
	| { kind: 'witnessed'; seq: number; at: string }
	/**
	 * The class server's log contradicted what it showed before (class-log-witness.ts): recorded
	 * as a `witness-fork` event; stays shown, with `message`, for the rest of the session.
	 */
	| { kind: 'forked'; message: string }
	/** Not witnessed since `since` (the last receipt's time, or the first unsent event's). */
	| {
			kind: 'behind';
			since: string;
			/** full: a storage quota of the class server (its sentence in `message`); retried rarely. */
			reason: 'offline' | 'refused' | 'unauthorized' | 'full';
			message: string;
	  };

export interface LedgerWitnessOptions {
	ledger: WitnessLedgerPort;
	token: string;
	fetch: typeof fetch;
	/** Runs `work` after `delayMs`; returns a cancel. */
	schedule: (work: () => void, delayMs: number) => () => void;
	onStatus: (status: WitnessStatus) => void;
	/** Makes a ledger id (crypto.randomUUID in the browser). */
	newId: () => string;
	/** The exercise this ledger belongs to, named to the server at the ledger's first append. */
	scenario?: string;
	base?: string;
	/** What the server accepts in one append (`limits` of GET /api/class/key); a 413 teaches it too. */
	limits?: { maxBodyBytes?: number; maxEventsPerRequest?: number };
}

const ledgerIdKey = 'class-witness:ledger-id';
/** Events per request and a soft size cap per request (the server refuses over 4 MiB). */
const maxEventsPerRequest = 500;
const maxBytesPerRequest = 1_000_000;
const firstRetryMs = 1000;
const lastRetryMs = 60_000;
/** A storage quota is lifted by the instructor, not by time: ask again after ten minutes. */
const quotaRetryMs = 600_000;
const quotaErrors = new Set(['learner_storage_full', 'class_storage_full', 'learner_ledger_quota']);

/**
 * Sends each batch of new ledger events to the class server and stores its signed receipt as a
 * `witness-receipt` event. Never blocks the IDE: when the server is down, refuses, or the learner
 * is offline, the status says "not witnessed since …" and the witness retries with backoff (and
 * at the next commit), resending from the last receipt so nothing is skipped or sent twice.
 * A batch of receipts alone is not sent (it would earn a receipt for a receipt, forever); they
 * go with the next real events.
 */
export class LedgerWitness {
	readonly #options: LedgerWitnessOptions;
	#stop: () => void;
	#running: Promise<void> | null = null;
	#again = false;
	#retryMs = firstRetryMs;
	#cancelRetry: (() => void) | null = null;
	#disposed = false;
	#lastReceiptAt: string | null = null;
	/** The largest body the server takes (advertised, or learned from its 413s). */
	#maxBodyBytes: number;
	/** After a quota refusal: nothing is sent (commits included) until the long retry. */
	#held = false;
	/** The server's log contradicted itself this session: every later status shows it. */
	#forked = false;
	/** The last receipt read, once the ledger holds its whole history (never before). */
	readonly #historyRead: Promise<void>;

	constructor(options: LedgerWitnessOptions) {
		this.#options = options;
		this.#maxBodyBytes = options.limits?.maxBodyBytes ?? Number.POSITIVE_INFINITY;
		this.#stop = options.ledger.subscribe(() => void this.sync());
		this.#historyRead = options.ledger.whenHistoryLoaded().then(() => {
			// A history that could not be read is not witnessed either (nothing is appended to it).
			if (this.#disposed || !options.ledger.writable) return;
			const last = this.#lastReceipt();
			if (last) {
				this.#lastReceiptAt = last.receipt.received_at;
				options.onStatus({
					kind: 'witnessed',
					seq: last.receipt.seq,
					at: last.receipt.received_at
				});
			}
		});
	}

	/** The server's id of this ledger: made at the first send, forgotten by a reset (a new history). */
	get ledgerId(): string | null {
		return this.#options.ledger.state<string>(ledgerIdKey) ?? null;
	}

	dispose(): void {
		this.#disposed = true;
		this.#stop();
		this.#cancelRetry?.();
	}

	/** Sends what the server has not receipted yet; one run at a time, coalescing calls. */
	sync(): Promise<void> {
		if (this.#disposed) return Promise.resolve();
		if (this.#running) {
			this.#again = true;
			return this.#running;
		}
		this.#running = (async () => {
			do {
				this.#again = false;
				await this.#syncOnce();
			} while (this.#again && !this.#disposed);
		})().finally(() => {
			this.#running = null;
		});
		return this.#running;
	}

	#lastReceipt(): Extract<LedgerEvent, { type: 'witness-receipt' }> | null {
		const events = this.#options.ledger.eventsSince(0);
		for (let index = events.length - 1; index >= 0; index--) {
			const event = events[index];
			if (event?.type === 'witness-receipt' && event.receipt.ledger === this.ledgerId) return event;
		}
		return null;
	}

	async #syncOnce(): Promise<void> {
		const { ledger } = this.#options;
		// A reader tab cannot store receipts: the writer tab witnesses.
		if (!ledger.writable || this.#held) return;
		await this.#historyRead;
		if (!ledger.writable) return;
		const witnessedSeq = this.#lastReceipt()?.receipt.seq ?? 0;
		const pending = ledger.eventsSince(witnessedSeq);
		if (!pending.some((event) => event.type !== 'witness-receipt')) return;
		let ledgerId = this.ledgerId;
		if (!ledgerId) {
			// A history born in the class carries the ledger the server issued for it.
			ledgerId = bornAs(ledger.eventsSince(0)[0]) ?? this.#options.newId();
			ledger.setState(ledgerIdKey, ledgerId);
		}
		this.#setStatus({ kind: 'sending' });
		let receiptDraft: LedgerEventDraft | null = null;
		for (let start = 0; start < pending.length;) {
			const { batch, bytes } = takeBatch(
				pending,
				start,
				Math.min(maxBytesPerRequest, this.#maxBodyBytes),
				Math.min(maxEventsPerRequest, this.#options.limits?.maxEventsPerRequest ?? Infinity),
				this.#options.scenario
			);
			start += batch.length;
			if (bytes > this.#maxBodyBytes) {
				// One event larger than the server takes in a request: it can never be sent.
				this.#behind(oversizeEvent(batch[0], bytes, this.#maxBodyBytes), pending[0]?.timestamp);
				return;
			}
			const outcome = await this.#send(ledgerId, batch);
			if (outcome.kind === 'too-large' && batch.length > 1) {
				// The server (or a proxy before it) takes less than this: smaller batches, at once.
				const limit = outcome.maxBodyBytes ?? bytes;
				this.#maxBodyBytes = Math.min(
					this.#maxBodyBytes,
					limit < bytes ? limit : Math.floor(bytes / 2)
				);
				this.#again = true;
				return;
			}
			if (outcome.kind === 'too-large') {
				this.#maxBodyBytes = Math.min(this.#maxBodyBytes, outcome.maxBodyBytes ?? bytes - 1);
				this.#behind(oversizeEvent(batch[0], bytes, this.#maxBodyBytes), pending[0]?.timestamp);
				return;
			}
			if (outcome.kind === 'held') {
				// The server already holds this history as our ledger (this browser lost its id, e.g. a
				// reload between storing the id and a receipt): continue that one from its head.
				ledger.setState(ledgerIdKey, outcome.ledger);
				this.#again = true;
				return;
			}
			if (outcome.kind !== 'receipt') {
				this.#behind(outcome, pending[0]?.timestamp);
				return;
			}
			receiptDraft = {
				type: 'witness-receipt',
				session_id: 'class-witness',
				receipt: outcome.receipt,
				signature: outcome.signature
			};
		}
		if (!receiptDraft || receiptDraft.type !== 'witness-receipt') return;
		this.#retryMs = firstRetryMs;
		const verdict = await witnessClassLog(
			receiptDraft,
			this.#lastReceipt()?.receipt.log,
			(from, to) => this.#fetchConsistency(from, to)
		);
		const drafts: LedgerEventDraft[] = [
			verdict.kind === 'ok' && verdict.consistency
				? { ...receiptDraft, log_consistency: verdict.consistency }
				: receiptDraft
		];
		if (verdict.kind === 'fork') {
			drafts.push({
				type: 'witness-fork',
				session_id: 'class-witness',
				earlier: verdict.earlier,
				later: verdict.later,
				problem: verdict.problem
			});
			this.#forked = true;
		}
		const [stored] = await ledger.append(drafts);
		this.#lastReceiptAt = receiptDraft.receipt.received_at;
		if (this.#forked) {
			this.#setStatus({ kind: 'forked', message: forkedMessage });
		} else if (stored) {
			this.#setStatus({
				kind: 'witnessed',
				seq: receiptDraft.receipt.seq,
				at: receiptDraft.receipt.received_at
			});
		}
	}

	#setStatus(status: WitnessStatus): void {
		this.#options.onStatus(this.#forked ? { kind: 'forked', message: forkedMessage } : status);
	}

	/** The server's consistency proof between two tree sizes; throws when it cannot answer now. */
	async #fetchConsistency(from: number, to: number): Promise<unknown> {
		const response = await this.#options.fetch(
			`${this.#options.base ?? ''}/api/class/log/proof/consistency?from=${from}&to=${to}`
		);
		// 400: the server says no such proof exists (e.g. its log is smaller than it signed).
		if (!response.ok && response.status !== 400) throw new Error(`answered ${response.status}`);
		return response.json();
	}

	async #send(
		ledgerId: string,
		events: readonly LedgerEvent[]
	): Promise<
		| {
				kind: 'receipt';
				receipt: Extract<LedgerEventDraft, { type: 'witness-receipt' }>['receipt'];
				signature: string;
		  }
		| { kind: 'offline' | 'refused' | 'unauthorized' | 'full'; message: string }
		| { kind: 'too-large'; maxBodyBytes: number | undefined }
		| { kind: 'held'; ledger: string }
	> {
		let response: Response;
		try {
			response = await this.#options.fetch(
				`${this.#options.base ?? ''}/api/class/ledgers/${encodeURIComponent(ledgerId)}/events`,
				{
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						authorization: `Bearer ${this.#options.token}`
					},
					body: JSON.stringify({
						events,
						...(this.#options.scenario ? { scenario: this.#options.scenario } : {})
					})
				}
			);
		} catch {
			return { kind: 'offline', message: 'the class server cannot be reached' };
		}
		const body = (await response.json().catch(() => null)) as {
			receipt?: { ledger: string; seq: number; head_hash: string; received_at: string };
			signature?: string;
			error?: string;
			message?: string;
			max_body_bytes?: unknown;
			code?: string;
			ledger?: string;
		} | null;
		const last = events.at(-1);
		if (response.ok && body?.receipt && typeof body.signature === 'string') {
			// Only a receipt for exactly what was sent counts.
			if (
				body.receipt.ledger === ledgerId &&
				body.receipt.seq === last?.seq &&
				body.receipt.head_hash === last.hash
			) {
				return { kind: 'receipt', receipt: body.receipt, signature: body.signature };
			}
			return {
				kind: 'refused',
				message: 'the class server receipted something else than what was sent'
			};
		}
		if (
			response.status === 409 &&
			body?.code === 'history_held' &&
			typeof body.ledger === 'string' &&
			body.ledger !== ledgerId &&
			/^[A-Za-z0-9_-]{8,100}$/.test(body.ledger)
		) {
			return { kind: 'held', ledger: body.ledger };
		}
		const message = body?.message ?? body?.error ?? `the class server answered ${response.status}`;
		if (response.status === 401 || response.status === 403)
			return { kind: 'unauthorized', message };
		if (response.status === 507 || quotaErrors.has(body?.error ?? ''))
			return { kind: 'full', message };
		if (response.status === 413) {
			const limit = body?.max_body_bytes;
			return {
				kind: 'too-large',
				maxBodyBytes: typeof limit === 'number' && limit > 0 ? limit : undefined
			};
		}
		if (response.status === 409 || response.status === 422) return { kind: 'refused', message };
		return { kind: 'offline', message };
	}

	#behind(
		outcome: { kind: 'offline' | 'refused' | 'unauthorized' | 'full'; message: string },
		firstPendingAt: string | undefined
	): void {
		const since = this.#lastReceiptAt ?? firstPendingAt ?? new Date().toISOString();
		this.#setStatus({
			kind: 'behind',
			since,
			reason: outcome.kind,
			message: outcome.message
		});
		if (outcome.kind === 'full' && !this.#disposed) {
			// Only the instructor lifts a quota: one try every ten minutes, commits send nothing.
			this.#held = true;
			this.#cancelRetry?.();
			this.#cancelRetry = this.#options.schedule(() => {
				this.#cancelRetry = null;
				this.#held = false;
				void this.sync();
			}, quotaRetryMs);
			return;
		}
		// Offline (or rate limited, or a 5xx) heals by itself: retry with backoff. A refusal or a
		// foreign token does not: the next commit tries again, and the grader sees the refusal.
		if (outcome.kind !== 'offline' || this.#disposed) return;
		this.#cancelRetry?.();
		const delay = this.#retryMs;
		this.#retryMs = Math.min(lastRetryMs, this.#retryMs * 2);
		this.#cancelRetry = this.#options.schedule(() => {
			this.#cancelRetry = null;
			void this.sync();
		}, delay);
	}
}

/**
 * The next request's events from `start`: at most `maxEvents`, and a body (`{"events":[…]}`
 * with the scenario, in UTF-8 bytes as the server counts them) of at most `maxBytes` unless
 * its one event alone is larger. `bytes` is the body's size.
 */
function takeBatch(
	events: readonly LedgerEvent[],
	start: number,
	maxBytes: number,
	maxEvents: number,
	scenario: string | undefined
): { batch: LedgerEvent[]; bytes: number } {
	const batch: LedgerEvent[] = [];
	// {"events":[…]} and ,"scenario":"…" around the events, and a comma between two.
	let bytes =
		utf8Length(JSON.stringify({ events: [] })) +
		(scenario ? utf8Length(JSON.stringify({ scenario })) - 1 : 0);
	for (let index = start; index < events.length && batch.length < maxEvents; index++) {
		const event = events[index] as LedgerEvent;
		const size = utf8Length(JSON.stringify(event)) + (batch.length > 0 ? 1 : 0);
		if (batch.length > 0 && bytes + size > maxBytes) break;
		batch.push(event);
		bytes += size;
	}
	return { batch, bytes };
}

/** UTF-8 bytes of a string without encoding it (a lone surrogate counts as U+FFFD, 3 bytes). */
function utf8Length(text: string): number {
	let bytes = 0;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x80) bytes += 1;
		else if (code < 0x800) bytes += 2;
		else if (code >= 0xd800 && code < 0xdc00 && index + 1 < text.length) {
			const next = text.charCodeAt(index + 1);
			if (next >= 0xdc00 && next < 0xe000) {
				bytes += 4;
				index++;
			} else bytes += 3;
		} else bytes += 3;
	}
	return bytes;
}

/** The sentence for an event the server can never take in one request. */
function oversizeEvent(
	event: LedgerEvent | undefined,
	bytes: number,
	maxBodyBytes: number
): { kind: 'refused'; message: string } {
	const size = (value: number) =>
		value >= 1024 * 1024
			? `${(value / (1024 * 1024)).toFixed(1)} MiB`
			: `${Math.ceil(value / 1024)} KiB`;
	return {
		kind: 'refused',
		message: `Ledger event ${event?.seq ?? '?'} is ${size(bytes)}, more than the class server accepts in one request (${size(maxBodyBytes)}), so it and the events after it cannot be witnessed: ask your instructor to raise THREADLINE_CLASS_MAX_BODY_BYTES.`
	};
}

/** The ledger id a history's first event was born as (its class birth certificate), or null. */
function bornAs(first: LedgerEvent | undefined): string | null {
	if (first?.type !== 'workspace-snapshot') return null;
	const ledger = first.class_ledger?.certificate.ledger;
	return typeof ledger === 'string' && /^[A-Za-z0-9_-]{8,100}$/.test(ledger) ? ledger : null;
}
