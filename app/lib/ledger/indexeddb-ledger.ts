import { contentHash } from '../../../hooks/hashing/sha256.js';
import { loadSyncContentHasher } from '../../../hooks/hashing/sync-sha256.js';
import { LedgerChain } from '../../../hooks/ledger/ledger-chain.js';
import type { LedgerEvent, LedgerEventDraft } from '../../../hooks/ledger/ledger-event.js';
import type { Clock, LedgerPort } from '../../../hooks/pipeline/ports.js';
import type { FileChange, SandboxFileSystem } from '../../../hooks/tools/sandbox-ports.js';
import type { QueuedRecord } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { ledgerStoreNames, ledgerStores, type LedgerRecordStore } from './ledger-record-store.js';
import { mutationSides, type MutationSides } from './mutation-sides.js';
import {
	compactionRecords,
	eventRunRecords,
	eventsOfRecords,
	largestRun,
	type StoredRun
} from './event-runs.js';
import {
	checkContinuation,
	checkStoredChain,
	emptyChainHeads,
	headsAfter,
	type ChainHeads,
	type ChainIntegrity
} from './stored-chain-check.js';
import type { StoredEventsSource } from './export-messages.js';
import { readOnlyTabMessage } from './tab-coordination.js';
import { applyWrites, revertWrites } from './ledger-file-writes.js';
import {
	checkpointKey,
	checkpointRecord,
	checkStoredChainOffThread,
	headsAfterMore,
	loadLedger,
	openLedger,
	sameHeads,
	type LoadedLedger
} from './ledger-history-loading.js';

export { checkpointRecord } from './ledger-history-loading.js';

/** What subscribers hear: events appended (here or by another tab), or the whole list replaced. */
export type LedgerChange =
	| { kind: 'appended'; events: readonly LedgerEvent[]; origin: LedgerChangeOrigin }
	| { kind: 'reloaded'; events: readonly LedgerEvent[]; origin: LedgerChangeOrigin };

/** `this-tab`: written here; `other-tab`: found in the database by `refresh`. */
export type LedgerChangeOrigin = 'this-tab' | 'other-tab';

/** The content on one side of a recorded change. */
export interface MutationSide {
	/** `sha256:` hash, or `null` when there was no file on this side. */
	hash: string | null;
	/** The bytes, or `null` when there was no file or they were not kept. */
	content: Uint8Array | null;
}

export interface MutationContents {
	seq: number;
	path: string;
	before: MutationSide;
	after: MutationSide;
	/** False when the ledger does not say what the file held before the change. */
	beforeKnown: boolean;
}

/** Why a write to the ledger was refused; `message` is a sentence for the person. */
export class LedgerWriteRefusedError extends Error {
	override readonly name = 'LedgerWriteRefusedError';

	constructor(
		readonly reason: 'read-only' | 'broken-chain',
		message: string
	) {
		super(message);
	}
}

export interface IndexedDbLedgerOptions {
	/** The workspace's store, opened with `extraStores: ledgerStoreNames`. */
	store: LedgerRecordStore;
	/** Timestamps of sealed events; the system clock by default. */
	clock?: Clock;
	/** False in a tab that may only read (another tab writes this scenario); true by default. */
	writable?: boolean;
	/** What a refused write says in a read-only tab. */
	readOnlyMessage?: string;
	/**
	 * The full check of the stored chain that runs after an open from the checkpoint: the verify
	 * Worker in a browser, the same check on this thread elsewhere.
	 */
	checkFully?: (events: readonly LedgerEvent[]) => Promise<ChainIntegrity>;
}

const systemClock: Clock = {
	nowIso: () => new Date().toISOString(),
	nowMs: () => performance.now()
};

const hashPattern = /^sha256:[0-9a-f]{64}$/;

/** A history read that fails is tried again after these delays before the ledger says so. */
const historyReadRetryDelaysMs = [0, 200, 1_000];

/**
 * The browser's LedgerPort: the hash-chained events, content-addressed file contents and
 * per-scenario state, stored in the workspace's own IndexedDB database so that a file change and
 * its events commit in one transaction (`commit`). Resumes the chain from the stored events after
 * checking them like `threadline verify`; a broken stored chain is reported (`integrity`) and
 * refuses further writes instead of being continued.
 *
 * Every operation that changes the ledger runs one at a time, in call order. Persistence never
 * rejects a write: a storage failure keeps files and events pending together in memory and is
 * reported by the store's `onPersistError`.
 */
export class IndexedDbLedger implements LedgerPort {
	/** The events from `storedFrom` on: all of them once the history is loaded (see open). */
	private stored: LedgerEvent[];
	/** The seq of `stored[0]`: 1, or the first event of the tail read at open until the rest is. */
	private storedFrom: number;
	private readonly historyLoaded: Promise<void>;
	/** Moves on each time the stored ledger is replaced (reset, import, another tab's reset). */
	private generation = 0;
	/**
	 * Why the stored history could not be read or checked in full (null when it was): nothing is
	 * appended until it is, since a chain extended unchecked could hide where it broke. The stored
	 * ledger itself may be fine, so the learner is told to reload, never to reset.
	 */
	private readProblem: string | null = null;
	private chain: LedgerChain | null;
	private chainIntegrity: ChainIntegrity;
	private canWrite: boolean;
	private readOnlyMessage: string;
	private readonly stateValues: Map<string, unknown>;
	private readonly listeners = new Set<(change: LedgerChange) => void>();
	/** Blobs queued in this tab's life: content-addressed, so storing one again is useless. */
	private readonly keptBlobs = new Set<string>();
	private queue: Promise<unknown> = Promise.resolve();
	private notifiedSeq: number;
	/** The heads after the last events checked or sealed here, as stored with them. */
	private checkpoint: ChainHeads;
	private fullCheck: Promise<ChainIntegrity>;
	private readonly checkFully: (events: readonly LedgerEvent[]) => Promise<ChainIntegrity>;

	private constructor(
		private readonly store: LedgerRecordStore,
		private readonly clock: Clock,
		loaded: LoadedLedger,
		options: {
			writable: boolean;
			readOnlyMessage: string;
			checkFully: (events: readonly LedgerEvent[]) => Promise<ChainIntegrity>;
		}
	) {
		this.stored = loaded.events;
		this.storedFrom = loaded.events[0]?.seq ?? 1;
		this.checkFully = options.checkFully;
		this.chainIntegrity = loaded.integrity;
		// A tail's chain is resumed once the history is in: every write waits for that (exclusive).
		this.chain =
			loaded.integrity.ok && !loaded.tail ? LedgerChain.fromEvents(clock, loaded.events) : null;
		this.stateValues = loaded.state;
		this.canWrite = options.writable;
		this.readOnlyMessage = options.readOnlyMessage;
		this.notifiedSeq = this.lastSeq;
		this.checkpoint = loaded.checkpoint ?? emptyChainHeads;
		if (loaded.integrity.ok) {
			const heads = loaded.tail
				? headsAfterMore(
						this.checkpoint,
						loaded.events.filter((event) => event.seq > this.checkpoint.audit.seq)
					)
				: headsAfter(loaded.events);
			this.checkpoint = heads;
			if (options.writable && loaded.events.length > 0 && !sameHeads(heads, loaded.checkpoint))
				this.queueCheckpoint(heads);
			if (options.writable && !loaded.tail) this.compactStoredRuns(loaded.events, loaded.runs);
		}
		this.historyLoaded = loaded.tail
			? this.exclusive(async () => {
					await this.loadRestOfHistory(options.writable);
				})
			: Promise.resolve();
		this.fullCheck = loaded.fromCheckpoint
			? this.historyLoaded.then(() =>
					this.readProblem !== null
						? { ok: false as const, problem: `the stored ledger ${this.readProblem}` }
						: this.chainIntegrity.ok
							? this.checkInBackground(this.stored, options.checkFully)
							: this.chainIntegrity
				)
			: Promise.resolve(loaded.integrity);
	}

	/** Loads the events and state, checks the stored chain and resumes it. */
	static async open(options: IndexedDbLedgerOptions): Promise<IndexedDbLedger> {
		if (typeof options !== 'object' || options === null || !options.store) {
			throw new TypeError('IndexedDbLedger.open needs the workspace store ({ store })');
		}
		const clock = options.clock ?? systemClock;
		const loaded = await openLedger(options.store);
		return new IndexedDbLedger(options.store, clock, loaded, {
			writable: options.writable ?? true,
			readOnlyMessage: options.readOnlyMessage ?? readOnlyTabMessage,
			checkFully:
				options.checkFully ??
				((events) => checkStoredChainOffThread(options.store, events.at(-1)?.seq ?? 0, events))
		});
	}

	/**
	 * Resolves with the verdict of the whole stored chain. An open from the checkpoint checks the
	 * links of every event and the hashes after the checkpoint at once, and the whole chain here,
	 * in the background: an event edited before the checkpoint breaks the ledger when it is found.
	 */
	whenFullyChecked(): Promise<ChainIntegrity> {
		return this.fullCheck;
	}

	/**
	 * Resolves once every stored event is in memory. A large ledger opens from its last events (the
	 * run of the verified checkpoint on) and reads the rest right after: `events()`, `eventsSince`
	 * before the tail, diffs and every write wait for it. Never rejects: a history whose links do
	 * not hold leaves the ledger broken (`integrity`); one that cannot be read leaves it unwritable
	 * until a refresh or a reload reads it (`historyProblem`).
	 */
	whenHistoryLoaded(): Promise<void> {
		return this.historyLoaded;
	}

	/**
	 * The rest of an open from the tail: reads the whole stored ledger and checks it as an open of
	 * the whole chain would (every link, the hashes from the checkpoint on). The tail read at open
	 * must be part of it; if it is not, and what is stored holds, another tab replaced the ledger
	 * meanwhile and it is taken as a refresh would take it. A read that keeps failing leaves the
	 * ledger unwritable until a refresh or a reload reads it (readProblem).
	 */
	private async loadRestOfHistory(writable: boolean): Promise<LoadedLedger | null> {
		let loaded: LoadedLedger | null = null;
		let failure: unknown = null;
		for (const delayMs of historyReadRetryDelaysMs) {
			if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
			try {
				loaded = await loadLedger(this.store);
				break;
			} catch (error) {
				failure = error;
			}
		}
		const offset = this.storedFrom - 1;
		const read = loaded;
		const sameTail =
			read !== null &&
			this.stored.every((event, position) => read.events[offset + position]?.hash === event.hash);
		// A replaced ledger comes with its own state: read before anything here changes.
		if (loaded && !sameTail && loaded.integrity.ok) {
			try {
				await this.reloadState();
			} catch (error) {
				failure = error;
				loaded = null;
			}
		}
		if (!loaded) {
			// Nothing changed here, so nobody is told (a notice to other tabs would make each re-read).
			this.readProblem = `could not be read (${failure instanceof Error ? failure.message : String(failure)})`;
			return null;
		}
		this.readProblem = null;
		if (!loaded.integrity.ok) {
			// Damage in the history (or in what another tab stored since): shown as a whole open
			// shows it, the events before the first bad one.
			this.stored = loaded.events;
			this.storedFrom = 1;
			this.notifiedSeq = this.lastSeq;
			this.breakChain(loaded.integrity.problem, 'this-tab');
			return loaded;
		}
		if (!sameTail) {
			this.generation++;
			this.stored = loaded.events;
			this.storedFrom = 1;
			this.chainIntegrity = loaded.integrity;
			this.checkpoint = headsAfter(this.stored);
			this.keptBlobs.clear();
			this.chain = LedgerChain.fromEvents(this.clock, this.stored);
			this.notifiedSeq = this.lastSeq;
			this.notify('reloaded', this.stored, 'other-tab');
			return loaded;
		}
		// Events another tab stored since the open are announced by the next refresh, as usual.
		this.stored = loaded.events.slice(0, offset + this.stored.length);
		this.storedFrom = 1;
		this.chain = LedgerChain.fromEvents(this.clock, this.stored);
		const heads = headsAfter(this.stored);
		if (writable && !sameHeads(heads, this.checkpoint)) this.queueCheckpoint(heads);
		this.checkpoint = heads;
		if (writable) this.compactStoredRuns(loaded.events, loaded.runs);
		return loaded;
	}

	/**
	 * After the stored ledger was read again as a whole (a history read that failed at open, or a
	 * ledger another tab replaced): when that read checked the hashes only from the checkpoint on,
	 * the whole chain is checked again in the background, as after an open.
	 */
	private checkAgainAfterReading(loaded: LoadedLedger | null, wasBroken: boolean): void {
		if (!loaded) return;
		if (!loaded.fromCheckpoint || !this.chainIntegrity.ok) {
			// That read checked every hash itself (or found the ledger broken): it is the verdict.
			this.fullCheck = Promise.resolve(this.chainIntegrity);
			return;
		}
		// A verdict of broken is not lifted by a read that checked less: until the whole chain has
		// been checked again, nothing is appended.
		const generation = this.generation;
		if (wasBroken) this.readProblem = 'is being checked again';
		this.fullCheck = this.checkInBackground(this.stored, this.checkFully).then((result) => {
			if (wasBroken && result.ok && generation === this.generation) this.readProblem = null;
			return result;
		});
	}

	private breakChain(problem: string, origin: LedgerChangeOrigin): void {
		this.chainIntegrity = { ok: false, problem };
		this.chain = null;
		this.notify('reloaded', this.stored, origin);
	}

	/** Throws, in words for the person, when the ledger does not hold its whole history. */
	private assertWholeHistory(): void {
		if (this.storedFrom === 1) return;
		throw new Error(
			this.readProblem
				? `The saved ledger's history ${this.readProblem}: reload the page to try again.`
				: `The ledger's events before seq ${this.storedFrom} are still being read (await whenHistoryLoaded() first).`
		);
	}

	private checkInBackground(
		events: readonly LedgerEvent[],
		checkFully: (events: readonly LedgerEvent[]) => Promise<ChainIntegrity>
	): Promise<ChainIntegrity> {
		const snapshot = [...events];
		const generation = this.generation;
		return checkFully(snapshot).then(
			(result) => {
				// A verdict on a ledger since replaced (reset meanwhile) says nothing of this one.
				if (!result.ok && this.chainIntegrity.ok && generation === this.generation) {
					this.chainIntegrity = result;
					this.chain = null;
					this.notify('reloaded', this.stored, 'this-tab');
				}
				return result;
			},
			// A check that could not finish proves nothing: fail closed, but the chain is not known
			// to be broken (a Worker that could not start, a store read that failed), so nothing is
			// appended until a reload checks it again, and the learner is not told to reset.
			(error: unknown) => {
				const problem = `could not be checked (${error instanceof Error ? error.message : String(error)})`;
				// Nothing stored changed: nobody is told (the IDE hears it from whenFullyChecked).
				if (generation === this.generation && this.chainIntegrity.ok) this.readProblem = problem;
				return { ok: false, problem: `the stored ledger ${problem}` };
			}
		);
	}

	/** Whether the stored chain checked out; when not, `problem` names the first broken event. */
	get integrity(): ChainIntegrity {
		return this.chainIntegrity;
	}

	/** Whether this tab may append (it is the writer, the chain is intact and was read in full). */
	get writable(): boolean {
		return this.canWrite && this.chainIntegrity.ok && this.readProblem === null;
	}

	/** Whether this tab is the one that writes this ledger, whatever the state of its chain. */
	get writesHere(): boolean {
		return this.canWrite;
	}

	/**
	 * Why the saved history could not be read or checked in full ("could not be read (…)"), or null.
	 * Nothing is appended until a reload (or a refresh) reads it; the stored ledger may be intact.
	 */
	get historyProblem(): string | null {
		return this.readProblem;
	}

	/** The seq of the last event (0 when empty). */
	get lastSeq(): number {
		return this.stored.at(-1)?.seq ?? 0;
	}

	/** Seals the drafts and stores them (no file writes), atomically. */
	append(drafts: LedgerEventDraft[]): Promise<LedgerEvent[]> {
		return this.commit(null, [], drafts);
	}

	/**
	 * The pipeline's `commit` port: seals the drafts, applies the file writes through `fs` (the
	 * sandbox's, so its replica follows), queues the events and the changed contents, and stores
	 * the files and the events in one transaction. When a write fails, the writes already made are
	 * undone and nothing enters the chain.
	 */
	commit(
		fs: SandboxFileSystem | null,
		writes: readonly FileChange[],
		drafts: readonly LedgerEventDraft[],
		/** A shell transaction's commit: its files join the same stored batch as the events. */
		apply?: () => Promise<void>
	): Promise<LedgerEvent[]> {
		if (!Array.isArray(writes) || !Array.isArray(drafts)) {
			return Promise.reject(new TypeError('commit expects arrays of writes and drafts'));
		}
		if (writes.length > 0 && !fs) {
			return Promise.reject(new TypeError('commit needs the sandbox fs to apply file writes'));
		}
		return this.exclusive(async () => {
			const chain = this.writableChain();
			if (writes.length === 0 && drafts.length === 0 && !apply) return [];
			const sealed = await chain.sealAll(drafts, (events) =>
				this.store.batch(async () => {
					// Applied first: a transaction the sandbox refuses to apply enters no record.
					if (apply) await apply();
					await this.persist(fs, writes, events);
				})
			);
			this.notify('appended', sealed, 'this-tab');
			return sealed;
		});
	}

	/** `commit` bound to one fs, in the shape ToolPipelineOptions.commit takes. */
	commitThrough(
		fs: SandboxFileSystem
	): (
		writes: FileChange[],
		drafts: LedgerEventDraft[],
		apply?: () => Promise<void>
	) => Promise<LedgerEvent[]> {
		return (writes, drafts, apply) => this.commit(fs, writes, drafts, apply);
	}

	async events(): Promise<readonly LedgerEvent[]> {
		await this.historyLoaded;
		this.assertWholeHistory();
		return [...this.stored];
	}

	/**
	 * Where a Worker finds the events: the database itself once everything queued is stored (the
	 * page copies nothing), or the events when the store has no name.
	 */
	async workerSource(): Promise<StoredEventsSource> {
		const upToSeq = this.lastSeq;
		if (!this.store.name || !this.store.flush)
			return { kind: 'events', events: await this.events() };
		await this.store.flush();
		return { kind: 'database', name: this.store.name, store: ledgerStores.events, upToSeq };
	}

	/**
	 * The events after `seq` (all of them for 0), in order. Before `whenHistoryLoaded` has resolved,
	 * only the events of the tail read at open are here: asking for earlier ones throws.
	 */
	eventsSince(seq: number): readonly LedgerEvent[] {
		if (!Number.isInteger(seq) || seq < 0) {
			throw new TypeError(`eventsSince expects a seq (an integer >= 0), got ${String(seq)}`);
		}
		if (seq + 1 < this.storedFrom) this.assertWholeHistory();
		if (seq === 0) return [...this.stored];
		const position = seq - this.storedFrom;
		if (this.stored[position]?.seq === seq) return this.stored.slice(position + 1);
		return this.stored.filter((event) => event.seq > seq);
	}

	/** Hears every change after it is stored (or found); returns an unsubscribe. */
	subscribe(listener: (change: LedgerChange) => void): () => void {
		if (typeof listener !== 'function')
			throw new TypeError('subscribe expects a listener function');
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}

	/** A file content kept by the ledger, by its `sha256:` hash; null when not kept. */
	async blob(hash: string): Promise<Uint8Array | null> {
		if (typeof hash !== 'string') throw new TypeError('blob expects a sha256: hash');
		if (!hashPattern.test(hash)) return null;
		const [record] = await this.store.readAll(ledgerStores.blobs, IDBKeyRange.only(hash));
		return record?.value instanceof Uint8Array ? record.value : null;
	}

	/** Many kept contents by hash, in one storage read; hashes not kept are left out. */
	async blobs(hashes: readonly string[]): Promise<Map<string, Uint8Array>> {
		const wanted = [...new Set(hashes.filter((hash) => hashPattern.test(hash)))];
		const found = new Map<string, Uint8Array>();
		if (!this.store.readKeys) {
			for (const hash of wanted) {
				const content = await this.blob(hash);
				if (content) found.set(hash, content);
			}
			return found;
		}
		for (const record of await this.store.readKeys(ledgerStores.blobs, wanted)) {
			if (typeof record.key === 'string' && record.value instanceof Uint8Array)
				found.set(record.key, record.value);
		}
		return found;
	}

	/** The before and after of a recorded change (a `mutation-record`), for a diff; null otherwise. */
	async mutationContents(seq: number): Promise<MutationContents | null> {
		await this.historyLoaded;
		this.assertWholeHistory();
		const sides: MutationSides | null = mutationSides(this.stored, seq);
		if (!sides) return null;
		const [before, after] = await Promise.all([
			sides.before ? this.blob(sides.before) : null,
			sides.after ? this.blob(sides.after) : null
		]);
		return {
			seq: sides.seq,
			path: sides.path,
			before: { hash: sides.before, content: before },
			after: { hash: sides.after, content: after },
			beforeKnown: sides.beforeKnown
		};
	}

	/** A per-scenario state value (a copy), or undefined. */
	state<Value = unknown>(key: string): Value | undefined {
		checkStateKey(key);
		const value = this.stateValues.get(key);
		return value === undefined ? undefined : (structuredClone(value) as Value);
	}

	stateKeys(): string[] {
		return [...this.stateValues.keys()].sort();
	}

	/** Keeps a per-scenario state value (stored with the next flush). */
	setState(key: string, value: unknown): void {
		checkStateKey(key);
		this.assertWriter();
		if (value === undefined) throw new TypeError('setState: use deleteState to remove a value');
		this.store.queueRecords([{ store: ledgerStores.state, key, value }]);
		this.stateValues.set(key, structuredClone(value));
	}

	deleteState(key: string): void {
		checkStateKey(key);
		this.assertWriter();
		this.store.queueRecords([{ store: ledgerStores.state, key, delete: true }]);
		this.stateValues.delete(key);
	}

	/**
	 * Reads what another tab stored since this tab last looked: new events are checked against
	 * the chain and announced (`origin: 'other-tab'`); when the stored ledger was replaced (a
	 * reset), everything is reloaded. Returns the new events.
	 */
	refresh(): Promise<readonly LedgerEvent[]> {
		return this.exclusive(() => this.refreshNow());
	}

	/** This tab became the writer (the other tab closed): catch up, then resume the chain. */
	becomeWriter(): Promise<void> {
		return this.exclusive(async () => {
			await this.refreshNow();
			this.canWrite = true;
			this.chain = this.chainIntegrity.ok ? LedgerChain.fromEvents(this.clock, this.stored) : null;
		});
	}

	/** Another tab writes now: refuse writes here with `message`. */
	becomeReader(message: string = readOnlyTabMessage): void {
		this.canWrite = false;
		this.readOnlyMessage = message;
	}

	/**
	 * Starts over ("Reset scenario", a zip import): replaces the workspace files and empties the
	 * ledger (events, contents, state) in one transaction. Also the way out of a broken chain.
	 * Rebuild the sandbox afterwards, as after IndexedDbWorkspaceFiles.replaceAll.
	 */
	resetWith(files: Record<string, string | Uint8Array>): Promise<void> {
		return this.exclusive(async () => {
			this.assertWriter();
			await this.store.replaceAll(files, { clearStores: ledgerStoreNames });
			this.generation++;
			this.stored = [];
			this.storedFrom = 1;
			this.readProblem = null;
			this.stateValues.clear();
			this.keptBlobs.clear();
			this.chainIntegrity = { ok: true };
			this.fullCheck = Promise.resolve(this.chainIntegrity);
			this.chain = new LedgerChain({ clock: this.clock });
			this.checkpoint = emptyChainHeads;
			this.notifiedSeq = 0;
			this.notify('reloaded', [], 'this-tab');
		});
	}

	/**
	 * An imported export: replaces the workspace files and the ledger with the export's own history
	 * (events stored verbatim, never re-sealed) and `state`. The chain is checked as on open, so a
	 * broken one is read, never extended. Returns that check.
	 */
	restoreHistory(
		files: Record<string, Uint8Array>,
		events: readonly LedgerEvent[],
		state: Record<string, unknown> = {}
	): Promise<ChainIntegrity> {
		return this.exclusive(async () => {
			this.assertWriter();
			const blobs: QueuedRecord[] = [];
			// The current contents, so the diffs of the last change of each file can be shown.
			for (const content of Object.values(files)) {
				blobs.push({ store: ledgerStores.blobs, key: await contentHash(content), value: content });
			}
			// Files, events and state in one transaction (see replaceAll): never files without history.
			await this.store.replaceAll(files, {
				clearStores: ledgerStoreNames,
				records: [
					...blobs,
					...eventRunRecords(events),
					...Object.entries(state).map(([key, value]) => ({
						store: ledgerStores.state,
						key,
						value
					}))
				]
			});
			this.generation++;
			this.stored = [...events];
			this.storedFrom = 1;
			this.readProblem = null;
			this.stateValues.clear();
			for (const [key, value] of Object.entries(state)) this.stateValues.set(key, value);
			this.keptBlobs.clear();
			this.chainIntegrity = await checkStoredChain(this.stored);
			this.fullCheck = Promise.resolve(this.chainIntegrity);
			this.chain = this.chainIntegrity.ok ? LedgerChain.fromEvents(this.clock, this.stored) : null;
			// The next commit stores its checkpoint from these heads: the imported chain's own.
			this.checkpoint = this.chainIntegrity.ok ? headsAfter(this.stored) : emptyChainHeads;
			this.notifiedSeq = this.lastSeq;
			this.notify('reloaded', this.stored, 'this-tab');
			return this.chainIntegrity;
		});
	}

	private async persist(
		fs: SandboxFileSystem | null,
		writes: readonly FileChange[],
		events: LedgerEvent[]
	): Promise<void> {
		// Contents are gathered before writing: a shell change's file is already in the store.
		const blobs = await this.blobRecords(writes, events);
		if (fs) await applyWrites(fs, writes);
		try {
			this.store.queueRecords([
				...blobs,
				...eventRunRecords(events),
				// The chain sealed these events itself: the checkpoint moves with them, in the same
				// transaction, so the next open checks nothing twice.
				checkpointRecord(headsAfterMore(this.checkpoint, events))
			]);
		} catch (error) {
			if (fs) await revertWrites(fs, writes);
			throw error;
		}
		for (const event of events) this.stored.push(event);
		for (const record of blobs) this.keptBlobs.add(record.key as string);
		this.checkpoint = headsAfterMore(this.checkpoint, events);
	}

	/**
	 * Merges the small runs that commits stored into runs of up to a thousand events, so the next
	 * open reads few records. In a transaction of its own, started before any later write or reset
	 * of this tab, and never retried: should it fail (a full quota), the learner's own writes must
	 * not queue behind it. At most ten merged runs per open, so a large ledger stored one event per
	 * record moves over a few opens instead of holding up one.
	 */
	private compactStoredRuns(events: readonly LedgerEvent[], runs: readonly StoredRun[]): void {
		if (!this.store.storeApart) return;
		const records = compactionRecords(events, runs, { groups: 10 });
		if (records.length === 0) return;
		// Only a speed-up for the next open: the records as they are read the same.
		this.store.storeApart(records).catch(() => false);
	}

	private queueCheckpoint(heads: ChainHeads): void {
		try {
			this.store.queueRecords([checkpointRecord(heads)]);
			this.checkpoint = heads;
		} catch {
			// Only a speed-up for the next open: without it, that open checks the whole chain.
		}
	}

	/** The contents a diff of these events needs, by hash, except those already kept. */
	private async blobRecords(
		writes: readonly FileChange[],
		events: readonly LedgerEvent[]
	): Promise<QueuedRecord[]> {
		const contents = new Map<string, Uint8Array>();
		// Hashed side by side: a checkpoint restore commits a thousand writes at once.
		const sides = writes.flatMap((write) =>
			[write.before, write.after].filter((side): side is Uint8Array => side !== null)
		);
		// Many sides (a restore): the synchronous hasher, the same digests without an awaited call each.
		const hashSync = sides.length > 32 ? await loadSyncContentHasher() : null;
		const hashes = hashSync
			? sides.map((side) => hashSync(side))
			: await Promise.all(sides.map((side) => contentHash(side)));
		sides.forEach((side, index) => contents.set(hashes[index] as string, side));
		const wanted: [path: string, hash: string][] = [];
		for (const event of events) {
			if (event.type === 'mutation-record') {
				const path = event.trace.files[0]?.path;
				const hash = event.trace.metadata['dev.threadline'].file_hash;
				if (path !== undefined && hash) wanted.push([path, hash]);
			} else if (event.type === 'workspace-snapshot') {
				for (const [path, hash] of Object.entries(event.files)) wanted.push([path, hash]);
			}
		}
		for (const [path, hash] of wanted) {
			if (contents.has(hash) || this.keptBlobs.has(hash)) continue;
			// A shell command's change or a snapshot: the file holds that content now, if anything.
			const content = await this.store.read(path).catch(() => null);
			if (content && (await contentHash(content)) === hash) contents.set(hash, content);
		}
		const records: QueuedRecord[] = [];
		for (const [hash, content] of contents) {
			if (!this.keptBlobs.has(hash))
				records.push({ store: ledgerStores.blobs, key: hash, value: content });
		}
		return records;
	}

	private async refreshNow(): Promise<readonly LedgerEvent[]> {
		// A history that could not be read at open is read now, before anything else.
		if (this.storedFrom > 1) {
			const generation = this.generation;
			const loaded = await this.loadRestOfHistory(this.canWrite);
			if (this.storedFrom > 1) return [];
			this.checkAgainAfterReading(loaded, false);
			// Read at last: those who were told it could not be may say otherwise now (a ledger
			// found replaced was announced already).
			if (this.chainIntegrity.ok && generation === this.generation)
				this.notify('reloaded', this.stored, 'other-tab');
		}
		const last = this.stored.at(-1);
		// The run holding the last event known here starts at most largestRun - 1 events before it.
		const records = await this.store.readAll(
			ledgerStores.events,
			last ? IDBKeyRange.lowerBound(Math.max(1, last.seq - largestRun + 1)) : undefined
		);
		await this.reloadState();
		const read = eventsOfRecords(records, last ? undefined : 1);
		const lastPosition = last ? last.seq - (read.events[0]?.seq ?? 0) : -1;
		const known = last ? read.events[lastPosition] : undefined;
		if (last && (known?.seq !== last.seq || known.hash !== last.hash)) {
			// The stored ledger is no longer the one this tab knew: start from what is stored.
			const loaded = await loadLedger(this.store);
			const wasBroken = !this.chainIntegrity.ok || this.readProblem !== null;
			this.generation++;
			this.stored = loaded.events;
			this.storedFrom = 1;
			this.readProblem = null;
			this.chainIntegrity = loaded.integrity;
			this.checkpoint = loaded.integrity.ok ? headsAfter(this.stored) : emptyChainHeads;
			this.keptBlobs.clear();
			this.rebuildChainIfWriter();
			this.checkAgainAfterReading(loaded, wasBroken);
			this.notifiedSeq = this.lastSeq;
			this.notify('reloaded', this.stored, 'other-tab');
			return this.stored;
		}
		const parsed = { events: read.events.slice(lastPosition + 1), problem: read.problem };
		if (parsed.events.length === 0 && parsed.problem === null) return [];
		const check =
			parsed.problem === null
				? await checkContinuation(headsAfter(this.stored), parsed.events)
				: ({ ok: false, problem: parsed.problem } as const);
		if (!check.ok) {
			this.chainIntegrity = check;
			this.chain = null;
		}
		for (const event of parsed.events) this.stored.push(event);
		if (check.ok) this.checkpoint = headsAfter(this.stored);
		this.rebuildChainIfWriter();
		this.notify('appended', parsed.events, 'other-tab');
		return parsed.events;
	}

	private rebuildChainIfWriter(): void {
		// Another writer appended: continuing from a stale head would fork the chain.
		if (this.canWrite) {
			this.chain = this.chainIntegrity.ok ? LedgerChain.fromEvents(this.clock, this.stored) : null;
		}
	}

	private async reloadState(): Promise<void> {
		const records = await this.store.readAll(ledgerStores.state);
		this.stateValues.clear();
		for (const record of records) {
			if (typeof record.key === 'string' && record.key !== checkpointKey)
				this.stateValues.set(record.key, record.value);
		}
	}

	private writableChain(): LedgerChain {
		this.assertWriter();
		if (this.readProblem !== null) {
			throw new LedgerWriteRefusedError(
				'read-only',
				`Nothing more is recorded for now: the saved ledger ${this.readProblem}. Nothing saved ` +
					'was lost; reload the page to try again.'
			);
		}
		if (!this.chainIntegrity.ok || !this.chain) {
			const problem = this.chainIntegrity.ok ? 'no chain' : this.chainIntegrity.problem;
			throw new LedgerWriteRefusedError(
				'broken-chain',
				`The ledger saved in this browser is broken (${problem}), so nothing more is ` +
					'recorded: continuing it would hide where it broke. Export .orchestration to keep ' +
					'the evidence, then reset the scenario to start a new ledger.'
			);
		}
		return this.chain;
	}

	private assertWriter(): void {
		if (!this.canWrite) throw new LedgerWriteRefusedError('read-only', this.readOnlyMessage);
	}

	private exclusive<Result>(operation: () => Promise<Result>): Promise<Result> {
		const run = this.queue.then(operation);
		// A failed operation must not block the ones queued behind it.
		this.queue = run.catch(() => undefined);
		return run;
	}

	private notify(
		kind: LedgerChange['kind'],
		events: readonly LedgerEvent[],
		origin: LedgerChangeOrigin
	): void {
		const fresh =
			kind === 'appended' ? events.filter((event) => event.seq > this.notifiedSeq) : events;
		if (kind === 'appended' && fresh.length === 0) return;
		this.notifiedSeq = Math.max(this.notifiedSeq, fresh.at(-1)?.seq ?? 0);
		const change: LedgerChange = { kind, events: [...fresh], origin };
		for (const listener of [...this.listeners]) {
			try {
				listener(change);
			} catch {
				// One broken listener must not keep the others from hearing about the change.
			}
		}
	}
}

function checkStateKey(key: string): void {
	if (typeof key !== 'string' || key === '') {
		throw new TypeError('A ledger state key must be a non-empty string');
	}
	if (key === checkpointKey) throw new TypeError('This ledger state key is reserved');
}
