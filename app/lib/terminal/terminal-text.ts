/**
 * Text for the terminal screen: the escape sequences the terminal pane writes itself and the
 * clean-up that keeps text from outside (folder names, error messages) from driving the terminal.
 */

/** Cursor home, erase the screen, erase the scrollback: what `clear` does in a real terminal. */
export const clearScreenSequence = '\x1b[H\x1b[2J\x1b[3J';

/** What the terminal says until its shell is ready (in the pane, then on the terminal's line). */
export const startingMessage = 'Starting the sandbox…';

/** Back to column 0 and erase the whole line, to replace a transient status line. */
export const eraseLineSequence = '\r\x1b[2K';

const resetAttributes = '\x1b[0m';

export function red(text: string): string {
	return `\x1b[31m${text}${resetAttributes}`;
}

export function boldCyan(text: string): string {
	return `\x1b[1;36m${text}${resetAttributes}`;
}

/**
 * Removes C0 and C1 control characters (ESC included) except tab and line feed, so a folder
 * name or an error message cannot move the cursor, recolour the screen or retitle the tab.
 */
export function withoutControlCharacters(text: string): string {
	// eslint-disable-next-line no-control-regex -- matching control characters is the point
	return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

/**
 * A function that turns every lone LF into CR LF so each output line starts at column 0,
 * remembering a CR that ended the previous chunk so a CR LF split across chunks stays one line
 * end. Everything else (ANSI colour sequences, lone CR for progress lines) passes unchanged.
 */
export function createNewlineTranslator(): (chunk: string) => string {
	let previousChunkEndedWithCarriageReturn = false;
	return (chunk) => {
		if (chunk.length === 0) return chunk;
		const continuesCarriageReturn = previousChunkEndedWithCarriageReturn && chunk.startsWith('\n');
		previousChunkEndedWithCarriageReturn = chunk.endsWith('\r');
		const head = continuesCarriageReturn ? '\n' : '';
		const rest = continuesCarriageReturn ? chunk.slice(1) : chunk;
		return head + rest.replace(/(?<!\r)\n/g, '\r\n');
	};
}

/** A plain sentence for whatever a rejected promise carried (no stack trace, no `[object Object]`). */
export function describeError(error: unknown): string {
	const raw =
		error instanceof Error
			? error.message
			: typeof error === 'string'
				? error
				: error === undefined || error === null
					? ''
					: safeJson(error);
	return withoutControlCharacters(raw).trim();
}

function safeJson(value: unknown): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return String(value);
	}
}
