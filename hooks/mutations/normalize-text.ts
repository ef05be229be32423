/**
 * Reduces a text file to what its language considers significant: comments removed, whitespace
 * reduced as far as the file type allows (see TextSyntax), quoted strings kept exactly. Two
 * versions with the same normal form differ only in comments and formatting.
 */
import type { TextSyntax } from './text-syntax.js';

/**
 * For `tight` spacing: a space matters between two word characters (`a b`) and between two
 * operator characters that could fuse into another operator (`< -` vs `<-`), never next to a
 * bracket or separator.
 */
type CharacterKind = 'word' | 'operator' | 'separator';

interface NormalizedLine {
	indentation: string;
	content: string;
}

function isHorizontalWhitespace(character: string): boolean {
	return (
		character === ' ' ||
		character === '\t' ||
		character === '\r' ||
		character === '\f' ||
		character === '\v'
	);
}

function isWhitespace(character: string | undefined): boolean {
	return character === '\n' || (character !== undefined && isHorizontalWhitespace(character));
}

function kindOf(character: string): CharacterKind {
	const code = character.charCodeAt(0);
	const isWordCharacter =
		code > 0x7f || // letters and digits of every other script
		(code >= 0x30 && code <= 0x39) ||
		(code >= 0x41 && code <= 0x5a) ||
		(code >= 0x61 && code <= 0x7a) ||
		character === '_' ||
		character === '$';
	if (isWordCharacter) return 'word';
	return '()[]{},;'.includes(character) ? 'separator' : 'operator';
}

/** Where the string quoted at `start` ends (exclusive); an unterminated one ends with its line. */
function endOfString(text: string, start: number, quote: string): number {
	const triple = quote.repeat(3);
	if (quote !== '`' && text.startsWith(triple, start)) {
		for (let index = start + 3; index < text.length; index++) {
			if (text[index] === '\\') index++;
			else if (text.startsWith(triple, index)) return index + 3;
		}
		return text.length;
	}
	for (let index = start + 1; index < text.length; index++) {
		const character = text[index];
		if (character === '\\') index++;
		else if (character === quote) return index + 1;
		else if (character === '\n' && quote !== '`') return index;
	}
	return text.length;
}

function indentationWidth(indentation: string): number {
	let width = 0;
	for (const character of indentation)
		width = character === '\t' ? width + 8 - (width % 8) : width + 1;
	return width;
}

/** Replaces indentation widths by nesting depth, as Python's INDENT/DEDENT tokens do. */
function nestingLevels(lines: NormalizedLine[]): number[] {
	const openWidths = [0];
	return lines.map(({ indentation }) => {
		const width = indentationWidth(indentation);
		while (openWidths.length > 1 && width < (openWidths[openWidths.length - 1] ?? 0)) {
			openWidths.pop();
		}
		if (width > (openWidths[openWidths.length - 1] ?? 0)) openWidths.push(width);
		return openWidths.length - 1;
	});
}

export function normalizeText(text: string, syntax: TextSyntax): string {
	const lines: NormalizedLine[] = [];
	let content = '';
	let indentation = '';
	let atLineStart = true;
	let pendingSpace = false;
	let previousKind: CharacterKind = 'separator';

	const finishLine = () => {
		if (content !== '') lines.push({ indentation, content });
		content = '';
		indentation = '';
		atLineStart = true;
		pendingSpace = false;
	};

	const needsSpace = (nextKind: CharacterKind): boolean => {
		switch (syntax.spacing) {
			case 'collapse':
				return true;
			case 'remove':
				return false;
			case 'tight':
				return previousKind === nextKind && nextKind !== 'separator';
		}
	};

	const append = (piece: string, firstKind: CharacterKind, lastKind: CharacterKind) => {
		if (pendingSpace && content !== '' && needsSpace(firstKind)) content += ' ';
		pendingSpace = false;
		atLineStart = false;
		content += piece;
		previousKind = lastKind;
	};

	const startsLineComment = (index: number): boolean =>
		syntax.lineComments.some((marker) => {
			if (!text.startsWith(marker, index)) return false;
			if (marker !== '#') return true;
			// `#` is a comment only where a word can start (`$#`, `a#b`, `${#x}` are not), and a
			// shebang is an instruction, not a comment.
			if (index === 0) return !text.startsWith('#!');
			return isWhitespace(text[index - 1]);
		});

	let index = 0;
	while (index < text.length) {
		const character = text[index] as string;

		if (character === '\n') {
			if (syntax.lineBreaks === 'significant') finishLine();
			else pendingSpace = true;
			index++;
			continue;
		}
		if (isHorizontalWhitespace(character)) {
			if (atLineStart && (character === ' ' || character === '\t')) indentation += character;
			else pendingSpace = true;
			index++;
			continue;
		}

		if (startsLineComment(index)) {
			const lineEnd = text.indexOf('\n', index);
			index = lineEnd === -1 ? text.length : lineEnd;
			atLineStart = false;
			pendingSpace = true;
			continue;
		}

		const blockComment = syntax.blockComments.find(([open]) => text.startsWith(open, index));
		if (blockComment) {
			const [open, close] = blockComment;
			const closeAt = text.indexOf(close, index + open.length);
			// An unclosed comment is left as text: dropping the rest of the file would hide changes.
			if (closeAt !== -1) {
				index = closeAt + close.length;
				atLineStart = false;
				pendingSpace = true;
				continue;
			}
		}

		if (syntax.quotes.includes(character)) {
			const end = endOfString(text, index, character);
			append(text.slice(index, end), 'word', 'word');
			index = end;
			continue;
		}

		const kind = kindOf(character);
		append(character, kind, kind);
		index++;
	}
	finishLine();

	let prefixes: string[];
	switch (syntax.indentation) {
		case 'ignore':
			prefixes = lines.map(() => '');
			break;
		case 'levels':
			prefixes = nestingLevels(lines).map((level) => `${level}\t`);
			break;
		case 'exact':
			prefixes = lines.map(({ indentation: leading }) => `${JSON.stringify(leading)}\t`);
			break;
	}
	const separator = syntax.lineBreaks === 'significant' ? '\n' : ' ';
	return lines
		.map(({ content: line }, lineIndex) => `${prefixes[lineIndex]}${line}`)
		.join(separator);
}
