import { RE2JS } from 're2js';

/**
 * The search tool's regular expressions run on RE2 (re2js: pure JavaScript, linear time in the
 * input), not on the JavaScript engine's backtracking matcher: a pattern such as `^(a+)+$` against
 * a line of 48 `a` and a `!` would otherwise block the thread for hours, and a regex running in
 * the same thread cannot be interrupted by any deadline. The price is RE2's syntax: no lookaround
 * and no backreferences (the error says so).
 */
export type LinearRegex =
	| {
			ok: true;
			test(line: string): boolean;
			/** Where the first match starts in `line` (UTF-16 index), or -1 (the IDE's search). */
			indexIn(line: string): number;
	  }
	| { ok: false; reason: string };

export function compileLinearRegex(pattern: string): LinearRegex {
	let compiled: RE2JS;
	try {
		compiled = RE2JS.compile(pattern);
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		return {
			ok: false,
			reason: `${detail} (patterns use RE2 syntax, matched in linear time: no lookaround such as (?=…) or (?<=…), no backreferences such as \\1)`
		};
	}
	return {
		ok: true,
		test: (line) => compiled.matcher(line).find(),
		indexIn: (line) => {
			const matcher = compiled.matcher(line);
			return matcher.find() ? matcher.start() : -1;
		}
	};
}
