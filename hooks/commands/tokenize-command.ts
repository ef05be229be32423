/**
 * A small tokenizer for bash-like command lines. It does not run or expand anything: it splits a line
 * into simple commands (segments) so a classifier can look at every program the line would start,
 * including the ones hidden in `$( … )`, backticks, process substitutions and `( … )` subshells.
 * When the line cannot be read with confidence it says so (`error`) instead of guessing, so callers
 * can fail closed.
 */

export type ControlOperator = ';' | '&&' | '||' | '|' | '|&' | '&' | '\n';

export interface CommandRedirect {
	/** The operator as written, with its file descriptor when one is given: `>`, `2>>`, `2>&`, `<<`. */
	operator: string;
	/** The word after the operator with quotes removed; for `<<` and `<<-` the heredoc delimiter. */
	target: string;
	/** The heredoc text for `<<` and `<<-`, so a caller can inspect scripts fed to a shell. */
	body?: string;
}

export interface CommandSegment {
	/** Words with quotes and escapes removed; substitutions are kept as written, e.g. `$(date)`. */
	argv: string[];
	redirects: CommandRedirect[];
	/**
	 * Inner text of every `$( … )`, backtick, `<( … )`, `>( … )`, `( … )` subshell and unquoted
	 * heredoc substitution of this segment, in order, so each can be classified as a script itself.
	 */
	substitutions: string[];
	/** The control operator that ends this segment; `null` for the last one. */
	operator: ControlOperator | null;
}

export interface TokenizedCommand {
	segments: CommandSegment[];
	/**
	 * Set when the line cannot be read (unterminated quote, stray `)`, …). `segments` then holds what
	 * was read before the error, including the unfinished segment, so a caller can still spot danger.
	 */
	error?: string;
}

/** Thrown inside the tokenizer and turned into `TokenizedCommand.error` at the boundary. */
class TokenizeError extends Error {}

/** Words that may precede a command without being the command (`if`, `!`, `{`, …). */
const leadingReservedWords = new Set([
	'if',
	'then',
	'else',
	'elif',
	'do',
	'while',
	'until',
	'!',
	'{',
	'time'
]);

/** Redirect operators, longest first so `>>` wins over `>`. */
const redirectOperators = ['<<<', '<<-', '<<', '<&', '<>', '<', '>>', '>&', '>|', '>'];

export function tokenizeCommand(command: string): TokenizedCommand {
	const tokenizer = new CommandTokenizer(command);
	try {
		tokenizer.run();
		return { segments: tokenizer.segments };
	} catch (error) {
		if (error instanceof TokenizeError) {
			return { segments: tokenizer.partialSegments(), error: error.message };
		}
		throw error;
	}
}

/** Splits segments into pipelines: consecutive segments joined by `|` or `|&`. */
export function groupPipelines(segments: CommandSegment[]): CommandSegment[][] {
	const pipelines: CommandSegment[][] = [];
	let current: CommandSegment[] = [];
	for (const segment of segments) {
		current.push(segment);
		if (segment.operator !== '|' && segment.operator !== '|&') {
			pipelines.push(current);
			current = [];
		}
	}
	if (current.length > 0) pipelines.push(current);
	return pipelines;
}

function emptySegment(): CommandSegment {
	return { argv: [], redirects: [], substitutions: [], operator: null };
}

function isSegmentEmpty(segment: CommandSegment): boolean {
	return (
		segment.argv.length === 0 &&
		segment.redirects.length === 0 &&
		segment.substitutions.length === 0
	);
}

interface PendingHeredoc {
	segment: CommandSegment;
	redirect: CommandRedirect;
	stripTabs: boolean;
	/** Unquoted delimiters mean the body is expanded, so `$( … )` inside it runs. */
	expands: boolean;
}

class CommandTokenizer {
	readonly segments: CommandSegment[] = [];
	private position = 0;
	private current: CommandSegment = emptySegment();
	private word = '';
	private wordStarted = false;
	private wordQuoted = false;
	private pendingRedirect: string | null = null;
	private pendingHeredocs: PendingHeredoc[] = [];
	/** Inside `[[ … ]]`, `<`, `>`, `&&`, `||` and parens are test operators, not shell syntax. */
	private insideDoubleBracket = false;

	constructor(private readonly text: string) {}

	run(): void {
		const text = this.text;
		while (this.position < text.length) {
			const character = text[this.position]!;
			const next = text[this.position + 1];
			if (character === ' ' || character === '\t' || character === '\r') {
				this.finishWord();
				this.position += 1;
			} else if (character === '\n') {
				this.endSegment('\n', 1);
				this.readHeredocBodies();
			} else if (character === '#' && !this.wordStarted) {
				const end = text.indexOf('\n', this.position);
				this.position = end === -1 ? text.length : end;
			} else if (character === '\\') {
				if (next === undefined) throw new TokenizeError('the command ends with a lone backslash');
				if (next !== '\n') this.append(next, true);
				this.position += 2;
			} else if (character === "'") {
				const end = text.indexOf("'", this.position + 1);
				if (end === -1) throw new TokenizeError('unterminated single quote');
				this.append(text.slice(this.position + 1, end), true);
				this.position = end + 1;
			} else if (character === '"') {
				this.position = this.readDoubleQuoted(this.position);
			} else if (character === '`') {
				this.position = this.readBacktick(this.position);
			} else if (character === '$') {
				this.position = this.readDollar(this.position, false);
			} else if (this.insideDoubleBracket && '<>()'.includes(character)) {
				this.pushStandaloneWord(character, 1);
			} else if (
				this.insideDoubleBracket &&
				(character === '&' || character === '|') &&
				next === character
			) {
				this.pushStandaloneWord(character + character, 2);
			} else if (character === '(') {
				this.readOpenParen();
			} else if (character === ')') {
				throw new TokenizeError('unexpected `)`');
			} else if ((character === '<' || character === '>') && next === '(' && !this.wordStarted) {
				this.readProcessSubstitution();
			} else if (character === '<' || character === '>') {
				this.readRedirect();
			} else if (character === '&') {
				if (next === '&') this.endSegment('&&', 2);
				else if (next === '>') this.readRedirect();
				else this.endSegment('&', 1);
			} else if (character === '|') {
				if (next === '|') this.endSegment('||', 2);
				else if (next === '&') this.endSegment('|&', 2);
				else this.endSegment('|', 1);
			} else if (character === ';') {
				// `;;`, `;&` and `;;&` end case branches; for our purpose they separate commands like `;`.
				let length = 1;
				while (
					length < 3 &&
					(text[this.position + length] === ';' || text[this.position + length] === '&')
				) {
					length += 1;
				}
				this.endSegment(';', length);
			} else {
				this.append(character, false);
				this.position += 1;
			}
		}
		this.finishWord();
		if (this.pendingRedirect !== null) {
			throw new TokenizeError(`redirect \`${this.pendingRedirect}\` has no target`);
		}
		const previous = this.segments.at(-1);
		if (isSegmentEmpty(this.current) && previous !== undefined) {
			const dangling = previous.operator;
			if (dangling === '|' || dangling === '|&' || dangling === '&&' || dangling === '||') {
				throw new TokenizeError(`the command ends with \`${dangling}\``);
			}
		}
		if (!isSegmentEmpty(this.current)) this.segments.push(this.current);
		this.current = emptySegment();
	}

	/** Everything read so far, the unfinished segment included; used after an error. */
	partialSegments(): CommandSegment[] {
		if (this.wordStarted && this.pendingRedirect === null) this.current.argv.push(this.word);
		this.word = '';
		this.wordStarted = false;
		const segments = [...this.segments];
		if (!isSegmentEmpty(this.current)) segments.push(this.current);
		return segments;
	}

	private append(text: string, quoted: boolean): void {
		this.word += text;
		this.wordStarted = true;
		if (quoted) this.wordQuoted = true;
	}

	private finishWord(): void {
		if (!this.wordStarted) return;
		const word = this.word;
		const quoted = this.wordQuoted;
		this.word = '';
		this.wordStarted = false;
		this.wordQuoted = false;
		if (this.pendingRedirect !== null) {
			const operator = this.pendingRedirect;
			this.pendingRedirect = null;
			const redirect: CommandRedirect = { operator, target: word };
			this.current.redirects.push(redirect);
			if (operator.endsWith('<<') || operator.endsWith('<<-')) {
				this.pendingHeredocs.push({
					segment: this.current,
					redirect,
					stripTabs: operator.endsWith('<<-'),
					expands: !quoted
				});
			}
			return;
		}
		if (!quoted && word === '[[' && this.atCommandPosition()) this.insideDoubleBracket = true;
		else if (!quoted && word === ']]' && this.insideDoubleBracket) this.insideDoubleBracket = false;
		this.current.argv.push(word);
	}

	/** True when no command word has been seen yet in this segment (only reserved words). */
	private atCommandPosition(): boolean {
		return this.current.argv.every((word) => leadingReservedWords.has(word));
	}

	private pushStandaloneWord(word: string, length: number): void {
		this.finishWord();
		this.current.argv.push(word);
		this.position += length;
	}

	private endSegment(operator: ControlOperator, length: number): void {
		this.finishWord();
		if (this.pendingRedirect !== null) {
			throw new TokenizeError(`redirect \`${this.pendingRedirect}\` has no target`);
		}
		this.insideDoubleBracket = false;
		this.position += length;
		if (isSegmentEmpty(this.current)) {
			if (operator === '|' || operator === '|&' || operator === '&&' || operator === '||') {
				throw new TokenizeError(`unexpected \`${operator}\` with no command before it`);
			}
			return;
		}
		this.current.operator = operator;
		this.segments.push(this.current);
		this.current = emptySegment();
	}

	private readRedirect(): void {
		let descriptor = '';
		if (this.wordStarted && !this.wordQuoted && /^\d+$/.test(this.word)) {
			descriptor = this.word;
			this.word = '';
			this.wordStarted = false;
		} else {
			this.finishWord();
		}
		if (this.pendingRedirect !== null) {
			throw new TokenizeError(`redirect \`${this.pendingRedirect}\` has no target`);
		}
		const rest = this.text.slice(this.position);
		let operator: string | undefined;
		if (rest.startsWith('&>>')) operator = '&>>';
		else if (rest.startsWith('&>')) operator = '&>';
		else operator = redirectOperators.find((candidate) => rest.startsWith(candidate));
		if (operator === undefined) throw new TokenizeError('unreadable redirect');
		this.position += operator.length;
		this.pendingRedirect = descriptor + operator;
	}

	private readOpenParen(): void {
		if (!this.wordStarted && this.pendingRedirect === null && this.atCommandPosition()) {
			const close = findClosingParen(this.text, this.position);
			if (close === -1) throw new TokenizeError('unterminated `(`');
			this.current.substitutions.push(this.text.slice(this.position + 1, close));
			this.position = close + 1;
			return;
		}
		// `name() { … }` defines a function; anything else with a `(` here is a syntax error in bash.
		let lookahead = this.position + 1;
		while (this.text[lookahead] === ' ' || this.text[lookahead] === '\t') lookahead += 1;
		if (this.text[lookahead] === ')' && this.pendingRedirect === null) {
			this.finishWord();
			this.current.argv.push('()');
			this.position = lookahead + 1;
			return;
		}
		throw new TokenizeError('unexpected `(`');
	}

	private readProcessSubstitution(): void {
		const close = findClosingParen(this.text, this.position + 1);
		if (close === -1) throw new TokenizeError(`unterminated \`${this.text[this.position]}(\``);
		this.current.substitutions.push(this.text.slice(this.position + 2, close));
		this.append(this.text.slice(this.position, close + 1), false);
		this.position = close + 1;
	}

	/** Reads `"…"` starting at the opening quote; returns the index after the closing quote. */
	private readDoubleQuoted(start: number): number {
		const text = this.text;
		let index = start + 1;
		this.append('', true);
		for (;;) {
			const character = text[index];
			if (character === undefined) throw new TokenizeError('unterminated double quote');
			if (character === '"') return index + 1;
			if (character === '\\') {
				const next = text[index + 1];
				if (next === undefined) throw new TokenizeError('unterminated double quote');
				if (next === '\n') {
					index += 2;
				} else if ('$`"\\'.includes(next)) {
					this.append(next, true);
					index += 2;
				} else {
					this.append('\\', true);
					index += 1;
				}
			} else if (character === '$') {
				index = this.readDollar(index, true);
			} else if (character === '`') {
				index = this.readBacktick(index);
			} else {
				this.append(character, true);
				index += 1;
			}
		}
	}

	/** Reads a backtick substitution starting at the opening backtick; returns the index after it. */
	private readBacktick(start: number): number {
		const close = findClosingBacktick(this.text, start);
		if (close === -1) throw new TokenizeError('unterminated backtick');
		const raw = this.text.slice(start, close + 1);
		this.current.substitutions.push(unescapeBacktick(this.text.slice(start + 1, close)));
		this.append(raw, false);
		return close + 1;
	}

	/** Reads whatever starts with `$` at `start`; returns the index after it. */
	private readDollar(start: number, insideDoubleQuotes: boolean): number {
		const text = this.text;
		const next = text[start + 1];
		if (next === '(') {
			const close = findClosingParen(text, start + 1);
			const arithmetic = text[start + 2] === '(';
			if (close === -1)
				throw new TokenizeError(arithmetic ? 'unterminated `$((`' : 'unterminated `$(`');
			const inner = text.slice(start + 2, close);
			if (arithmetic) this.current.substitutions.push(...collectSubstitutions(inner));
			else this.current.substitutions.push(inner);
			this.append(text.slice(start, close + 1), insideDoubleQuotes);
			return close + 1;
		}
		if (next === '{') {
			const close = findClosing(text, start + 1, '{', '}');
			if (close === -1) throw new TokenizeError('unterminated `${`');
			this.current.substitutions.push(...collectSubstitutions(text.slice(start + 2, close)));
			this.append(text.slice(start, close + 1), insideDoubleQuotes);
			return close + 1;
		}
		if (next === "'" && !insideDoubleQuotes) return this.readAnsiCQuoted(start);
		if (next === '"' && !insideDoubleQuotes) return this.readDoubleQuoted(start + 1);
		this.append('$', insideDoubleQuotes);
		return start + 1;
	}

	/** Reads `$'…'` (ANSI-C quoting) and decodes its common escapes. */
	private readAnsiCQuoted(start: number): number {
		const text = this.text;
		let index = start + 2;
		let value = '';
		for (;;) {
			const character = text[index];
			if (character === undefined) throw new TokenizeError("unterminated `$'` quote");
			if (character === "'") break;
			if (character === '\\') {
				const escaped = text[index + 1];
				if (escaped === undefined) throw new TokenizeError("unterminated `$'` quote");
				const decoded = decodeAnsiEscape(text, index + 1);
				value += decoded.value;
				index = decoded.next;
			} else {
				value += character;
				index += 1;
			}
		}
		this.append(value, true);
		return index + 1;
	}

	private readHeredocBodies(): void {
		const text = this.text;
		for (const heredoc of this.pendingHeredocs) {
			const delimiter = heredoc.redirect.target;
			const lines: string[] = [];
			while (this.position < text.length) {
				const end = text.indexOf('\n', this.position);
				const rawLine = text.slice(this.position, end === -1 ? text.length : end);
				this.position = end === -1 ? text.length : end + 1;
				const line = heredoc.stripTabs ? rawLine.replace(/^\t+/, '') : rawLine;
				if (line === delimiter) break;
				lines.push(line);
			}
			const body = lines.join('\n');
			heredoc.redirect.body = body;
			if (heredoc.expands) heredoc.segment.substitutions.push(...collectSubstitutions(body));
		}
		this.pendingHeredocs = [];
	}
}

const ansiEscapes: Record<string, string> = {
	n: '\n',
	t: '\t',
	r: '\r',
	a: '\u0007',
	b: '\b',
	e: '\u001b',
	E: '\u001b',
	f: '\f',
	v: '\v',
	'\\': '\\',
	"'": "'",
	'"': '"',
	'?': '?'
};

function decodeAnsiEscape(text: string, index: number): { value: string; next: number } {
	const escaped = text[index]!;
	const simple = ansiEscapes[escaped];
	if (simple !== undefined) return { value: simple, next: index + 1 };
	if (escaped === 'x') {
		const hex = /^[0-9a-fA-F]{1,2}/.exec(text.slice(index + 1))?.[0];
		if (hex) return { value: String.fromCharCode(parseInt(hex, 16)), next: index + 1 + hex.length };
	}
	const octal = /^[0-7]{1,3}/.exec(text.slice(index))?.[0];
	if (octal) return { value: String.fromCharCode(parseInt(octal, 8)), next: index + octal.length };
	return { value: '\\' + escaped, next: index + 1 };
}

function unescapeBacktick(inner: string): string {
	return inner.replace(/\\([\\`$])/g, '$1');
}

/** Quotes inside substitutions inside quotes… deeper than this are reported as unterminated. */
const maximumScanNesting = 64;

/**
 * Index of the `)` matching the `(` at `openIndex`, skipping quotes and nested substitutions; -1 if
 * there is none (or the nesting is absurdly deep).
 */
function findClosingParen(text: string, openIndex: number, nesting = 0): number {
	return findClosing(text, openIndex, '(', ')', nesting);
}

function findClosing(
	text: string,
	openIndex: number,
	open: string,
	close: string,
	nesting = 0
): number {
	if (nesting > maximumScanNesting) return -1;
	let depth = 1;
	let index = openIndex + 1;
	while (index < text.length) {
		const character = text[index]!;
		if (character === '\\') {
			index += 2;
		} else if (character === "'") {
			const end = text.indexOf("'", index + 1);
			if (end === -1) return -1;
			index = end + 1;
		} else if (character === '"') {
			const end = findClosingDoubleQuote(text, index, nesting + 1);
			if (end === -1) return -1;
			index = end + 1;
		} else if (character === '`') {
			const end = findClosingBacktick(text, index);
			if (end === -1) return -1;
			index = end + 1;
		} else if (character === '#' && (index === 0 || /\s/.test(text[index - 1]!))) {
			const end = text.indexOf('\n', index);
			if (end === -1) return -1;
			index = end;
		} else if (character === open) {
			depth += 1;
			index += 1;
		} else if (character === close) {
			depth -= 1;
			if (depth === 0) return index;
			index += 1;
		} else {
			index += 1;
		}
	}
	return -1;
}

function findClosingDoubleQuote(text: string, openIndex: number, nesting: number): number {
	if (nesting > maximumScanNesting) return -1;
	let index = openIndex + 1;
	while (index < text.length) {
		const character = text[index]!;
		if (character === '\\') {
			index += 2;
		} else if (character === '"') {
			return index;
		} else if (character === '$' && text[index + 1] === '(') {
			const end = findClosingParen(text, index + 1, nesting + 1);
			if (end === -1) return -1;
			index = end + 1;
		} else if (character === '`') {
			const end = findClosingBacktick(text, index);
			if (end === -1) return -1;
			index = end + 1;
		} else {
			index += 1;
		}
	}
	return -1;
}

function findClosingBacktick(text: string, openIndex: number): number {
	let index = openIndex + 1;
	while (index < text.length) {
		const character = text[index]!;
		if (character === '\\') index += 2;
		else if (character === '`') return index;
		else index += 1;
	}
	return -1;
}

/**
 * Inner texts of `$( … )` and backticks in text where quotes do not protect them (heredoc bodies,
 * arithmetic, `${…}` defaults). An unterminated one is returned whole so it still gets classified.
 */
export function collectSubstitutions(text: string, nesting = 0): string[] {
	if (nesting > maximumScanNesting) return [text];
	const found: string[] = [];
	let index = 0;
	while (index < text.length) {
		const character = text[index]!;
		if (character === '\\') {
			index += 2;
		} else if (character === '$' && text[index + 1] === '(') {
			const close = findClosingParen(text, index + 1);
			if (close === -1) {
				found.push(text.slice(index + 2));
				return found;
			}
			const inner = text.slice(index + 2, close);
			if (text[index + 2] === '(') found.push(...collectSubstitutions(inner, nesting + 1));
			else found.push(inner);
			index = close + 1;
		} else if (character === '`') {
			const close = findClosingBacktick(text, index);
			if (close === -1) {
				found.push(unescapeBacktick(text.slice(index + 1)));
				return found;
			}
			found.push(unescapeBacktick(text.slice(index + 1, close)));
			index = close + 1;
		} else {
			index += 1;
		}
	}
	return found;
}
