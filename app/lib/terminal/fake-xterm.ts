/**
 * Test support only (imported by the *.test.ts files here, never by the app).
 * A stand-in for xterm's Terminal with just what xterm-readline, ReadlineEditor and the pty
 * binding touch, so the real xterm-readline can be driven in Node. Writes are buffered and their
 * callbacks run later, in order, as in xterm.
 */
type Listener<T> = (value: T) => void;

class Emitter<T> {
	#listeners: Listener<T>[] = [];

	subscribe = (listener: Listener<T>): { dispose(): void } => {
		this.#listeners.push(listener);
		return {
			dispose: () => {
				this.#listeners = this.#listeners.filter((candidate) => candidate !== listener);
			}
		};
	};

	fire(value: T): void {
		for (const listener of [...this.#listeners]) listener(value);
	}

	get size(): number {
		return this.#listeners.length;
	}
}

export class FakeXterm {
	cols = 80;
	rows = 24;
	readonly options = { tabStopWidth: 8 };
	readonly buffer = { active: { cursorY: 0 } };
	/** Everything written, in order. */
	written = '';
	readonly #data = new Emitter<string>();
	readonly #resize = new Emitter<{ cols: number; rows: number }>();
	customKeyEventHandler: ((event: KeyboardEvent) => boolean) | null = null;

	readonly onData = this.#data.subscribe;
	readonly onResize = this.#resize.subscribe;

	get dataListenerCount(): number {
		return this.#data.size;
	}

	write(data: string, callback?: () => void): void {
		this.written += data;
		if (callback) setTimeout(callback, 0);
	}

	input(data: string, _wasUserInput = true): void {
		this.#data.fire(data);
	}

	/** Keys as a browser types them: one data event per character, Enter as CR. */
	type(text: string): void {
		for (const character of text) this.input(character === '\n' ? '\r' : character);
	}

	resize(cols: number, rows: number): void {
		this.cols = cols;
		this.rows = rows;
		this.#resize.fire({ cols, rows });
	}

	attachCustomKeyEventHandler(handler: (event: KeyboardEvent) => boolean): void {
		this.customKeyEventHandler = handler;
	}

	loadAddon(addon: { activate(terminal: never): void }): void {
		addon.activate(this as never);
	}
}

/** Lets buffered writes and their callbacks run. */
export async function settle(rounds = 5): Promise<void> {
	for (let round = 0; round < rounds; round += 1) {
		await new Promise((resolve) => setTimeout(resolve, 0));
	}
}
