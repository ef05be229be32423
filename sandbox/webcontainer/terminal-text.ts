const escape = '\u001b';
const bell = '\u0007';
/** An unterminated escape sequence longer than this is garbage, not a sequence still arriving. */
const longestHeldSequence = 4096;

/**
 * Turns a process's terminal output (WebContainer runs every process on a pseudo-terminal) into
 * the plain text a tool result should hold: colours and other escape sequences removed, CRLF as
 * LF, and lines a spinner or progress bar redraws with `\r` or "cursor to column 1" reduced to
 * their last state. Streaming: chunks may split a sequence or a CRLF anywhere; complete lines are
 * released as they end and the last partial line on `flush`.
 */
export class TerminalTextCleaner {
	private held = '';
	private line = '';
	private carriageReturnPending = false;

	push(chunk: string): string {
		const text = this.held + chunk;
		this.held = '';
		let released = '';
		let index = 0;
		while (index < text.length) {
			const character = text[index] as string;
			if (this.carriageReturnPending) {
				this.carriageReturnPending = false;
				if (character === '\n') {
					released += `${this.line}\n`;
					this.line = '';
					index += 1;
					continue;
				}
				// A lone carriage return: what follows overwrites the line.
				this.line = '';
			}
			if (character === escape) {
				const end = sequenceEnd(text, index);
				if (end === undefined) {
					const rest = text.slice(index);
					if (rest.length <= longestHeldSequence) this.held = rest;
					break;
				}
				if (movesToFirstColumn(text.slice(index, end))) this.line = '';
				index = end;
				continue;
			}
			if (character === '\r') {
				this.carriageReturnPending = true;
			} else if (character === '\n') {
				released += `${this.line}\n`;
				this.line = '';
			} else if (character === '\b') {
				this.line = this.line.slice(0, -1);
			} else if (character === bell) {
				// The bell says nothing a reader needs.
			} else {
				this.line += character;
			}
			index += 1;
		}
		return released;
	}

	/** The unfinished last line (an escape sequence cut off at the very end is dropped). */
	flush(): string {
		const rest = this.line;
		this.line = '';
		this.held = '';
		this.carriageReturnPending = false;
		return rest;
	}
}

/** Removes escape sequences and redraws from a complete text in one go. */
export function cleanTerminalText(text: string): string {
	const cleaner = new TerminalTextCleaner();
	return cleaner.push(text) + cleaner.flush();
}

/**
 * Index just past the escape sequence starting at `start`, or undefined when the text ends
 * before the sequence does. Covers CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC ] … ESC \`)
 * and the short forms (`ESC 7`, `ESC ( B`).
 */
function sequenceEnd(text: string, start: number): number | undefined {
	const kind = text[start + 1];
	if (kind === undefined) return undefined;
	if (kind === '[') {
		for (let index = start + 2; index < text.length; index += 1) {
			const code = text.charCodeAt(index);
			if (code >= 0x40 && code <= 0x7e) return index + 1;
			// Anything outside parameter and intermediate bytes ends a malformed sequence here.
			if (code < 0x20 || code > 0x3f) return index;
		}
		return undefined;
	}
	if (kind === ']') {
		for (let index = start + 2; index < text.length; index += 1) {
			if (text[index] === bell) return index + 1;
			if (text[index] === escape) {
				const next = text[index + 1];
				if (next === undefined) return undefined;
				return next === '\\' ? index + 2 : index;
			}
		}
		return undefined;
	}
	const kindCode = kind.charCodeAt(0);
	if (kindCode >= 0x20 && kindCode <= 0x2f) {
		// ESC, intermediate bytes, then one final byte (e.g. ESC ( B selects a character set).
		for (let index = start + 2; index < text.length; index += 1) {
			const code = text.charCodeAt(index);
			if (code < 0x20 || code > 0x2f) return index + 1;
		}
		return undefined;
	}
	return start + 2;
}

const firstColumnSequences = new Set([`${escape}[G`, `${escape}[1G`, `${escape}[0G`]);

/** `ESC [ G`, `ESC [ 1 G` and `ESC [ 0 G` put the cursor in the first column: a redraw. */
function movesToFirstColumn(sequence: string): boolean {
	return firstColumnSequences.has(sequence);
}
