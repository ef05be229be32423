import { concatenateBytes } from '../bytes/concatenate-bytes.js';
import { AsciiChunk, asciiText, type LineDecoding } from '../bytes/line-decoding.js';
import { decodeUtf8 } from '../bytes/utf8-text.js';

/** One line of a jsonl file: its 1-based number, its text, and its value or why it has none. */
export type JsonlEntry =
	| { line: number; text: string; bytes?: Uint8Array | null; value: unknown; error?: undefined }
	| { line: number; text: string; bytes?: Uint8Array | null; value?: undefined; error: string };

/**
 * Splits jsonl text into entries. Empty lines are skipped (an editor may add one at the end);
 * anything else must parse. Only `\r\n` counts as a line break besides `\n`, so a stray `\r` at the
 * end of a line stays part of it (and fails verify's canonical-form check).
 */
export function readJsonl(text: string): JsonlEntry[] {
	const entries: JsonlEntry[] = [];
	const lines = text.split(/\r?\n/);
	for (let position = 0; position < lines.length; position++) {
		const lineText = lines[position] as string;
		if (lineText === '') continue;
		const line = position + 1;
		try {
			entries.push({ line, text: lineText, value: JSON.parse(lineText) as unknown });
		} catch (error) {
			entries.push({ line, text: lineText, error: `not valid JSON (${(error as Error).message})` });
		}
	}
	return entries;
}

/** One non-empty line of jsonl text and its 1-based number, not yet parsed. */
export interface JsonlLine {
	line: number;
	text: string;
	/**
	 * The line's bytes when they are all ASCII and `text` was made from them one character a byte
	 * (line-decoding.ts), so a range of the text is the same range of the bytes; else null.
	 */
	bytes?: Uint8Array | null;
	/**
	 * True when the line's bytes were not well-formed UTF-8: its text has U+FFFD where they were,
	 * the same text as bytes `EF BF BD` there would give. No writer of jsonl makes such a line (a
	 * string's lone surrogate is written as `EF BF BD`), so the line's bytes were changed.
	 */
	malformed?: boolean;
}

/** Why a line with malformed UTF-8 is not read (see JsonlLine.malformed). */
export const malformedUtf8Error = 'not valid UTF-8 (its bytes were changed after it was written)';

/**
 * Parses one line the way readJsonl does (its ASCII bytes, when known, kept with it); a line whose
 * bytes were not valid UTF-8 is not parsed: its text is not what its bytes say.
 */
export function parseJsonlLine({ line, text, bytes = null, malformed }: JsonlLine): JsonlEntry {
	if (malformed) return { line, text, bytes, error: malformedUtf8Error };
	try {
		return { line, text, bytes, value: JSON.parse(text) as unknown };
	} catch (error) {
		return { line, text, bytes, error: `not valid JSON (${(error as Error).message})` };
	}
}

/**
 * jsonl as one string, as the whole file's UTF-8 bytes (read a megabyte at a time, see
 * megabyteChunks), or as chunks of text or UTF-8 bytes (a file read piece by piece).
 */
export type JsonlSource =
	string | Uint8Array | AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

/** Where a reader starts when it reads a part of a file (verify-parts.ts), not the whole. */
export interface JsonlReadStart {
	/** Lines of the file before the part (empty lines counted): the part's first line is this + 1. */
	linesBefore: number;
}

/**
 * Reads jsonl lines one at a time, with the same line rules as readJsonl (`\n` or `\r\n` ends a
 * line, empty lines are skipped but counted, a lone `\r` stays in the line), so a 91 MB file is
 * never split into 100k strings at once. Chunks may end anywhere: inside a line, between `\r` and
 * `\n`, or inside a UTF-8 sequence. `take()` is synchronous; it returns `'more'` when the buffered
 * text has no complete line left and `fill()` must be awaited first.
 */
export class JsonlLineReader {
	/** The current chunk's text (the whole text for a string source). */
	#text = '';
	#position = 0;
	/** The start of a line that the previous chunks left unfinished. */
	#pending = '';
	#line = 0;
	#ended = false;
	readonly #chunks: Iterator<string | Uint8Array> | AsyncIterator<string | Uint8Array> | null;
	/**
	 * `ignoreBOM`: each line is decoded on its own, and a decoder that strips a BOM would strip one
	 * at the start of every line, so a line edited to begin with U+FEFF would read as the line
	 * without it. Only the stream's own first BOM is dropped (#bomChecked), as decoding the whole
	 * text does.
	 */
	readonly #decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
	/** The same, refusing malformed bytes: tried first, so a malformed line is known as such. */
	readonly #strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
	#bomChecked = false;
	/** Bytes after the last newline of the chunks read so far. */
	#pendingBytes = new Uint8Array(0);
	/** The line glued together from the last chunk's unfinished end and this chunk's start. */
	#gluedLine: string | null = null;
	/**
	 * The last byte chunk, its lines decoded one at a time as they are taken: a chunk's 1,500 lines
	 * decoded at once stayed alive together through the young generation's collections, and
	 * copying them there made verify in a fresh Worker a second slower.
	 */
	#bytes: Uint8Array | null = null;
	/** The same chunk, for its ASCII lines' text (ascii-chunks decoding only). */
	#asciiChunk: AsciiChunk | null = null;
	#bytePosition = 0;
	#bytesAreLast = false;
	readonly #asciiChunks: boolean;

	/**
	 * `decoding`: how byte lines become text (line-decoding.ts); the same text either way. `start`:
	 * the source is a part of a file that begins after `linesBefore` lines, so lines are numbered
	 * from there and a U+FEFF at its start is text, not the file's BOM.
	 */
	constructor(
		source: JsonlSource,
		options: { decoding?: LineDecoding; start?: JsonlReadStart } = {}
	) {
		this.#asciiChunks = (options.decoding ?? 'ascii-chunks') === 'ascii-chunks';
		if (options.start) {
			this.#line = options.start.linesBefore;
			this.#bomChecked = true;
		}
		if (source instanceof Uint8Array) {
			this.#chunks = megabyteChunks(source);
		} else if (typeof source === 'string') {
			this.#text = source;
			this.#ended = true;
			this.#chunks = null;
		} else if (Symbol.asyncIterator in source) {
			this.#chunks = source[Symbol.asyncIterator]();
		} else {
			this.#chunks = source[Symbol.iterator]();
		}
	}

	/** The file's number of the last line read, empty lines counted (`linesBefore` before any). */
	get lastLine(): number {
		return this.#line;
	}

	/** The next non-empty line, `null` at the end, or `'more'` when `fill()` is needed. */
	take(): JsonlLine | null | 'more' {
		for (;;) {
			if (this.#gluedLine !== null) {
				const lineText = this.#gluedLine;
				const malformed = this.#gluedMalformed;
				this.#gluedLine = null;
				this.#gluedMalformed = false;
				this.#line++;
				if (lineText !== '') return { line: this.#line, text: lineText, bytes: null, malformed };
				continue;
			}
			if (this.#bytes !== null) {
				// A byte chunk, decoded line by line.
				const bytes = this.#bytes;
				const start = this.#bytePosition;
				const newline = bytes.indexOf(10, start);
				if (newline >= 0) {
					this.#bytePosition = newline + 1;
					const lineText = this.#lineText(bytes, start, newline);
					this.#line++;
					if (lineText !== '')
						return {
							line: this.#line,
							text: lineText,
							bytes: this.#asciiBytes,
							malformed: this.#malformed
						};
					continue;
				}
				this.#bytes = null;
				if (this.#bytesAreLast) {
					if (start < bytes.length) {
						// An unfinished last line keeps a final carriage return: only CRLF ends a line.
						this.#gluedLine = this.#decode(bytes.subarray(start));
						this.#gluedMalformed = this.#malformed;
					}
					continue;
				}
				// Kept for the next chunk; the text below is empty, so 'more' is asked for.
				this.#pendingBytes = start < bytes.length ? bytes.slice(start) : new Uint8Array(0);
			}
			const text = this.#text;
			const newline = text.indexOf('\n', this.#position);
			// Only a line begun in bytes (#pending after a byte chunk) can hold malformed UTF-8.
			const malformed = this.#pendingMalformed;
			let lineText: string;
			if (newline >= 0) {
				// Only a line that began in an earlier chunk is glued together: the chunk itself stays
				// one flat string that every line is a slice of.
				lineText = this.#pending + text.slice(this.#position, newline);
				this.#pending = '';
				this.#pendingMalformed = false;
				this.#position = newline + 1;
				if (lineText.charCodeAt(lineText.length - 1) === 13) lineText = lineText.slice(0, -1);
			} else if (this.#ended) {
				lineText = this.#pending + text.slice(this.#position);
				this.#pending = '';
				this.#pendingMalformed = false;
				this.#position = text.length;
				if (lineText === '') return null;
			} else {
				this.#pending += text.slice(this.#position);
				this.#text = '';
				this.#position = 0;
				return 'more';
			}
			this.#line++;
			if (lineText !== '') return { line: this.#line, text: lineText, bytes: null, malformed };
		}
	}

	/** Reads the next chunk (the unfinished line is kept apart). */
	async fill(): Promise<void> {
		if (this.#ended || !this.#chunks) return;
		const next = await this.#chunks.next();
		this.#position = 0;
		if (next.done) {
			this.#decodeBytes(new Uint8Array(0), true);
			this.#ended = true;
			return;
		}
		const chunk = next.value;
		if (typeof chunk === 'string') {
			// A string chunk after byte chunks: the line their bytes left unfinished goes on in it
			// (#pending), as in the whole text. Fewer than three bytes kept to tell a BOM from text
			// are no BOM, and the stream has begun: a later U+FEFF is text.
			if (this.#pendingBytes.length > 0) {
				this.#pending += this.#decode(this.#pendingBytes);
				this.#pendingMalformed ||= this.#malformed;
				this.#pendingBytes = new Uint8Array(0);
			}
			// An empty string has not begun the text: a BOM in the bytes after it is still the first.
			if (chunk !== '') this.#bomChecked = true;
			this.#text = chunk;
		} else this.#decodeBytes(chunk, false);
	}

	/**
	 * Takes the next bytes: their complete lines are decoded by `take`, each on its own, and the
	 * rest is kept for the next chunk (a newline byte is never part of a multi-byte UTF-8
	 * sequence). One line at a time, not the whole chunk: a single non-ASCII character (an ellipsis in a preview) would make
	 * the chunk's text two bytes per character, and decoding, parsing and hashing all slower
	 * (measured: 600 ms for the 65 MB audit.jsonl in one piece, 50 ms line by line).
	 */
	#decodeBytes(chunk: Uint8Array, last: boolean): void {
		let bytes = chunk;
		this.#text = '';
		this.#bytes = null;
		if (!this.#bomChecked) {
			if (this.#pendingBytes.length > 0) {
				// Only while waiting to tell a BOM from text: a few bytes.
				bytes = concatenateBytes([this.#pendingBytes, chunk]);
				this.#pendingBytes = new Uint8Array(0);
			}
			const bom = [0xef, 0xbb, 0xbf];
			const couldBeBom = bom
				.slice(0, Math.min(3, bytes.length))
				.every((byte, index) => bytes[index] === byte);
			if (couldBeBom && bytes.length < 3 && !last) {
				// Too few bytes yet to tell a BOM from text: wait for the next chunk.
				this.#pendingBytes = bytes.slice();
				return;
			}
			this.#bomChecked = true;
			if (couldBeBom && bytes.length >= 3) bytes = bytes.subarray(3);
		}
		let start = 0;
		// The line left unfinished by the last chunk is the only one glued together: copying the
		// whole chunk after it cost a fresh megabyte per chunk, a third of verify's time. It began
		// in bytes (#pendingBytes) or, after a string chunk, in text (#pending), which comes first.
		if (this.#pendingBytes.length > 0 || this.#pending !== '') {
			const newline = bytes.indexOf(10);
			if (newline < 0 && !last) {
				this.#pendingBytes = concatenateBytes([this.#pendingBytes, bytes]);
				return;
			}
			const line = concatenateBytes([
				this.#pendingBytes,
				bytes.subarray(0, newline < 0 ? bytes.length : newline)
			]);
			let lineText = this.#pending + this.#decode(line);
			this.#gluedMalformed = this.#pendingMalformed || this.#malformed;
			this.#pendingMalformed = false;
			// Only CRLF ends a line: a lone CR at the very end stays.
			if (newline >= 0 && lineText.charCodeAt(lineText.length - 1) === 13)
				lineText = lineText.slice(0, -1);
			this.#gluedLine = lineText;
			this.#pending = '';
			this.#pendingBytes = new Uint8Array(0);
			start = newline < 0 ? bytes.length : newline + 1;
		}
		this.#bytes = bytes;
		this.#asciiChunk = this.#asciiChunks ? new AsciiChunk(bytes) : null;
		this.#bytePosition = start;
		this.#bytesAreLast = last;
	}

	/**
	 * The text of the chunk's line `[start, newline)`, without the carriage return of a CRLF: an
	 * ASCII line's a slice of the chunk's text (ascii-chunks), any other decoded on its own.
	 */
	#lineText(bytes: Uint8Array, start: number, newline: number): string {
		const end = newline > start && bytes[newline - 1] === 13 ? newline - 1 : newline;
		this.#malformed = false;
		if (end === start) return '';
		const ascii = this.#asciiChunk?.text(start, end);
		if (ascii != null) {
			this.#asciiBytes = bytes.subarray(start, end);
			return ascii;
		}
		return this.#decode(bytes.subarray(start, end));
	}

	/** The bytes the last #decode made its text from one character a byte, or null. */
	#asciiBytes: Uint8Array | null = null;
	/** Whether the bytes of the last #decode were malformed UTF-8 (see JsonlLine.malformed). */
	#malformed = false;
	/** The same for the glued line, and for the unfinished line's text in #pending. */
	#gluedMalformed = false;
	#pendingMalformed = false;

	#decode(bytes: Uint8Array): string {
		if (!this.#asciiChunks) {
			this.#asciiBytes = null;
			try {
				this.#malformed = false;
				const text = this.#strictDecoder.decode(bytes);
				// Well-formed UTF-8 is one character a byte only when every byte is ASCII (any other
				// character takes two bytes or more): then the bytes go with the line (JsonlLine.bytes).
				if (text.length === bytes.length) this.#asciiBytes = bytes;
				return text;
			} catch {
				this.#malformed = true;
				return this.#decoder.decode(bytes);
			}
		}
		const ascii = asciiText(bytes);
		this.#asciiBytes = ascii === null ? null : bytes;
		if (ascii !== null) {
			this.#malformed = false;
			return ascii;
		}
		const decoded = decodeUtf8(bytes);
		this.#malformed = decoded.malformed;
		return decoded.text;
	}

	/** The next non-empty line or null at the end, filling as needed. */
	async next(): Promise<JsonlLine | null> {
		for (;;) {
			const taken = this.take();
			if (taken !== 'more') return taken;
			await this.fill();
		}
	}
}

/** Counts the lines of jsonl text (for progress): the number of `\n`, plus one unfinished line. */
export function countLines(text: string): number {
	let count = 0;
	let position = text.indexOf('\n');
	while (position >= 0) {
		count++;
		position = text.indexOf('\n', position + 1);
	}
	return text.length > 0 && !text.endsWith('\n') ? count + 1 : count;
}

/**
 * jsonl bytes as the chunks JsonlLineReader reads best: a megabyte at a time (decoded line by
 * line), so a 65 MB file is never one string, nor 100k line strings alive at once.
 */
export function* megabyteChunks(bytes: Uint8Array): Generator<Uint8Array> {
	for (let start = 0; start < bytes.length; start += 1 << 20)
		// Plain Uint8Array views, also of a Node Buffer: the reader takes a subarray of every line,
		// and a Buffer's subarray builds a Buffer each time.
		yield new Uint8Array(
			bytes.buffer,
			bytes.byteOffset + start,
			Math.min(1 << 20, bytes.length - start)
		);
}

/** Counts the lines of jsonl bytes (for progress): the number of `\n`, plus one unfinished line. */
export function countLinesOfBytes(bytes: Uint8Array): number {
	let count = 0;
	for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
	return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? count + 1 : count;
}
