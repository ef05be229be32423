/**
 * Canonical JSON: the one text a value hashes to, so the ledger's hashes can be recomputed by
 * anyone who parses the export. Keys are sorted by UTF-16 code units at every depth, there is no
 * whitespace, and `undefined` object members are dropped (as `JSON.stringify` does), so a value and
 * its JSON round trip always give the same text.
 */
export function canonicalJson(value: unknown): string {
	if (value === undefined) {
		throw new Error('canonicalJson: undefined has no JSON form');
	}
	// Data already in canonical shape (what the ledger seals and stores): JSON.stringify writes
	// exactly the canonical text, natively and several times faster.
	if (isCanonicalShape(value, 0)) return JSON.stringify(value);
	return writeCanonical(value);
}

/**
 * True when `JSON.stringify(value)` is its canonical JSON: only null, booleans, finite numbers,
 * strings, dense arrays and plain objects whose keys enumerate in strictly increasing UTF-16 order
 * with no undefined members. Anything else (a Date, a Map, NaN, a hole, integer-like keys, which
 * objects list first) goes the long way.
 */
function isCanonicalShape(value: unknown, depth: number): boolean {
	if (depth > 64) return false;
	switch (typeof value) {
		case 'string':
		case 'boolean':
			return true;
		case 'number':
			return Number.isFinite(value);
		case 'object': {
			if (value === null) return true;
			if (Array.isArray(value)) {
				for (let position = 0; position < value.length; position++) {
					if (!(position in value)) return false;
					if (!isCanonicalShape(value[position], depth + 1)) return false;
				}
				return true;
			}
			const prototype: unknown = Object.getPrototypeOf(value);
			if (prototype !== Object.prototype && prototype !== null) return false;
			let previous: string | null = null;
			for (const key of Object.keys(value)) {
				if (previous !== null && !(previous < key)) return false;
				previous = key;
				if (!isCanonicalShape((value as Record<string, unknown>)[key], depth + 1)) return false;
			}
			return true;
		}
		default:
			return false;
	}
}

/** The canonical text written member by member (any value canonicalJson accepts). */
export function writeCanonical(value: unknown): string {
	// The path to the current value is kept as a stack of keys and only joined into text when
	// something fails: verify canonicalises every line of large ledgers, so the happy path must
	// not build strings it never uses.
	const keys: (string | number)[] = [];
	const ancestors: object[] = [];
	try {
		return write(value, keys, ancestors);
	} catch (error) {
		if (error instanceof CanonicalJsonProblem) {
			throw new Error(`canonicalJson: ${error.message.replace('{path}', formatPath(keys))}`, {
				cause: error
			});
		}
		throw error;
	}
}

/**
 * The canonical text of `value` both whole and without the member at `omitPath` (e.g. `['hash']`
 * or `['metadata', 'dev.threadline', 'hash']`), in one pass: verify needs the first to check a
 * line's form and the second to recompute its hash. When the path does not exist, both are equal.
 */
export function canonicalJsonPair(
	value: unknown,
	omitPath: readonly string[]
): { full: string; without: string } {
	if (value === undefined) {
		throw new Error('canonicalJson: undefined has no JSON form');
	}
	const keys: (string | number)[] = [];
	const ancestors: object[] = [];
	try {
		return writePair(value, omitPath, 0, keys, ancestors);
	} catch (error) {
		if (error instanceof CanonicalJsonProblem) {
			throw new Error(`canonicalJson: ${error.message.replace('{path}', formatPath(keys))}`, {
				cause: error
			});
		}
		throw error;
	}
}

function writePair(
	value: unknown,
	omitPath: readonly string[],
	depth: number,
	keys: (string | number)[],
	ancestors: object[]
): { full: string; without: string } {
	const target = omitPath[depth];
	if (
		target === undefined ||
		typeof value !== 'object' ||
		value === null ||
		Array.isArray(value) ||
		(Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null)
	) {
		const text = write(value, keys, ancestors);
		return { full: text, without: text };
	}
	ancestors.push(value);
	const record = value as Record<string, unknown>;
	let full = '{';
	let without = '{';
	for (const name of Object.keys(record).sort()) {
		const member = record[name];
		if (member === undefined) continue;
		keys.push(name);
		const prefix = quoteKey(name) + ':';
		if (name !== target) {
			const text = prefix + write(member, keys, ancestors);
			full += (full.length > 1 ? ',' : '') + text;
			without += (without.length > 1 ? ',' : '') + text;
		} else if (depth === omitPath.length - 1) {
			full += (full.length > 1 ? ',' : '') + prefix + write(member, keys, ancestors);
		} else {
			const inner = writePair(member, omitPath, depth + 1, keys, ancestors);
			full += (full.length > 1 ? ',' : '') + prefix + inner.full;
			without += (without.length > 1 ? ',' : '') + prefix + inner.without;
		}
		keys.pop();
	}
	ancestors.pop();
	return { full: full + '}', without: without + '}' };
}

/** Internal: carries a message whose `{path}` is filled in from the key stack at the throw. */
class CanonicalJsonProblem extends Error {}

/** Quoted keys, remembered because ledgers repeat the same few dozen keys on every line. */
const quotedKeys = new Map<string, string>();
const quotedKeyLimit = 10_000;

function quoteKey(key: string): string {
	let quoted = quotedKeys.get(key);
	if (quoted === undefined) {
		quoted = JSON.stringify(key);
		if (quotedKeys.size < quotedKeyLimit) quotedKeys.set(key, quoted);
	}
	return quoted;
}

function write(value: unknown, keys: (string | number)[], ancestors: object[]): string {
	if (value === null) return 'null';
	switch (typeof value) {
		case 'string':
			return JSON.stringify(value);
		case 'boolean':
			return value ? 'true' : 'false';
		case 'number':
			if (!Number.isFinite(value)) {
				throw new CanonicalJsonProblem(`${String(value)} at {path} has no JSON form`);
			}
			return JSON.stringify(value);
		case 'object':
			return writeObject(value, keys, ancestors);
		default:
			throw new CanonicalJsonProblem(`a ${typeof value} at {path} has no JSON form`);
	}
}

function writeObject(value: object, keys: (string | number)[], ancestors: object[]): string {
	// Depth is small in practice, so a linear scan beats a Set's bookkeeping.
	if (ancestors.includes(value)) {
		throw new CanonicalJsonProblem('circular reference at {path}');
	}
	if (Array.isArray(value)) {
		ancestors.push(value);
		let text = '[';
		for (let position = 0; position < value.length; position++) {
			if (position > 0) text += ',';
			const element: unknown = value[position];
			// JSON.stringify writes holes and undefined elements as null; so must we, or a value and
			// its round trip would hash differently.
			if (element === undefined) {
				text += 'null';
				continue;
			}
			keys.push(position);
			text += write(element, keys, ancestors);
			keys.pop();
		}
		ancestors.pop();
		return text + ']';
	}
	const prototype: unknown = Object.getPrototypeOf(value);
	if (prototype !== Object.prototype && prototype !== null) {
		const toJson = (value as { toJSON?: unknown }).toJSON;
		if (typeof toJson === 'function') {
			// Dates and similar: hash what JSON.stringify would have written.
			return write(toJson.call(value), keys, ancestors);
		}
		// Maps, Sets, typed arrays… would silently become `{}`: refuse rather than hash a lie.
		const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
		throw new CanonicalJsonProblem(`a ${name} at {path} is not plain JSON data`);
	}
	ancestors.push(value);
	const record = value as Record<string, unknown>;
	const names = Object.keys(record).sort();
	let text = '{';
	for (const name of names) {
		const member = record[name];
		if (member === undefined) continue;
		if (text.length > 1) text += ',';
		keys.push(name);
		text += quoteKey(name) + ':' + write(member, keys, ancestors);
		keys.pop();
	}
	ancestors.pop();
	return text + '}';
}

function formatPath(keys: readonly (string | number)[]): string {
	let text = '(root)';
	for (const key of keys) text += typeof key === 'number' ? `[${key}]` : `.${key}`;
	return text;
}

/** What verify needs of one stored line: is it canonical, and the canonical text its hash covers. */
export interface LineForm {
	/** The line is exactly the canonical JSON of its parse. */
	canonical: boolean;
	/** Canonical JSON of the parse without the member at the hash path. */
	without: string;
	/** The line was proven canonical without re-serialising it in JavaScript. */
	fast: boolean;
	/**
	 * When `without` was cut out of the line itself: the range `[start, end)` of the line taken out
	 * (`[0, 0]` when the line has no such member), so the same cut can be made in its bytes.
	 */
	cut?: MemberRange;
}

/** A range `[start, end)` of a line's text. */
export type MemberRange = readonly [start: number, end: number];

/**
 * The canonical form of a stored line, given its text and its parse, without writing the whole
 * value again in JavaScript where that can be avoided. The fast path proves `text` canonical:
 *
 * - `JSON.stringify(value) === text`: the text has JSON.stringify's exact spelling (no
 *   whitespace, the shortest number forms, the same string escapes, no duplicate keys since a
 *   duplicate would vanish from the parse) with keys in the order the parse enumerates them; and
 * - the keys of every object are in strictly increasing UTF-16 order as enumerated.
 *
 * Both together mean the text is what `canonicalJson(value)` writes (which uses JSON.stringify for
 * every string and number and sorts keys by UTF-16 code units). The text without the hash member
 * is then cut out of the text itself. Anything else (integer-like keys, which objects enumerate
 * first, or a line that is not canonical) takes the old path: write the canonical text and compare.
 */
export function lineForm(text: string, value: unknown, omitPath: readonly string[]): LineForm {
	if (JSON.stringify(value) === text && keysSorted(value)) {
		const cut = memberRange(text, value, omitPath);
		if (cut !== null) return { canonical: true, without: cutOut(text, cut), fast: true, cut };
		return { canonical: true, without: canonicalJsonPair(value, omitPath).without, fast: true };
	}
	const pair = canonicalJsonPair(value, omitPath);
	return { canonical: pair.full === text, without: pair.without, fast: false };
}

/** Every object's own keys, as enumerated, in strictly increasing UTF-16 code-unit order. */
export function keysSorted(value: unknown): boolean {
	if (typeof value !== 'object' || value === null) return true;
	if (Array.isArray(value)) {
		for (const element of value) if (!keysSorted(element)) return false;
		return true;
	}
	let previous: string | null = null;
	for (const key in value) {
		// JSON.parse only makes own, enumerable data properties: `for in` sees exactly those.
		if (previous !== null && !(previous < key)) return false;
		previous = key;
		if (!keysSorted((value as Record<string, unknown>)[key])) return false;
	}
	return true;
}

/**
 * Where the string member at `omitPath` sits in `text` (already proven canonical), with the comma
 * that joins it to its neighbours: the range to cut out (`[0, 0]` when there is no such member),
 * or null when that cannot be cut out safely. In canonical text a raw `"` is always a string
 * delimiter, so the sequence `"hash":"<value>"` can only be an object member named `hash` holding
 * that exact string; when it occurs exactly once, it is the member at `omitPath`, whose value we
 * know.
 */
function memberRange(
	text: string,
	value: unknown,
	omitPath: readonly string[]
): MemberRange | null {
	let holder: unknown = value;
	for (let depth = 0; depth < omitPath.length - 1; depth++) {
		if (typeof holder !== 'object' || holder === null || Array.isArray(holder)) return null;
		holder = (holder as Record<string, unknown>)[omitPath[depth] as string];
	}
	const name = omitPath[omitPath.length - 1];
	if (typeof holder !== 'object' || holder === null || Array.isArray(holder) || name === undefined)
		return null;
	const member = (holder as Record<string, unknown>)[name];
	if (member === undefined) return [0, 0];
	if (typeof member !== 'string') return null;
	const key = quoteKey(name);
	// A top-level member that comes first (an audit event's `hash`, whose key sorts first): right
	// after the opening brace it can only be that member, so the rest of the line need not be
	// searched for a second occurrence. A value that JSON writes as itself in quotes (a hash,
	// `sha256:<hex>`) is compared in place, without writing the member's text.
	if (omitPath.length === 1 && text.charCodeAt(0) === 123 && isPlainJsonString(member)) {
		const valueAt = 1 + key.length + 1;
		const valueEnd = valueAt + member.length + 2;
		if (
			text.startsWith(key, 1) &&
			text.charCodeAt(valueAt - 1) === 58 &&
			text.charCodeAt(valueAt) === 34 &&
			text.startsWith(member, valueAt + 1) &&
			text.charCodeAt(valueEnd - 1) === 34
		) {
			const after = text.charCodeAt(valueEnd);
			if (after === 44) return [1, valueEnd + 1];
			if (after === 125) return [1, valueEnd];
		}
	}
	const needle = `${key}:${JSON.stringify(member)}`;
	if (omitPath.length === 1 && text.charCodeAt(0) === 123 && text.startsWith(needle, 1)) {
		const after = text.charCodeAt(1 + needle.length);
		if (after === 44) return [1, needle.length + 2];
		if (after === 125) return [1, 1 + needle.length];
	}
	const at = text.indexOf(needle);
	if (at < 0 || text.indexOf(needle, at + 1) >= 0) return null;
	const before = text[at - 1];
	const after = text[at + needle.length];
	if (before === ',') return [at - 1, at + needle.length];
	if (before === '{' && after === ',') return [at, at + needle.length + 1];
	if (before === '{' && after === '}') return [at, at + needle.length];
	return null;
}

/**
 * Whether JSON writes the string as itself between quotes: no quote, backslash, control character
 * or lone surrogate, the characters JSON.stringify escapes.
 */
function isPlainJsonString(value: string): boolean {
	for (let index = 0; index < value.length; index++) {
		const code = value.charCodeAt(index);
		if (code < 0x20 || code === 34 || code === 92 || (code >= 0xd800 && code <= 0xdfff))
			return false;
	}
	return true;
}

/** The text without the range. */
function cutOut(text: string, [start, end]: MemberRange): string {
	return start === end ? text : text.slice(0, start) + text.slice(end);
}

/**
 * The text of the top-level member `name` of `text`, which the caller has proven canonical for
 * `value` (see lineForm), cut out of the line instead of written again; null when that cannot be
 * done safely. Safe when every other top-level member is a string, number, boolean or null: then
 * the member's key can only occur where it starts (strings escape every `"`), and the members
 * after it are written from their values, so the member's text ends where they begin.
 */
export function memberText(text: string, value: unknown, name: string): string | null {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
	const record = value as Record<string, unknown>;
	let found = false;
	let first = true;
	let firstKey = true;
	const after: string[] = [];
	for (const key in record) {
		const member = record[key];
		if (key === name) {
			found = true;
			first = firstKey;
		} else {
			if (member !== null && typeof member === 'object') return null;
			if (found) after.push(`,${quoteKey(key)}:${JSON.stringify(member)}`);
		}
		firstKey = false;
	}
	if (!found) return null;
	const suffix = after.join('') + '}';
	const opening = `${first ? '{' : ','}${quoteKey(name)}:`;
	const start = first ? (text.startsWith(opening) ? opening.length : -1) : text.indexOf(opening);
	if (start < 0 || !text.endsWith(suffix)) return null;
	const from = first ? start : start + opening.length;
	const to = text.length - suffix.length;
	return to > from ? text.slice(from, to) : null;
}

/**
 * Canonical JSON of `value` without the member at `omitPath`, given `text`, which the caller knows
 * to be exactly `canonicalJson(value)`: cut out of the text when that is safe (with the range cut
 * out, see LineForm.cut), else written anew.
 */
export function canonicalWithoutForm(
	text: string,
	value: unknown,
	omitPath: readonly string[]
): { without: string; cut?: MemberRange } {
	const cut = memberRange(text, value, omitPath);
	if (cut !== null) return { without: cutOut(text, cut), cut };
	return { without: canonicalJsonPair(value, omitPath).without };
}
