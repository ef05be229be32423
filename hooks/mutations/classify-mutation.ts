/**
 * Decides whether a change to one file is a refactor (AST_REFACTOR: same behaviour and contract,
 * only formatting, comments or consistent local renames) or a change of intent (INTENT_EVOLUTION).
 * When in doubt it says INTENT_EVOLUTION: a grader trusts a refactor label, so it must be earned.
 */
import type { MutationClass } from '../ledger/agent-trace-record.js';
import { canonicalScript } from './canonical-script.js';
import { normalizeText } from './normalize-text.js';
import { parseScript, type ParseResult } from './parse-script.js';
import { extensionOf, textSyntaxFor, textSyntaxNamed, type TextSyntax } from './text-syntax.js';

export interface MutationClassification {
	mutationClass: MutationClass;
	/**
	 * `ast`: compared syntax trees; `text`: compared text without comments and insignificant
	 * whitespace; `existence`: the file appeared or vanished.
	 */
	method: 'ast' | 'text' | 'existence';
	note?: string;
}

const scriptExtensions: Record<string, { jsx: boolean; moduleFile: boolean; language: string }> = {
	js: { jsx: true, moduleFile: false, language: 'JavaScript' },
	jsx: { jsx: true, moduleFile: false, language: 'JavaScript' },
	mjs: { jsx: true, moduleFile: true, language: 'JavaScript' },
	cjs: { jsx: true, moduleFile: true, language: 'JavaScript' },
	// `<T>value` casts and JSX cannot share a file, so .ts files are parsed without JSX.
	ts: { jsx: false, moduleFile: false, language: 'TypeScript' },
	mts: { jsx: false, moduleFile: true, language: 'TypeScript' },
	cts: { jsx: false, moduleFile: true, language: 'TypeScript' },
	tsx: { jsx: true, moduleFile: false, language: 'TypeScript' }
};

const shebangPattern = /^#![^\r\n]*/;

function textRule(before: string, after: string, syntax: TextSyntax): MutationClass {
	return normalizeText(before, syntax) === normalizeText(after, syntax)
		? 'AST_REFACTOR'
		: 'INTENT_EVOLUTION';
}

function sameTokens(left: string[], right: string[]): boolean {
	if (left.length !== right.length) return false;
	for (let index = 0; index < left.length; index++) {
		if (left[index] !== right[index]) return false;
	}
	return true;
}

type CanonicalSource = { ok: true; tokens: string[] } | (ParseResult & { ok: false });

function canonicalSource(
	source: string,
	options: { jsx: boolean; moduleFile: boolean }
): CanonicalSource {
	const parsed = parseScript(source, { jsx: options.jsx });
	if (!parsed.ok) return parsed;
	return { ok: true, tokens: canonicalScript(parsed.program, { moduleFile: options.moduleFile }) };
}

function describeFailure(side: 'old' | 'new', result: ParseResult & { ok: false }): string {
	return `the ${side} version does not parse (${result.message} at ${result.line}:${result.column})`;
}

export function classifyMutation(
	path: string,
	before: string | null,
	after: string | null
): MutationClassification {
	if (typeof path !== 'string') throw new TypeError('classifyMutation expects a path string');
	for (const [side, content] of [
		['old', before],
		['new', after]
	] as const) {
		if (content !== null && typeof content !== 'string') {
			throw new TypeError(`classifyMutation expects the ${side} content as a string or null`);
		}
	}

	if (before === null && after === null) {
		return {
			mutationClass: 'AST_REFACTOR',
			method: 'existence',
			note: 'the file exists neither before nor after: nothing changed'
		};
	}
	if (before === null) {
		return { mutationClass: 'INTENT_EVOLUTION', method: 'existence', note: 'file created' };
	}
	if (after === null) {
		return { mutationClass: 'INTENT_EVOLUTION', method: 'existence', note: 'file deleted' };
	}

	const script = scriptExtensions[extensionOf(path)];

	if (before === after) {
		return {
			mutationClass: 'AST_REFACTOR',
			method: script ? 'ast' : 'text',
			note: 'content unchanged'
		};
	}
	if (!script) {
		return { mutationClass: textRule(before, after, textSyntaxFor(path)), method: 'text' };
	}

	// The parser reads a shebang as a comment, but it picks the interpreter.
	if (before.match(shebangPattern)?.[0] !== after.match(shebangPattern)?.[0]) {
		return { mutationClass: 'INTENT_EVOLUTION', method: 'text', note: 'the #! line changed' };
	}

	// One side at a time, so the first tree can be collected while the second is built: with
	// locations on, the trees of two 2,000-line files are most of the garbage this makes.
	const options = { jsx: script.jsx, moduleFile: script.moduleFile };
	const canonicalBefore = canonicalSource(before, options);
	const canonicalAfter = canonicalSource(after, options);
	if (!canonicalBefore.ok || !canonicalAfter.ok) {
		const reasons = [
			canonicalBefore.ok ? undefined : describeFailure('old', canonicalBefore),
			canonicalAfter.ok ? undefined : describeFailure('new', canonicalAfter)
		].filter((reason) => reason !== undefined);
		return {
			mutationClass: textRule(before, after, textSyntaxNamed('javascript')),
			method: 'text',
			note: `compared as text because ${reasons.join(' and ')} as ${script.language}`
		};
	}
	const same = sameTokens(canonicalBefore.tokens, canonicalAfter.tokens);
	return { mutationClass: same ? 'AST_REFACTOR' : 'INTENT_EVOLUTION', method: 'ast' };
}
