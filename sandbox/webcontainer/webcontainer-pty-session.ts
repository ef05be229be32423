import type { PtyShellSession } from '../sandbox.js';
import type { WebContainerProcess } from './webcontainer-api.js';

/** Output kept for a terminal that has not subscribed yet (jsh prints its prompt at once). */
const earlyOutputLimit = 64 * 1024;

/**
 * The person's terminal over one interactive `jsh` process: keys go to the process's input,
 * its pseudo-terminal output goes to every `onData` listener unchanged (the terminal renders
 * the escape sequences). Output that arrives before the first listener is kept for it.
 */
export class WebContainerPtySession implements PtyShellSession {
	readonly mode = 'pty' as const;
	readonly exit: Promise<number>;
	private readonly listeners = new Set<(data: string) => void>();
	private readonly writer: WritableStreamDefaultWriter<string>;
	private readonly reader: ReadableStreamDefaultReader<string>;
	private earlyOutput: string[] = [];
	private earlyOutputSize = 0;
	private disposed = false;

	constructor(
		private readonly process: WebContainerProcess,
		private readonly onDispose: (session: WebContainerPtySession) => void = () => {}
	) {
		this.writer = process.input.getWriter();
		this.reader = process.output.getReader();
		// A process that dies with an error still ended; -1 says it did not exit normally.
		this.exit = process.exit.then(
			(code) => code,
			() => -1
		);
		void this.pump();
	}

	write(data: string): void {
		if (this.disposed) return;
		if (typeof data !== 'string') throw new TypeError('The terminal sends keys as a string');
		// The input stream only fails once the process is gone; the exit promise reports that.
		this.writer.write(data).catch(() => undefined);
	}

	onData(listener: (data: string) => void): () => void {
		if (typeof listener !== 'function') throw new TypeError('onData expects a listener function');
		if (this.disposed) return () => {};
		this.listeners.add(listener);
		if (this.earlyOutput.length > 0) {
			const early = this.earlyOutput.join('');
			this.earlyOutput = [];
			this.earlyOutputSize = 0;
			deliver(listener, early);
		}
		return () => {
			this.listeners.delete(listener);
		};
	}

	resize(size: { cols: number; rows: number }): void {
		if (this.disposed) return;
		checkTerminalSize(size);
		this.process.resize({ cols: size.cols, rows: size.rows });
	}

	dispose(): void {
		if (this.disposed) return;
		this.disposed = true;
		this.listeners.clear();
		this.earlyOutput = [];
		try {
			this.process.kill();
		} catch {
			// Already gone with its container.
		}
		this.reader.cancel().catch(() => undefined);
		this.writer.close().catch(() => undefined);
		this.onDispose(this);
	}

	private async pump(): Promise<void> {
		try {
			for (;;) {
				const { done, value } = await this.reader.read();
				if (done || this.disposed) return;
				if (this.listeners.size === 0) {
					this.keepEarly(value);
					continue;
				}
				for (const listener of [...this.listeners]) deliver(listener, value);
			}
		} catch {
			// The stream fails when the container is torn down; `exit` tells the rest.
		}
	}

	private keepEarly(chunk: string): void {
		this.earlyOutput.push(chunk);
		this.earlyOutputSize += chunk.length;
		while (this.earlyOutputSize > earlyOutputLimit && this.earlyOutput.length > 1) {
			this.earlyOutputSize -= (this.earlyOutput.shift() as string).length;
		}
	}
}

/** Rejects sizes a pseudo-terminal cannot have, before they reach the container. */
export function checkTerminalSize(size: { cols: number; rows: number }): void {
	const valid = (value: unknown) => Number.isInteger(value) && (value as number) > 0;
	if (typeof size !== 'object' || size === null || !valid(size.cols) || !valid(size.rows)) {
		throw new RangeError(
			`A terminal size needs positive whole cols and rows, got ${JSON.stringify(size)}`
		);
	}
}

function deliver(listener: (data: string) => void, data: string): void {
	try {
		listener(data);
	} catch {
		// A broken terminal view must not stop the shell's output for the others.
	}
}
