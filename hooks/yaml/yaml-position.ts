import {
	isAlias,
	isMap,
	isScalar,
	isSeq,
	LineCounter,
	parseDocument,
	visit,
	type Document
} from 'yaml';

/**
 * Reading a YAML file a person wrote so that every later error (schema, cross-file checks) can
 * point at the line and column to fix. The intents file, scenario manifests and replay scripts use
 * it; it knows nothing about any of them.
 */
export interface YamlPosition {
	/** 1-based. */
	line: number;
	/** 1-based. */
	column: number;
}

export interface YamlMessage extends YamlPosition {
	message: string;
}

export type YamlPathSegment = string | number;

/** A parsed document that has not been judged yet: it may hold syntax errors. */
export interface ParsedYaml {
	text: string;
	yamlDocument: Document;
	position(offset: number): YamlPosition;
}

export interface PositionedYaml {
	/** The plain value (maps as objects, sequences as arrays); aliases resolved. */
	data: unknown;
	position(offset: number): YamlPosition;
	/** The value at `path`, or the closest thing on the way there that exists. */
	valueAt(path: readonly YamlPathSegment[]): YamlPosition;
	/** The key of the last segment of `path` (for an unknown or misspelled key). */
	keyAt(path: readonly YamlPathSegment[]): YamlPosition;
}

export type ReadYamlResult =
	{ ok: true; yaml: PositionedYaml } | { ok: false; errors: YamlMessage[] };

export type YamlDataResult = { ok: true; data: unknown } | { ok: false; errors: YamlMessage[] };

/** Enough for anchors an instructor reuses; far below what an alias bomb needs. */
const maximumAliasCount = 1000;
/** An alias chain longer than this is not something a person wrote. */
const maximumAliasHops = 32;

/** Syntax errors, then self-containing aliases and alias bombs; the plain data when none. */
export function readYamlWithPositions(text: string): ReadYamlResult {
	const parsed = parseYamlWithPositions(text);
	const syntaxErrors = yamlSyntaxErrors(parsed);
	if (syntaxErrors.length > 0) return { ok: false, errors: syntaxErrors };
	const read = yamlData(parsed);
	if (!read.ok) return read;
	const { yamlDocument, position } = parsed;
	return {
		ok: true,
		yaml: {
			data: read.data,
			position,
			valueAt: (path) => position(locateYamlPath(yamlDocument, path).valueOffset),
			keyAt: (path) => position(locateYamlPath(yamlDocument, path).keyOffset)
		}
	};
}

export function parseYamlWithPositions(text: string): ParsedYaml {
	const lineCounter = new LineCounter();
	const yamlDocument = parseDocument(text, { lineCounter, prettyErrors: false });
	const position = (offset: number): YamlPosition => {
		const { line, col } = lineCounter.linePos(offset);
		// LineCounter can say line 0 before it has seen a line start; the file's first line is 1.
		return line === 0 ? { line: 1, column: offset + 1 } : { line, column: col };
	};
	return { text, yamlDocument, position };
}

/** The document's syntax errors as plain sentences, in file order; empty when there are none. */
export function yamlSyntaxErrors({ text, yamlDocument, position }: ParsedYaml): YamlMessage[] {
	return sortByPosition(
		yamlDocument.errors.map((error) => ({
			...position(error.pos[0]),
			message: syntaxMessage(error.code, error.message, text, error.pos[0])
		}))
	);
}

/** The plain value of a document without syntax errors, unless it cannot become JSON. */
export function yamlData({ yamlDocument, position }: ParsedYaml): YamlDataResult {
	const recursive = findRecursiveAlias(yamlDocument);
	if (recursive) {
		// A value that contains itself cannot become JSON (ledger, bundles, exports).
		return {
			ok: false,
			errors: [
				{
					...position(recursive.offset),
					message: `The alias *${recursive.name} refers to a value that contains it; a value cannot include itself.`
				}
			]
		};
	}
	try {
		return { ok: true, data: yamlDocument.toJS({ maxAliasCount: maximumAliasCount }) };
	} catch (error) {
		// toJS refuses alias bombs ("billion laughs"): report it instead of hanging.
		const message = error instanceof Error ? error.message : String(error);
		return {
			ok: false,
			errors: [{ line: 1, column: 1, message: `The file could not be read: ${message}` }]
		};
	}
}

export function sortByPosition<Message extends YamlPosition>(messages: Message[]): Message[] {
	return [...messages].sort((left, right) => left.line - right.line || left.column - right.column);
}

function syntaxMessage(code: string, message: string, text: string, offset: number): string {
	if (code === 'DUPLICATE_KEY') {
		// The error range covers only the key's first character; read the whole key from the text.
		const keyMatch = /^(?:"([^"\n]*)"|'([^'\n]*)'|([^:\n]*?))\s*:/.exec(
			text.slice(offset, offset + 200)
		);
		const key = (keyMatch?.[1] ?? keyMatch?.[2] ?? keyMatch?.[3] ?? '').trim();
		return key
			? `The key "${key}" appears twice in the same map; keep one.`
			: 'A key appears twice in the same map; keep one.';
	}
	if (code === 'MULTIPLE_DOCS') {
		return 'The file holds more than one YAML document (a "---" line); keep everything in one document.';
	}
	if (code === 'TAB_AS_INDENT') return 'Tabs are not allowed for indentation in YAML; use spaces.';
	return `YAML syntax error: ${message.split('\n')[0] ?? message}`;
}

/** The node an alias chain ends at (bounded, so a cycle cannot hang). */
export function resolveAlias(yamlDocument: Document, node: unknown): unknown {
	let current = node;
	for (let hops = 0; hops < maximumAliasHops && isAlias(current); hops++) {
		current = current.resolve(yamlDocument) ?? null;
	}
	return current;
}

/** Where a node starts in the text; 0 for a missing node. */
export function nodeStart(node: unknown): number {
	const range = (node as { range?: [number, number, number] | null } | null)?.range;
	return range ? range[0] : 0;
}

function isEmptyScalar(node: unknown): boolean {
	if (node === null || node === undefined) return true;
	return (
		isScalar(node) &&
		node.value === null &&
		node.range !== null &&
		node.range !== undefined &&
		node.range[0] === node.range[1]
	);
}

/**
 * Walks `path` through the document. A missing key points at the map that should hold it; an empty
 * value (`title:` with nothing after it) points at its key, where the author will look.
 */
export function locateYamlPath(
	yamlDocument: Document,
	path: readonly YamlPathSegment[]
): { valueOffset: number; keyOffset: number } {
	let node: unknown = resolveAlias(yamlDocument, yamlDocument.contents);
	let valueOffset = nodeStart(node);
	let keyOffset = valueOffset;
	for (const segment of path) {
		if (isMap(node)) {
			const pair = node.items.find(
				(candidate) => isScalar(candidate.key) && String(candidate.key.value) === String(segment)
			);
			if (!pair) return { valueOffset, keyOffset: valueOffset };
			keyOffset = nodeStart(pair.key);
			if (isEmptyScalar(pair.value)) return { valueOffset: keyOffset, keyOffset };
			node = resolveAlias(yamlDocument, pair.value);
			valueOffset = nodeStart(isAlias(pair.value) ? pair.value : node);
		} else if (isSeq(node) && typeof segment === 'number') {
			const item = node.items[segment];
			if (item === undefined) return { valueOffset, keyOffset: valueOffset };
			node = resolveAlias(yamlDocument, item);
			valueOffset = nodeStart(item);
			keyOffset = valueOffset;
		} else {
			return { valueOffset, keyOffset: valueOffset };
		}
	}
	return { valueOffset, keyOffset };
}

function findRecursiveAlias(yamlDocument: Document): { name: string; offset: number } | null {
	let found: { name: string; offset: number } | null = null;
	visit(yamlDocument, {
		Alias(_key, alias) {
			const source = alias.resolve(yamlDocument);
			const aliasRange = alias.range;
			const sourceRange = source?.range;
			if (
				aliasRange &&
				sourceRange &&
				aliasRange[0] >= sourceRange[0] &&
				aliasRange[0] < sourceRange[2]
			) {
				found = { name: alias.source, offset: aliasRange[0] };
				return visit.BREAK;
			}
			return undefined;
		}
	});
	return found;
}
