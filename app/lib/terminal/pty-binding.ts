import type { PtyShellSession } from '../../../sandbox/sandbox.js';

/** The parts of xterm's `Terminal` a pseudo-terminal binding uses. */
export interface PtyTerminal {
	readonly cols: number;
	readonly rows: number;
	write(data: string): void;
	onData(listener: (data: string) => void): { dispose(): void };
	onResize(listener: (size: { cols: number; rows: number }) => void): { dispose(): void };
}

export interface PtyBinding {
	/** Stops forwarding in both directions. The session stays open: its owner disposes it. */
	dispose(): void;
}

/**
 * Connects a terminal to a real pseudo-terminal: keys go to the shell as typed, the shell's
 * bytes come back as they are (the pty already sends CR LF), and the size follows the terminal.
 */
export function bindPtySession(
	terminal: PtyTerminal,
	session: PtyShellSession,
	pendingInput: readonly string[] = []
): PtyBinding {
	let disposed = false;
	const unsubscribeOutput = session.onData((data) => {
		if (!disposed) terminal.write(data);
	});
	const keys = terminal.onData((data) => session.write(data));
	const resizes = terminal.onResize((size) => session.resize({ cols: size.cols, rows: size.rows }));
	// The session was opened with a guessed size; the terminal knows the real one.
	session.resize({ cols: terminal.cols, rows: terminal.rows });
	for (const chunk of pendingInput) session.write(chunk);

	session.exit.then(
		(exitCode) => {
			if (!disposed) terminal.write(`\r\n[The shell exited with code ${exitCode}.]\r\n`);
		},
		() => {
			if (!disposed) terminal.write('\r\n[The shell stopped unexpectedly.]\r\n');
		}
	);

	return {
		dispose() {
			if (disposed) return;
			disposed = true;
			unsubscribeOutput();
			keys.dispose();
			resizes.dispose();
		}
	};
}
