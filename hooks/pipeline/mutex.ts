/** A FIFO async lock: governance checks and commits of concurrent sessions must not interleave. */
export class Mutex {
	private tail: Promise<void> = Promise.resolve();

	async lock(): Promise<() => void> {
		let release!: () => void;
		const next = new Promise<void>((resolve) => (release = resolve));
		const previous = this.tail;
		this.tail = previous.then(() => next);
		await previous;
		return release;
	}
}
