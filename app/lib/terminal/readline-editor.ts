import type { LineEditor } from './line-discipline.js';

/** The parts of xterm's `Terminal` the editor uses (structural, so tests can fake them). */
export interface EditorTerminal {
	write(data: string, callback?: () => void): void;
	/** Feeds data as if typed: fires `onData` synchronously. */
	input(data: string, wasUserInput?: boolean): void;
	onData(listener: (data: string) => void): { dispose(): void };
}

/** The parts of xterm-readline's `Readline` the editor uses. */
export interface EditorReadline {
	read(prompt: string): Promise<string>;
	setCtrlCHandler(handler: () => void): void;
}

export interface ReadlineEditorOptions {
	/** Ctrl+C pressed while no line is being read, i.e. while a command runs. */
	onInterrupt: () => void;
	/** Keys typed before the editor existed (e.g. while the sandbox started), replayed first. */
	pendingInput?: readonly string[];
}

const endOfText = '\x03';
const formFeed = '\x0c';
const carriageReturn = '\r';
/** Type-ahead beyond this many characters is dropped rather than kept without bound. */
const typeAheadLimit = 16_384;

/**
 * A LineEditor over xterm-readline that also keeps type-ahead: xterm-readline drops every key
 * that arrives while no read is active (while a command runs, or between Enter and the next
 * prompt), so text typed quickly after Enter, as a person or Playwright's `keyboard.type` does,
 * would be lost. The editor queues those keys and replays them once the next prompt is live.
 *
 * Construct it BEFORE `terminal.loadAddon(readline)`: its `onData` listener must run before
 * readline's to know whether readline is about to consume a key.
 */
export class ReadlineEditor implements LineEditor {
	readonly #terminal: EditorTerminal;
	readonly #readline: EditorReadline;
	readonly #subscription: { dispose(): void };
	#typeAhead: string[];
	#typeAheadLength: number;
	/** Mirrors readline's own "a read is active" state, which it does not expose. */
	#reading = false;
	#disposed = false;

	constructor(terminal: EditorTerminal, readline: EditorReadline, options: ReadlineEditorOptions) {
		this.#terminal = terminal;
		this.#readline = readline;
		this.#typeAhead = [];
		this.#typeAheadLength = 0;
		for (const chunk of options.pendingInput ?? []) this.#queue(chunk);
		this.#subscription = terminal.onData((data) => this.#observe(data));
		readline.setCtrlCHandler(() => {
			// Keys typed before Ctrl+C belonged to the command being interrupted.
			this.#clearTypeAhead();
			options.onInterrupt();
		});
	}

	/** True while a prompt is live and keys go to the line being edited. */
	get reading(): boolean {
		return this.#reading && !this.#disposed;
	}

	read(prompt: string): Promise<string> {
		if (this.#disposed) return Promise.reject(new Error('The terminal has been closed.'));
		const line = this.#readline.read(prompt);
		// Readline activates its read in a write callback; ours runs after it, in order.
		this.#terminal.write('', () => {
			if (this.#disposed) return;
			this.#reading = true;
			this.#replayTypeAhead();
		});
		return line;
	}

	write(text: string): void {
		if (this.#disposed) return;
		this.#terminal.write(text);
	}

	dispose(): void {
		this.#disposed = true;
		this.#subscription.dispose();
		this.#clearTypeAhead();
	}

	#observe(data: string): void {
		if (this.#reading) {
			// A lone CR is Enter: readline submits the line and stops reading on this very key.
			if (data === carriageReturn) this.#reading = false;
			return;
		}
		// Readline acts on these at once even between reads (interrupt, clear screen).
		if (data === endOfText) {
			this.#clearTypeAhead();
			return;
		}
		if (data === formFeed) return;
		this.#queue(data);
	}

	#replayTypeAhead(): void {
		const pending = this.#typeAhead;
		this.#clearTypeAhead();
		// One chunk at a time as typed: readline treats a multi-key chunk as a paste, where
		// Enter inserts a newline instead of submitting. Chunks after an Enter are queued again
		// by #observe for the prompt that follows.
		for (const chunk of pending) {
			if (this.#disposed) return;
			this.#terminal.input(chunk, true);
		}
	}

	#queue(data: string): void {
		if (this.#typeAheadLength + data.length > typeAheadLimit) return;
		this.#typeAhead.push(data);
		this.#typeAheadLength += data.length;
	}

	#clearTypeAhead(): void {
		this.#typeAhead = [];
		this.#typeAheadLength = 0;
	}
}
