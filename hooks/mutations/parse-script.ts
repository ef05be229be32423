/**
 * Parses JavaScript and TypeScript (optionally with JSX) into an ESTree-shaped tree with acorn and
 * @sveltejs/acorn-typescript, tuned for speed: mutation classification parses two versions of a
 * file on every write.
 */
import * as acorn from 'acorn';
// A plain acorn plugin that merely lives under the Svelte org: no Svelte runtime, runs anywhere.
// eslint-disable-next-line no-restricted-imports -- the @sveltejs/** ban targets framework code
import { tsPlugin } from '@sveltejs/acorn-typescript';

/** An ESTree node as the parser produces it; classification reads it generically. */
export interface SyntaxNode {
	type: string;
	start: number;
	end: number;
	[key: string]: unknown;
}

export type ParseResult =
	{ ok: true; program: SyntaxNode } | { ok: false; message: string; line: number; column: number };

type ParserClass = typeof acorn.Parser;

interface TokenizerInternals {
	pos: number;
	keywords: RegExp;
	readWord1(): string;
	finishToken(type: acorn.TokenType, value: string): void;
}

interface RaisedSyntaxError extends SyntaxError {
	pos: number;
	raisedAt: number;
}

/**
 * acorn's `raise` computes a line/column by scanning from the start of the input, and the
 * TypeScript plugin raises (and catches) errors constantly while it speculates (`a < b` might open
 * type arguments). That made parsing quadratic: ~300 ms for 2,000 lines. These errors skip the
 * position lookup and the stack capture; the one error that escapes gets its position later.
 */
function cheapSyntaxError(position: number, raisedAt: number, message: string): RaisedSyntaxError {
	const error = Object.create(SyntaxError.prototype) as RaisedSyntaxError;
	error.message = message;
	error.pos = position;
	error.raisedAt = raisedAt;
	return error;
}

function withCheapErrors(Base: ParserClass): ParserClass {
	return class extends Base {
		raise(position: number, message: string): never {
			throw cheapSyntaxError(position, (this as unknown as TokenizerInternals).pos, message);
		}
		raiseRecoverable(position: number, message: string): never {
			throw cheapSyntaxError(position, (this as unknown as TokenizerInternals).pos, message);
		}
	} as unknown as ParserClass;
}

/**
 * The plugin's `readWord` builds `new RegExp(...)` for every identifier it reads (the largest
 * cost after the errors above). Same logic with the expression compiled once. The plugin is pinned
 * (1.0.13); if its shape ever changes this override steps aside rather than mis-tokenize.
 */
function withFastWords(Base: ParserClass): ParserClass {
	const keywordTypes = (acorn as unknown as { keywordTypes?: Record<string, acorn.TokenType> })
		.keywordTypes;
	const typescript = (
		Base as unknown as {
			acornTypeScript?: { tokTypes: Record<string, acorn.TokenType>; keywordsRegExp: RegExp };
		}
	).acornTypeScript;
	if (!keywordTypes || !typescript || !(typescript.keywordsRegExp instanceof RegExp)) return Base;
	const typescriptKeyword = new RegExp(typescript.keywordsRegExp.source);
	const typescriptTokenTypes = typescript.tokTypes;
	const nameType = acorn.tokTypes.name;
	return class extends Base {
		readWord(): void {
			const tokenizer = this as unknown as TokenizerInternals;
			const word = tokenizer.readWord1();
			let type = nameType;
			if (tokenizer.keywords.test(word)) type = keywordTypes[word] ?? nameType;
			else if (typescriptKeyword.test(word)) type = typescriptTokenTypes[word] ?? nameType;
			tokenizer.finishToken(type, word);
		}
	} as unknown as ParserClass;
}

interface NodeFactory {
	lastTokEnd: number;
	startNode(): SyntaxNode;
	startNodeAt(position: number, location?: unknown): SyntaxNode;
}

/** Stands in for `loc` on every node: the plugin reads `node.loc.start` in a few places. */
const detachedLocation = Object.freeze({ start: undefined, end: undefined });

/**
 * The plugin insists on `locations: true`, which allocates a position per token and three objects
 * per node that classification never reads (a third of parse time, most of its garbage). These
 * overrides let it run with locations off: the few places that touch `loc` see a frozen stand-in.
 * Should a plugin update touch `loc` elsewhere, the frozen object makes that throw a TypeError and
 * `parseScript` retries with locations on.
 */
function withoutLocations(Base: ParserClass): ParserClass {
	const base = Base.prototype as unknown as NodeFactory;
	return class extends Base {
		startNode(): SyntaxNode {
			const node = base.startNode.call(this);
			node.loc = detachedLocation;
			return node;
		}
		startNodeAt(position: number, location?: unknown): SyntaxNode {
			const node = base.startNodeAt.call(this, position, location);
			node.loc = detachedLocation;
			return node;
		}
		startNodeAtNode(node: SyntaxNode): SyntaxNode {
			return (this as unknown as NodeFactory).startNodeAt(node.start);
		}
		resetStartLocation(node: SyntaxNode, start: number): void {
			node.start = start;
		}
		resetEndLocation(node: SyntaxNode, end = (this as unknown as NodeFactory).lastTokEnd): void {
			node.end = end;
		}
	} as unknown as ParserClass;
}

interface Parsers {
	fast: ParserClass;
	standard: ParserClass;
}

const parsers = new Map<boolean, Parsers>();

function parsersFor(jsx: boolean): Parsers {
	let found = parsers.get(jsx);
	if (!found) {
		const standard = withFastWords(acorn.Parser.extend(withCheapErrors, tsPlugin({ jsx })));
		found = { standard, fast: withoutLocations(standard) };
		parsers.set(jsx, found);
	}
	return found;
}

type ParserConstructor = new (options: acorn.Options, input: string) => { parse(): acorn.Program };

const parseOptions: acorn.Options = { sourceType: 'module', ecmaVersion: 'latest' };

function parseProgram(source: string, jsx: boolean): acorn.Program {
	const { fast, standard } = parsersFor(jsx);
	try {
		// The constructor, not the static `parse`: that one forces locations on.
		return new (fast as unknown as ParserConstructor)(
			{ ...parseOptions, locations: false },
			source
		).parse();
	} catch (error) {
		if (error instanceof SyntaxError) throw error;
		return standard.parse(source, { ...parseOptions, locations: true });
	}
}

function lineAndColumn(source: string, offset: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	const end = Math.min(Math.max(offset, 0), source.length);
	for (let index = 0; index < end; index++) {
		const code = source.charCodeAt(index);
		if (code === 10 || code === 0x2028 || code === 0x2029) {
			line++;
			lineStart = index + 1;
		} else if (code === 13) {
			if (source.charCodeAt(index + 1) === 10) index++;
			line++;
			lineStart = index + 1;
		}
	}
	return { line, column: end - lineStart + 1 };
}

/**
 * Parses `source` as an ES module (TypeScript syntax allowed, JSX when `jsx`). Never throws: a
 * syntax error comes back with its 1-based line and column.
 */
export function parseScript(source: string, options: { jsx: boolean }): ParseResult {
	try {
		return { ok: true, program: parseProgram(source, options.jsx) as unknown as SyntaxNode };
	} catch (error) {
		// Anything else the parser throws (a plugin bug, a stack overflow on absurd nesting) is
		// still "could not parse": callers fall back to comparing text.
		const position = (error as Partial<RaisedSyntaxError>).pos ?? 0;
		const message = error instanceof Error ? error.message : String(error);
		return { ok: false, message, ...lineAndColumn(source, position) };
	}
}
