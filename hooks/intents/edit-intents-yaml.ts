import {
	isMap,
	isScalar,
	isSeq,
	parseDocument,
	Scalar,
	type Document,
	type Node,
	type YAMLMap,
	type YAMLSeq
} from 'yaml';
import { intentStatuses, type IntentStatus } from './intent.js';

/**
 * Edits of active_intents.yaml made by the IDE (status changes, approved scope expansions).
 *
 * The file is the instructor's: its comments, key order, quoting and spacing must survive, and the
 * edit lands in the trace as a diff that should show only what changed. So the yaml Document API
 * finds the nodes, and the change is spliced into the original text at those nodes' offsets. When the
 * layout is one we do not splice (a flow map, a missing key in odd places), the Document API rewrites
 * the file instead; either way the result is re-parsed and checked against the intended data.
 */

// The Document API fallback's output: no line folding, and `["a", "b"]` rather than `[ "a", "b" ]`,
// which is how the scenarios and DESIGN.md write lists.
const stringifyOptions = { lineWidth: 0, flowCollectionPadding: false } as const;

export function setIntentStatus(yamlText: string, intentId: string, status: IntentStatus): string {
	if (!(intentStatuses as readonly string[]).includes(status)) {
		throw new Error(
			`Cannot set the status of intent "${intentId}" to "${String(status)}": use one of ${intentStatuses.join(', ')}.`
		);
	}
	const located = locateIntent(yamlText, intentId);
	const rewrite = (): string => {
		const { document, entry } = locateIntent(yamlText, intentId);
		const existing = entry.get('status', true);
		if (isScalar(existing)) existing.value = status;
		else entry.set('status', status);
		return document.toString(stringifyOptions);
	};

	const statusNode = located.entry.get('status', true);
	if (!isScalar(statusNode) || !statusNode.range) return rewrite();
	const [start, end] = statusNode.range;
	if (start === end) return rewrite();
	let replacement: string;
	if (statusNode.type === Scalar.QUOTE_DOUBLE) replacement = `"${status}"`;
	else if (statusNode.type === Scalar.QUOTE_SINGLE) replacement = `'${status}'`;
	else if (statusNode.type === Scalar.PLAIN) replacement = status;
	else return rewrite();
	const spliced = yamlText.slice(0, start) + replacement + yamlText.slice(end);
	return checkedOrRewritten(spliced, rewrite);
}

export function addOwnedScope(yamlText: string, intentId: string, paths: string[]): string {
	for (const path of paths) {
		if (typeof path !== 'string' || path.trim() === '') {
			throw new Error(
				`Cannot add ${JSON.stringify(path)} to the scope of intent "${intentId}": a scope entry must be a non-empty path or glob.`
			);
		}
	}
	const located = locateIntent(yamlText, intentId);
	const scopeNode = located.entry.get('owned_scope', true);
	if (scopeNode !== undefined && !isSeq(scopeNode) && !isEmptyScalar(scopeNode)) {
		throw new Error(
			`Cannot add to the scope of intent "${intentId}": its owned_scope is not a list. Make it a list first, e.g. owned_scope: ["src/**"].`
		);
	}

	const existing = isSeq(scopeNode)
		? scopeNode.items.flatMap((item) => (isScalar(item) ? [scopeKey(String(item.value))] : []))
		: [];
	const seen = new Set(existing);
	const additions: string[] = [];
	for (const path of paths) {
		const key = scopeKey(path);
		if (seen.has(key)) continue;
		seen.add(key);
		additions.push(path);
	}
	if (additions.length === 0) return yamlText;

	const rewrite = (): string => {
		const { document, entry } = locateIntent(yamlText, intentId);
		const current = entry.get('owned_scope', true);
		if (isSeq(current)) {
			for (const path of additions) current.add(document.createNode(path));
		} else {
			const list = document.createNode(additions, { flow: true });
			entry.set('owned_scope', list);
		}
		return document.toString(stringifyOptions);
	};

	const spliced = spliceScope(yamlText, located.entry, scopeNode, additions);
	return spliced === null ? rewrite() : checkedOrRewritten(spliced, rewrite);
}

// ---------------------------------------------------------------------------------------------

interface LocatedIntent {
	document: Document;
	entry: YAMLMap;
}

function locateIntent(yamlText: string, intentId: string): LocatedIntent {
	const document = parseDocument(yamlText, { prettyErrors: true });
	const firstError = document.errors[0];
	if (firstError) {
		const where = firstError.linePos
			? ` at line ${firstError.linePos[0].line}, column ${firstError.linePos[0].col}`
			: '';
		const reason =
			firstError.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? '';
		throw new Error(
			`Cannot edit active_intents.yaml: it does not parse${where} (${reason}). Fix the YAML first.`
		);
	}
	const list = isMap(document.contents) ? document.contents.get('active_intents', true) : undefined;
	if (!isSeq(list)) {
		throw new Error('Cannot edit active_intents.yaml: it has no top-level active_intents list.');
	}
	const ids: string[] = [];
	for (const item of list.items) {
		if (!isMap(item)) continue;
		const id = item.get('id');
		if (id === intentId) return { document, entry: item };
		if (typeof id === 'string') ids.push(id);
	}
	const known = ids.length > 0 ? ` Known ids: ${ids.join(', ')}.` : ' The list is empty.';
	throw new Error(`Intent "${intentId}" is not in active_intents.yaml.${known}`);
}

/** Keep the splice only if it parses to exactly what the Document API edit would produce. */
function checkedOrRewritten(spliced: string, rewrite: () => string): string {
	const rewritten = rewrite();
	const splicedDocument = parseDocument(spliced);
	if (splicedDocument.errors.length > 0) return rewritten;
	try {
		const expected = JSON.stringify(parseDocument(rewritten).toJS());
		return JSON.stringify(splicedDocument.toJS()) === expected ? spliced : rewritten;
	} catch {
		return rewritten;
	}
}

/** Scope entries compare without a leading './' and in NFC, the way the scope matcher reads them. */
function scopeKey(path: string): string {
	let key = path.trim().normalize('NFC');
	while (key.startsWith('./')) key = key.slice(2);
	return key;
}

function isEmptyScalar(node: unknown): node is Scalar {
	return isScalar(node) && node.value === null;
}

function lineEnding(text: string): string {
	return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Offset of the end of the line holding `offset`, before any '\r\n' or '\n'. */
function endOfLine(text: string, offset: number): number {
	const newline = text.indexOf('\n', offset);
	if (newline === -1) return text.length;
	return text[newline - 1] === '\r' ? newline - 1 : newline;
}

/** Column (0-based) of `offset`, or null when something other than spaces precedes it on its line. */
function indentationBefore(text: string, offset: number): number | null {
	const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
	const before = text.slice(lineStart, offset);
	return /^[ ]*$/.test(before) ? before.length : null;
}

/** Where the last value of a block collection ends, ignoring trailing comments and blank lines. */
function contentEnd(node: Node | null | undefined): number | null {
	if (!node || !node.range) return null;
	if ((isMap(node) || isSeq(node)) && !node.flow) {
		const last = node.items[node.items.length - 1];
		if (last === undefined) return node.range[1];
		if (isMap(node)) {
			const pair = last as { key: unknown; value: unknown };
			return contentEnd((pair.value ?? pair.key) as Node | null);
		}
		return contentEnd(last as Node);
	}
	return node.range[1];
}

function flowItem(path: string, like: Node | undefined): string {
	if (isScalar(like) && like.type === Scalar.QUOTE_SINGLE) return `'${path.replaceAll("'", "''")}'`;
	if (isScalar(like) && like.type === Scalar.PLAIN && roundTrips(`[${path}]`, path)) return path;
	return JSON.stringify(path);
}

function blockItem(path: string, like: Node | undefined): string {
	if (isScalar(like) && like.type === Scalar.QUOTE_SINGLE) return `'${path.replaceAll("'", "''")}'`;
	if (isScalar(like) && like.type === Scalar.PLAIN && roundTrips(`- ${path}`, path)) return path;
	return JSON.stringify(path);
}

function roundTrips(source: string, value: string): boolean {
	const parsed = parseDocument(source);
	if (parsed.errors.length > 0) return false;
	try {
		const data: unknown = parsed.toJS();
		return Array.isArray(data) && data.length === 1 && data[0] === value;
	} catch {
		// e.g. `*.md` reads as an alias to a missing anchor: not safe unquoted.
		return false;
	}
}

function spliceScope(
	text: string,
	entry: YAMLMap,
	scopeNode: unknown,
	additions: string[]
): string | null {
	const eol = lineEnding(text);
	const insert = (offset: number, addition: string): string =>
		text.slice(0, offset) + addition + text.slice(offset);

	if (isSeq(scopeNode)) {
		const list = scopeNode as YAMLSeq<Node>;
		if (!list.range) return null;
		const last = list.items[list.items.length - 1];
		if (list.flow) {
			if (last === undefined) {
				const [start, end] = list.range;
				if (text[start] !== '[' || text[end - 1] !== ']') return null;
				const items = additions.map((path) => JSON.stringify(path)).join(', ');
				return text.slice(0, start) + `[${items}]` + text.slice(end);
			}
			if (!last.range) return null;
			const items = additions.map((path) => `, ${flowItem(path, last)}`).join('');
			return insert(last.range[1], items);
		}
		if (last === undefined || !last.range) return null;
		const indentation = indentationBefore(text, list.range[0]);
		if (indentation === null) return null;
		const lastEnd = contentEnd(last);
		if (lastEnd === null) return null;
		const lines = additions
			.map((path) => `${eol}${' '.repeat(indentation)}- ${blockItem(path, last)}`)
			.join('');
		return insert(endOfLine(text, lastEnd), lines);
	}

	const flowList = `[${additions.map((path) => JSON.stringify(path)).join(', ')}]`;
	if (isEmptyScalar(scopeNode)) {
		if (!scopeNode.range) return null;
		const [start, end] = scopeNode.range;
		// `owned_scope:` with nothing after the colon: the empty value sits right after it.
		return start === end
			? insert(start, ` ${flowList}`)
			: text.slice(0, start) + flowList + text.slice(end);
	}

	// No owned_scope key: add one after the intent's last field, at the same indentation.
	if (entry.flow || !entry.range) return null;
	const indentation = indentationColumn(text, entry.range[0]);
	const lastEnd = contentEnd(entry);
	if (indentation === null || lastEnd === null) return null;
	return insert(
		endOfLine(text, lastEnd),
		`${eol}${' '.repeat(indentation)}owned_scope: ${flowList}`
	);
}

/**
 * Column of the first key of a block map. The map may start on a `- ` line of its parent list,
 * whose dash counts as indentation for the keys that follow.
 */
function indentationColumn(text: string, offset: number): number | null {
	const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
	const before = text.slice(lineStart, offset);
	return /^[ ]*(-[ ]+)*$/.test(before) ? before.length : null;
}
