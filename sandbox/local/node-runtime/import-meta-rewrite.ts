/**
 * Replaces the `import.meta` expressions of a module's source with `replacement`, and nothing
 * else: the same characters inside string literals, template text, comments and regular
 * expression literals are the program's data and stay as written. A small scanner rather than a
 * regular expression, because only a scanner knows where strings and comments begin and end
 * (templates nest: `${ … }` is code again, and may hold more templates). Line breaks are kept, so
 * stack traces still point at the right lines.
 */
export function rewriteImportMeta(code: string, replacement: string): string {
	if (!/\bimport\s*\.\s*meta\b/.test(code)) return code;
	let out = '';
	let index = 0;
	/** One entry per open `${`: the brace depth inside it, so its closing `}` returns to the template. */
	const templateDepths: number[] = [];
	let regexAllowed = true;
	const length = code.length;
	while (index < length) {
		const char = code[index] as string;
		const next = code[index + 1];
		if (char === '/' && next === '/') {
			const end = code.indexOf('\n', index);
			const stop = end === -1 ? length : end;
			out += code.slice(index, stop);
			index = stop;
			continue;
		}
		if (char === '/' && next === '*') {
			const end = code.indexOf('*/', index + 2);
			const stop = end === -1 ? length : end + 2;
			out += code.slice(index, stop);
			index = stop;
			continue;
		}
		if (char === '"' || char === "'") {
			const stop = skipQuoted(code, index, char);
			out += code.slice(index, stop);
			index = stop;
			regexAllowed = false;
			continue;
		}
		if (char === '`' || (char === '}' && templateDepths.at(-1) === 0)) {
			if (char === '}') templateDepths.pop();
			const { stop, opensExpression } = skipTemplateText(code, index + 1);
			out += code.slice(index, stop);
			index = stop;
			if (opensExpression) {
				templateDepths.push(0);
				regexAllowed = true;
			} else regexAllowed = false;
			continue;
		}
		if (char === '/' && regexAllowed) {
			const stop = skipRegex(code, index);
			out += code.slice(index, stop);
			index = stop;
			regexAllowed = false;
			continue;
		}
		if (isIdentifierStart(char)) {
			let stop = index + 1;
			while (stop < length && isIdentifierPart(code[stop] as string)) stop += 1;
			const word = code.slice(index, stop);
			const afterDot = previousSignificant(code, index) === '.';
			if (word === 'import' && !afterDot) {
				const meta = /^\s*\.\s*meta(?![\w$])/.exec(code.slice(stop, stop + 64));
				if (meta) {
					out += replacement + '\n'.repeat(meta[0].split('\n').length - 1);
					index = stop + meta[0].length;
					regexAllowed = false;
					continue;
				}
			}
			out += word;
			index = stop;
			regexAllowed = !afterDot && regexKeywords.has(word);
			continue;
		}
		if (templateDepths.length > 0) {
			if (char === '{')
				templateDepths[templateDepths.length - 1] = (templateDepths.at(-1) ?? 0) + 1;
			else if (char === '}')
				templateDepths[templateDepths.length - 1] = (templateDepths.at(-1) ?? 1) - 1;
		}
		out += char;
		index += 1;
		if (/\s/.test(char)) continue;
		// After a value (a number, `)` or `]`) a slash divides; after an operator it starts a regex.
		regexAllowed = !/[\w$)\].]/.test(char);
	}
	return out;
}

const regexKeywords = new Set([
	'return',
	'typeof',
	'instanceof',
	'in',
	'of',
	'new',
	'delete',
	'void',
	'throw',
	'case',
	'do',
	'else',
	'yield',
	'await'
]);

function isIdentifierStart(char: string): boolean {
	return /[A-Za-z_$]/.test(char) || char.charCodeAt(0) > 127;
}

function isIdentifierPart(char: string): boolean {
	return /[\w$]/.test(char) || char.charCodeAt(0) > 127;
}

function previousSignificant(code: string, index: number): string | undefined {
	let at = index - 1;
	while (at >= 0 && /\s/.test(code[at] as string)) at -= 1;
	return code[at];
}

function skipQuoted(code: string, start: number, quote: string): number {
	let index = start + 1;
	while (index < code.length) {
		const char = code[index];
		if (char === '\\') index += 2;
		else if (char === quote || char === '\n') return index + 1;
		else index += 1;
	}
	return code.length;
}

/** From just after a backtick or a `}` closing an expression, to just after the next `` ` `` or `${`. */
function skipTemplateText(code: string, start: number): { stop: number; opensExpression: boolean } {
	let index = start;
	while (index < code.length) {
		const char = code[index];
		if (char === '\\') index += 2;
		else if (char === '`') return { stop: index + 1, opensExpression: false };
		else if (char === '$' && code[index + 1] === '{')
			return { stop: index + 2, opensExpression: true };
		else index += 1;
	}
	return { stop: code.length, opensExpression: false };
}

function skipRegex(code: string, start: number): number {
	let index = start + 1;
	let inClass = false;
	while (index < code.length) {
		const char = code[index];
		if (char === '\\') index += 2;
		else if (char === '\n') return index;
		else if (inClass) {
			if (char === ']') inClass = false;
			index += 1;
		} else if (char === '[') {
			inClass = true;
			index += 1;
		} else if (char === '/') {
			index += 1;
			while (index < code.length && /[a-z]/i.test(code[index] as string)) index += 1;
			return index;
		} else index += 1;
	}
	return code.length;
}
