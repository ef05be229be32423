import type { AgentTraceRecord, UnsealedTraceRecord } from './agent-trace-record.js';
import { canonicalJson } from './canonical-json.js';
import { genesisHash, type LedgerEvent, type LedgerEventDraft } from './ledger-event.js';
import { contentHash } from '../hashing/sha256.js';
import { loadSyncContentHasher } from '../hashing/sync-sha256.js';
import type { Clock } from '../pipeline/ports.js';

export interface LedgerChainOptions {
	clock: Clock;
	/** The last stored event, so a store can resume its chain after a reload. */
	lastEvent?: LedgerEvent | null;
	/** The last stored trace record (the trace of the last `mutation-record` event). */
	lastTrace?: AgentTraceRecord | null;
}

/** What a store does with a sealed batch before the chain moves on; a throw undoes the batch. */
export type PersistSealed = (events: LedgerEvent[]) => void | Promise<void>;

interface ChainHead {
	seq: number;
	hash: string;
}

/**
 * Seals drafts into the two hash chains (audit events, and the trace records inside
 * `mutation-record` events). Calls are serialised internally, so concurrent callers still get
 * consecutive `seq`s and correct links.
 */
export class LedgerChain {
	readonly #clock: Clock;
	#audit: ChainHead;
	#trace: ChainHead;
	/** Resolves when the previous batch is done; the next batch waits on it. */
	#queue: Promise<unknown> = Promise.resolve();

	constructor(options: LedgerChainOptions) {
		this.#clock = options.clock;
		this.#audit = options.lastEvent
			? { seq: options.lastEvent.seq, hash: options.lastEvent.hash }
			: { seq: 0, hash: genesisHash };
		const lastTraceLinks = options.lastTrace?.metadata['dev.threadline'];
		this.#trace = lastTraceLinks
			? { seq: lastTraceLinks.seq, hash: lastTraceLinks.hash }
			: { seq: 0, hash: genesisHash };
	}

	/** Resumes after the given stored events (in order). */
	static fromEvents(clock: Clock, events: readonly LedgerEvent[]): LedgerChain {
		let lastTrace: AgentTraceRecord | null = null;
		for (let position = events.length - 1; position >= 0 && !lastTrace; position--) {
			const event = events[position];
			if (event?.type === 'mutation-record') lastTrace = event.trace;
		}
		return new LedgerChain({ clock, lastEvent: events.at(-1) ?? null, lastTrace });
	}

	/** seq and hash of the last sealed event (0 and the genesis hash when empty). */
	get auditHead(): Readonly<ChainHead> {
		return { ...this.#audit };
	}

	/** seq and hash of the last sealed trace record. */
	get traceHead(): Readonly<ChainHead> {
		return { ...this.#trace };
	}

	async seal(draft: LedgerEventDraft): Promise<LedgerEvent> {
		const [event] = await this.sealAll([draft]);
		return event as LedgerEvent;
	}

	/**
	 * Seals the drafts as one consecutive run. When a draft cannot be sealed or `persist` throws,
	 * nothing of the batch enters the chain and the error is rethrown.
	 */
	sealAll(drafts: readonly LedgerEventDraft[], persist?: PersistSealed): Promise<LedgerEvent[]> {
		const run = this.#queue.then(() => this.#sealNow(drafts, persist));
		// A failed batch must not block the batches queued behind it.
		this.#queue = run.catch(() => undefined);
		return run;
	}

	async #sealNow(
		drafts: readonly LedgerEventDraft[],
		persist: PersistSealed | undefined
	): Promise<LedgerEvent[]> {
		let audit = this.#audit;
		let trace = this.#trace;
		const sealed: LedgerEvent[] = [];
		// A large batch (a checkpoint restore, a command that touched many files) hashes with the
		// synchronous wasm SHA-256: the same digest, without one awaited Web Crypto call per link.
		const hash: (text: string) => Promise<string> | string =
			drafts.length > largeBatch ? await loadSyncContentHasher() : contentHash;
		for (const draft of drafts) {
			let body: Record<string, unknown> = { ...draft };
			if (draft.type === 'mutation-record') {
				const record = await sealTraceRecord(draft.trace, trace, hash);
				trace = {
					seq: record.metadata['dev.threadline'].seq,
					hash: record.metadata['dev.threadline'].hash
				};
				body = { ...body, trace: record };
			}
			delete body.hash;
			body.seq = audit.seq + 1;
			body.timestamp = this.#clock.nowIso();
			body.prev_hash = audit.hash;
			// Storing the parsed canonical text means the event in memory is exactly what the export
			// writes and what verify re-reads (no undefined members, no aliasing with the draft).
			const text = canonicalJson(body);
			const eventHash = await hash(body.prev_hash + text);
			const event = withMemberInOrder(JSON.parse(text) as object, 'hash', eventHash) as LedgerEvent;
			sealed.push(event);
			audit = { seq: event.seq, hash: eventHash };
		}
		if (persist) await persist(sealed);
		this.#audit = audit;
		this.#trace = trace;
		return sealed;
	}
}

/** Batches larger than this are hashed with the synchronous hasher. */
const largeBatch = 32;

async function sealTraceRecord(
	unsealed: UnsealedTraceRecord,
	previous: ChainHead,
	hashText: (text: string) => Promise<string> | string
): Promise<AgentTraceRecord> {
	const { hash: _ignoredHash, ...links } = unsealed.metadata['dev.threadline'] as Record<
		string,
		unknown
	>;
	const withoutHash = {
		...unsealed,
		metadata: {
			...unsealed.metadata,
			'dev.threadline': { ...links, seq: previous.seq + 1, prev_hash: previous.hash }
		}
	};
	const text = canonicalJson(withoutHash);
	const hash = await hashText(previous.hash + text);
	const record = JSON.parse(text) as AgentTraceRecord;
	record.metadata['dev.threadline'] = withMemberInOrder(
		record.metadata['dev.threadline'],
		'hash',
		hash
	) as AgentTraceRecord['metadata']['dev.threadline'];
	return record;
}

/**
 * A copy of `object` (whose keys are in canonical order) with `name` added where canonical JSON
 * sorts it, so a sealed event's keys stay in canonical order and canonicalJson can write it with
 * one JSON.stringify (export, verify, stored-chain checks).
 */
function withMemberInOrder(object: object, name: string, value: unknown): object {
	const ordered: Record<string, unknown> = {};
	let placed = false;
	for (const [key, member] of Object.entries(object)) {
		if (!placed && name < key) {
			ordered[name] = value;
			placed = true;
		}
		if (key !== name) ordered[key] = member;
	}
	if (!placed) ordered[name] = value;
	return ordered;
}

/** Recomputes an audit event's hash: sha256(prev_hash + canonical JSON of the event without `hash`). */
export async function hashAuditEvent(
	event: Omit<LedgerEvent, 'hash'> & { hash?: unknown }
): Promise<string> {
	const { hash: _ignoredHash, ...body } = event;
	return contentHash(String(body.prev_hash) + canonicalJson(body));
}

/**
 * Recomputes a trace record's hash: sha256(prev_hash + canonical JSON of the record with
 * `metadata['dev.threadline'].hash` removed).
 */
export async function hashTraceRecord(record: AgentTraceRecord): Promise<string> {
	const { hash: _ignoredHash, ...links } = record.metadata['dev.threadline'];
	const withoutHash = {
		...record,
		metadata: { ...record.metadata, 'dev.threadline': links }
	};
	return contentHash(links.prev_hash + canonicalJson(withoutHash));
}
