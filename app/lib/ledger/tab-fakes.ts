/**
 * Fakes of the Web Locks API and BroadcastChannel for Node tests: several "tabs" in one process
 * share one FakeLockManager and one FakeChannelHub. Only tests import this file.
 */
import type { ChannelLike, LockManagerLike } from './tab-coordination.js';

interface Waiting {
	callback: (lock: unknown) => unknown;
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
}

/** Exclusive locks by name, granted in request order, as navigator.locks does. */
export class FakeLockManager implements LockManagerLike {
	private readonly held = new Set<string>();
	private readonly queues = new Map<string, Waiting[]>();

	request(
		name: string,
		options: { ifAvailable?: boolean; signal?: AbortSignal },
		callback: (lock: unknown) => unknown
	): Promise<unknown> {
		return new Promise((resolve, reject) => {
			if (options.signal?.aborted) {
				reject(new DOMException('The request was aborted.', 'AbortError'));
				return;
			}
			const queue = this.queues.get(name) ?? [];
			this.queues.set(name, queue);
			const free = !this.held.has(name) && queue.length === 0;
			if (!free && options.ifAvailable) {
				Promise.resolve(callback(null)).then(resolve, reject);
				return;
			}
			const waiting: Waiting = { callback, resolve, reject };
			if (free) {
				this.grant(name, waiting);
				return;
			}
			queue.push(waiting);
			options.signal?.addEventListener('abort', () => {
				const position = queue.indexOf(waiting);
				if (position === -1) return;
				queue.splice(position, 1);
				reject(new DOMException('The request was aborted.', 'AbortError'));
			});
		});
	}

	isHeld(name: string): boolean {
		return this.held.has(name);
	}

	private grant(name: string, waiting: Waiting): void {
		this.held.add(name);
		const released = Promise.resolve().then(() => waiting.callback({ name, mode: 'exclusive' }));
		released.then(waiting.resolve, waiting.reject).finally(() => {
			this.held.delete(name);
			const next = this.queues.get(name)?.shift();
			if (next) this.grant(name, next);
		});
	}
}

/** BroadcastChannels by name: a message reaches every other open channel of the name. */
export class FakeChannelHub {
	private readonly channels = new Map<string, Set<FakeChannel>>();

	create = (name: string): ChannelLike => {
		const channel = new FakeChannel(name, this);
		const named = this.channels.get(name) ?? new Set();
		named.add(channel);
		this.channels.set(name, named);
		return channel;
	};

	deliver(from: FakeChannel, message: unknown): void {
		for (const channel of this.channels.get(from.name) ?? []) {
			// Like the real one: structured-cloned, asynchronous, never to the sender.
			if (channel !== from) queueMicrotask(() => channel.receive(structuredClone(message)));
		}
	}

	remove(channel: FakeChannel): void {
		this.channels.get(channel.name)?.delete(channel);
	}
}

class FakeChannel implements ChannelLike {
	private readonly listeners = new Set<(event: { data: unknown }) => void>();
	private closed = false;

	constructor(
		readonly name: string,
		private readonly hub: FakeChannelHub
	) {}

	postMessage(message: unknown): void {
		if (this.closed) throw new DOMException('The channel is closed.', 'InvalidStateError');
		this.hub.deliver(this, message);
	}

	addEventListener(_type: 'message', listener: (event: { data: unknown }) => void): void {
		this.listeners.add(listener);
	}

	close(): void {
		this.closed = true;
		this.hub.remove(this);
	}

	receive(data: unknown): void {
		if (this.closed) return;
		for (const listener of this.listeners) listener({ data });
	}
}

/** Lets queued microtasks and promise callbacks run. */
export async function settle(rounds = 10): Promise<void> {
	for (let round = 0; round < rounds; round += 1) await Promise.resolve();
}
