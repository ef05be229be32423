/** Shown in a tab that may only read the ledger. */
export const readOnlyTabMessage =
	'This scenario is open in another tab; this tab is read-only until you close the other one.';

/**
 * This tab's part in its scenario: the one writer, or a reader while another tab writes.
 * `since` says how a writer got there: at once, or when the other tab closed (then reload the
 * workspace from the database before writing: the other tab changed it).
 */
export type TabRole =
	| { kind: 'writer'; since: 'opened' | 'other-tab-closed'; coordinated: boolean }
	| { kind: 'reader'; message: string };

/** What other tabs say: events stored up to `lastSeq`, or a ledger started over. */
export type RemoteLedgerChange = { kind: 'appended'; lastSeq: number } | { kind: 'reset' };

/** The part of the Web Locks API used here (`navigator.locks`), so tests can pass a fake. */
export interface LockManagerLike {
	request(
		name: string,
		options: { ifAvailable?: boolean; signal?: AbortSignal },
		callback: (lock: unknown) => unknown
	): Promise<unknown>;
}

/** The part of BroadcastChannel used here. */
export interface ChannelLike {
	postMessage(message: unknown): void;
	addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
	close(): void;
}

export interface TabCoordinationOptions {
	scenarioId: string;
	/** `navigator.locks` by default; without it every tab writes (nothing to coordinate with). */
	locks?: LockManagerLike | null;
	/** `new BroadcastChannel(name)` by default; without it other tabs are not told of events. */
	createChannel?: ((name: string) => ChannelLike) | null;
}

/** The lock (and channel) name of a scenario's ledger. */
export function ledgerLockName(scenarioId: string): string {
	if (typeof scenarioId !== 'string' || scenarioId === '') {
		throw new TypeError('A scenario id must be a non-empty string');
	}
	return `threadline-ledger-${scenarioId}`;
}

const channelMessageType = 'threadline-ledger-change';

/**
 * Makes one tab per scenario the ledger's writer, so two tabs never extend the same chain from
 * the same head. The writer holds a Web Lock for its whole life (the browser releases it when the
 * tab closes or crashes); a tab that cannot get it at once is a reader, waits in the lock's queue
 * and becomes the writer when the lock frees. A BroadcastChannel tells the other tabs about new
 * events so their trace panels refresh.
 */
export class TabCoordination {
	private currentRole: TabRole;
	private readonly roleListeners = new Set<(role: TabRole) => void>();
	private readonly remoteListeners = new Set<(change: RemoteLedgerChange) => void>();
	private readonly stopWaiting = new AbortController();
	private releaseLock: () => void = () => undefined;
	private closed = false;

	private constructor(
		readonly scenarioId: string,
		private readonly channel: ChannelLike | null,
		role: TabRole
	) {
		this.currentRole = role;
		channel?.addEventListener('message', (event) => this.receive(event.data));
	}

	/** Asks for the scenario's lock without waiting: the answer is this tab's first role. */
	static async start(options: TabCoordinationOptions): Promise<TabCoordination> {
		const name = ledgerLockName(options.scenarioId);
		const locks = options.locks === undefined ? defaultLocks() : options.locks;
		const createChannel =
			options.createChannel === undefined ? defaultChannelFactory() : options.createChannel;
		const channel = createChannel ? createChannel(name) : null;
		if (!locks) {
			return new TabCoordination(options.scenarioId, channel, {
				kind: 'writer',
				since: 'opened',
				coordinated: false
			});
		}
		let releaseHeld: () => void = () => undefined;
		const held = await new Promise<boolean>((resolve, reject) => {
			locks
				.request(name, { ifAvailable: true }, (lock) => {
					if (!lock) {
						resolve(false);
						return null;
					}
					resolve(true);
					// Returning a promise keeps the lock until it settles: the tab's life, or close().
					return new Promise<void>((release) => {
						releaseHeld = release;
					});
				})
				.catch(reject);
		});
		const coordination = new TabCoordination(
			options.scenarioId,
			channel,
			held
				? { kind: 'writer', since: 'opened', coordinated: true }
				: { kind: 'reader', message: readOnlyTabMessage }
		);
		coordination.releaseLock = releaseHeld;
		if (!held) coordination.waitForLock(locks, name);
		return coordination;
	}

	get role(): TabRole {
		return this.currentRole;
	}

	/** Hears each role change (a reader becoming the writer); returns an unsubscribe. */
	onRoleChange(listener: (role: TabRole) => void): () => void {
		if (typeof listener !== 'function') throw new TypeError('onRoleChange expects a function');
		this.roleListeners.add(listener);
		return () => {
			this.roleListeners.delete(listener);
		};
	}

	/** Hears what other tabs announce; returns an unsubscribe. */
	onRemoteChange(listener: (change: RemoteLedgerChange) => void): () => void {
		if (typeof listener !== 'function') throw new TypeError('onRemoteChange expects a function');
		this.remoteListeners.add(listener);
		return () => {
			this.remoteListeners.delete(listener);
		};
	}

	/** Tells the other tabs that events up to `lastSeq` are stored. */
	announceEvents(lastSeq: number): void {
		if (!Number.isInteger(lastSeq) || lastSeq < 0) {
			throw new TypeError(`announceEvents expects a seq, got ${String(lastSeq)}`);
		}
		this.post({ type: channelMessageType, kind: 'appended', lastSeq });
	}

	/** Tells the other tabs that the ledger started over (a reset or an import). */
	announceReset(): void {
		this.post({ type: channelMessageType, kind: 'reset' });
	}

	/** Releases the lock (the next tab in line becomes the writer) and stops listening. */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		this.stopWaiting.abort();
		this.releaseLock();
		this.channel?.close();
		this.roleListeners.clear();
		this.remoteListeners.clear();
	}

	private waitForLock(locks: LockManagerLike, name: string): void {
		locks
			.request(name, { signal: this.stopWaiting.signal }, () => {
				if (this.closed) return null;
				this.changeRole({ kind: 'writer', since: 'other-tab-closed', coordinated: true });
				return new Promise<void>((release) => {
					this.releaseLock = release;
				});
			})
			.catch(() => {
				// Aborted by close(): this tab no longer wants the lock.
			});
	}

	private changeRole(role: TabRole): void {
		this.currentRole = role;
		for (const listener of [...this.roleListeners]) {
			try {
				listener(role);
			} catch {
				// A broken listener must not keep the others from hearing it.
			}
		}
	}

	private post(message: unknown): void {
		if (this.closed || !this.channel) return;
		try {
			this.channel.postMessage(message);
		} catch {
			// A channel closed by the browser (the page is going away): nothing to tell.
		}
	}

	private receive(data: unknown): void {
		if (this.closed || typeof data !== 'object' || data === null) return;
		const message = data as { type?: unknown; kind?: unknown; lastSeq?: unknown };
		if (message.type !== channelMessageType) return;
		let change: RemoteLedgerChange;
		if (message.kind === 'reset') change = { kind: 'reset' };
		else if (
			message.kind === 'appended' &&
			typeof message.lastSeq === 'number' &&
			Number.isInteger(message.lastSeq)
		) {
			change = { kind: 'appended', lastSeq: message.lastSeq };
		} else return;
		for (const listener of [...this.remoteListeners]) {
			try {
				listener(change);
			} catch {
				// As above.
			}
		}
	}
}

function defaultLocks(): LockManagerLike | null {
	const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
	return locks ?? null;
}

function defaultChannelFactory(): ((name: string) => ChannelLike) | null {
	if (typeof BroadcastChannel !== 'function') return null;
	return (name) => new BroadcastChannel(name);
}
