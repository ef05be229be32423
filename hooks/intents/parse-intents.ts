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
import type { z } from 'zod';
import type { Intent, IntentsDocument } from './intent.js';
import { intentsFileSchema, type IntentEntry } from './intent-schema.js';

/** One problem in active_intents.yaml, placed where the instructor has to fix it (1-based). */
export interface IntentsError {
	line: number;
	column: number;
	message: string;
	path: (string | number)[];
}

export type ParseIntentsResult =
	{ ok: true; document: IntentsDocument } | { ok: false; errors: IntentsError[] };

type Issue = z.core.$ZodIssue;
type PathSegment = string | number;

const knownIntentKeys = new Set([
	'id',
	'name',
	'status',
	'owned_scope',
	'constraints',
	'acceptance_criteria',
	'parallel'
]);

const exampleStart =
	'start with "active_intents:" followed by a list of intents, each with id, name and status';

export function formatIntentsError(error: IntentsError): string {
	return `${error.line}:${error.column} ${error.message}`;
}

export function parseIntents(yamlText: string): ParseIntentsResult {
	const lineCounter = new LineCounter();
	const yamlDocument = parseDocument(yamlText, { lineCounter, prettyErrors: false });
	const position = (offset: number): { line: number; column: number } => {
		const { line, col } = lineCounter.linePos(offset);
		// LineCounter reports line 0 before it has seen a newline; the file's first line is 1.
		return line === 0 ? { line: 1, column: offset + 1 } : { line, column: col };
	};

	if (yamlDocument.errors.length > 0) {
		return {
			ok: false,
			errors: sortErrors(
				yamlDocument.errors.map((error) => ({
					...position(error.pos[0]),
					message: syntaxMessage(error.code, error.message, yamlText, error.pos),
					path: []
				}))
			)
		};
	}

	const contents = resolveAlias(yamlDocument, yamlDocument.contents);
	if (contents === null || (isScalar(contents) && contents.value === null)) {
		return failAt(position(0), `The file is empty: ${exampleStart}.`, []);
	}
	if (!isMap(contents)) {
		return failAt(
			position(nodeStart(contents)),
			`The top level must be a map with an active_intents key (got ${isSeq(contents) ? 'a list' : 'a single value'}); ${exampleStart}.`,
			[]
		);
	}
	if (!contents.has('active_intents')) {
		const lookalike = contents.items.find(
			(pair) => isScalar(pair.key) && /intent/i.test(String(pair.key.value))
		);
		if (lookalike && isScalar(lookalike.key)) {
			return failAt(
				position(nodeStart(lookalike.key)),
				`Missing top-level key active_intents (found "${String(lookalike.key.value)}"; did you mean active_intents?)`,
				[]
			);
		}
		return failAt(
			position(nodeStart(contents)),
			`Missing top-level key active_intents: ${exampleStart}.`,
			[]
		);
	}

	const recursiveAlias = findRecursiveAlias(yamlDocument);
	if (recursiveAlias !== null) {
		// A value that contains itself cannot be turned into JSON (ledger, exports) or shown.
		return failAt(
			position(recursiveAlias.offset),
			`The alias *${recursiveAlias.name} refers to a value that contains it; a value cannot include itself.`,
			[]
		);
	}

	let data: unknown;
	try {
		data = yamlDocument.toJS({ maxAliasCount: 1000 });
	} catch (error) {
		// toJS refuses alias bombs ("billion laughs"); report it instead of hanging or throwing.
		const message = error instanceof Error ? error.message : String(error);
		return failAt(position(0), `The file could not be read: ${message}`, []);
	}

	const errors: IntentsError[] = [];
	const located = (path: PathSegment[], message: string): IntentsError => ({
		...position(offsetOf(yamlDocument, path)),
		message,
		path
	});

	const result = intentsFileSchema.safeParse(data, { reportInput: true });
	if (!result.success) {
		for (const problem of result.error.issues.flatMap((issue) => describeIssue(issue, []))) {
			errors.push(located(problem.path, problem.message));
		}
	}
	errors.push(...duplicateIdErrors(yamlDocument, position));

	if (errors.length > 0 || !result.success) {
		return { ok: false, errors: sortErrors(dedupe(errors)) };
	}

	const { active_intents: entries, ...documentExtra } = result.data;
	return {
		ok: true,
		document: { intents: entries.map(toIntent), extra: documentExtra }
	};
}

function toIntent(entry: IntentEntry): Intent {
	const extra: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(entry)) {
		if (!knownIntentKeys.has(key)) extra[key] = value;
	}
	return {
		id: entry.id,
		name: entry.name,
		status: entry.status,
		owned_scope: entry.owned_scope,
		constraints: entry.constraints,
		acceptance_criteria: entry.acceptance_criteria,
		parallel: entry.parallel,
		extra
	};
}

function failAt(
	where: { line: number; column: number },
	message: string,
	path: PathSegment[]
): ParseIntentsResult {
	return { ok: false, errors: [{ ...where, message, path }] };
}

function syntaxMessage(
	code: string,
	message: string,
	text: string,
	range: [number, number]
): string {
	if (code === 'DUPLICATE_KEY') {
		// The error range covers only the key's first character; read the whole key from the text.
		const keyMatch = /^(?:"([^"\n]*)"|'([^'\n]*)'|([^:\n]*?))\s*:/.exec(
			text.slice(range[0], range[0] + 200)
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
	return `YAML syntax error: ${message}`;
}

function sortErrors(errors: IntentsError[]): IntentsError[] {
	return [...errors].sort((left, right) => left.line - right.line || left.column - right.column);
}

function dedupe(errors: IntentsError[]): IntentsError[] {
	const seen = new Set<string>();
	return errors.filter((error) => {
		const key = `${error.line}:${error.column}:${error.message}`;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

// ---------------------------------------------------------------------------------------------
// Turning zod issues into sentences an instructor can act on.

interface Problem {
	path: PathSegment[];
	message: string;
}

function describeIssue(issue: Issue, prefix: PathSegment[]): Problem[] {
	const path = [...prefix, ...issue.path.map(toSegment)];
	const label = fieldLabel(path);
	const input = (issue as { input?: unknown }).input;

	switch (issue.code) {
		case 'invalid_type': {
			if (input === undefined) return [{ path, message: `${label} is required` }];
			const isIntentEntry = path.length === 2 && path[0] === 'active_intents';
			const expected = isIntentEntry ? 'a map with id, name and status' : typeName(issue.expected);
			const hint = path.length === 1 ? '' : typeHint(issue.expected, input);
			return [
				{ path, message: `${label} must be ${expected} (got ${describeValue(input)})${hint}` }
			];
		}
		case 'invalid_value': {
			const options = issue.values.map(String).join(', ');
			if (input === undefined)
				return [{ path, message: `${label} is required (one of ${options})` }];
			const suggestion = closeOption(input, issue.values.map(String));
			const hint = suggestion ? `; did you mean ${suggestion}?` : '';
			return [
				{ path, message: `${label} must be one of ${options} (got ${describeValue(input)})${hint}` }
			];
		}
		case 'invalid_union': {
			// For a map that almost fits the object branch, the useful message is what that branch
			// is missing (e.g. `run`), not "does not match any alternative".
			if (isPlainObject(input)) {
				const objectBranch = issue.errors.find(
					(branch) =>
						!branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0)
				);
				if (objectBranch) return objectBranch.flatMap((inner) => describeIssue(inner, path));
			}
			const expected = path.includes('acceptance_criteria')
				? 'a sentence (string) or a map with description and run'
				: 'a value of another type';
			return [{ path, message: `${label} must be ${expected} (got ${describeValue(input)})` }];
		}
		case 'too_small':
		case 'custom':
			// The schema gives these checks their own plain messages (e.g. "id must not be empty").
			return [{ path, message: issue.message }];
		default:
			return [{ path, message: `${label}: ${issue.message}` }];
	}
}

function toSegment(segment: PropertyKey): PathSegment {
	return typeof segment === 'number' ? segment : String(segment);
}

function fieldLabel(path: PathSegment[]): string {
	if (path.length === 0) return 'The file';
	if (path[0] === 'active_intents' && path.length >= 2) {
		const rest = path.slice(2);
		if (rest.length === 0) return `Entry ${Number(path[1]) + 1} of active_intents`;
		return formatPath(rest);
	}
	return formatPath(path);
}

function formatPath(path: PathSegment[]): string {
	let text = '';
	for (const segment of path) {
		if (typeof segment === 'number') text += `[${segment}]`;
		else text += text === '' ? segment : `.${segment}`;
	}
	return text;
}

function typeName(expected: string): string {
	switch (expected) {
		case 'string':
			return 'a string';
		case 'array':
			return 'a list';
		case 'boolean':
			return 'true or false';
		case 'object':
			return 'a map';
		case 'number':
			return 'a number';
		default:
			return expected;
	}
}

function typeHint(expected: string, input: unknown): string {
	if (expected === 'string' && (typeof input === 'number' || typeof input === 'boolean')) {
		return `; put it in quotes, e.g. "${String(input)}"`;
	}
	if (expected === 'array' && input === null) return '; write [] for an empty list';
	if (expected === 'array' && typeof input === 'string') {
		return `; write a list, e.g. [${JSON.stringify(input)}]`;
	}
	return '';
}

function describeValue(value: unknown): string {
	if (value === null) return 'nothing';
	if (typeof value === 'string') {
		return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
	}
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'a map';
	return String(value);
}

function closeOption(input: unknown, options: string[]): string | null {
	if (typeof input !== 'string') return null;
	const canonical = input
		.trim()
		.toUpperCase()
		.replace(/[\s-]+/g, '_');
	return options.find((option) => option === canonical && option !== input) ?? null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Finding the node a path points at, so errors land on the value that is wrong.

function resolveAlias(yamlDocument: Document, node: unknown): unknown {
	let current = node;
	// Bounded: an alias chain longer than this is not something an instructor wrote.
	for (let hops = 0; hops < 32 && isAlias(current); hops++) {
		current = current.resolve(yamlDocument) ?? null;
	}
	return current;
}

function nodeStart(node: unknown): number {
	const range = (node as { range?: [number, number, number] | null } | null)?.range;
	return range ? range[0] : 0;
}

function keyEquals(key: unknown, segment: PathSegment): boolean {
	return isScalar(key) && String(key.value) === String(segment);
}

/** The offset of the value at `path`, or of the closest thing that exists on the way there. */
function offsetOf(yamlDocument: Document, path: PathSegment[]): number {
	let node: unknown = resolveAlias(yamlDocument, yamlDocument.contents);
	let offset = nodeStart(node);
	for (const segment of path) {
		if (isMap(node)) {
			const pair = node.items.find((candidate) => keyEquals(candidate.key, segment));
			// A missing key: point at the map that should hold it.
			if (!pair) return offset;
			const value = pair.value;
			const emptyValue =
				value === null ||
				(isScalar(value) &&
					value.value === null &&
					value.range &&
					value.range[0] === value.range[1]);
			if (emptyValue) return nodeStart(pair.key);
			node = resolveAlias(yamlDocument, value);
			offset = nodeStart(isAlias(value) ? value : node);
		} else if (isSeq(node) && typeof segment === 'number') {
			const item = node.items[segment];
			if (item === undefined) return offset;
			node = resolveAlias(yamlDocument, item);
			offset = nodeStart(item);
		} else {
			return offset;
		}
	}
	return offset;
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

function duplicateIdErrors(
	yamlDocument: Document,
	position: (offset: number) => { line: number; column: number }
): IntentsError[] {
	const contents = resolveAlias(yamlDocument, yamlDocument.contents);
	if (!isMap(contents)) return [];
	const list = resolveAlias(yamlDocument, contents.get('active_intents', true));
	if (!isSeq(list)) return [];
	const firstLine = new Map<string, number>();
	const errors: IntentsError[] = [];
	list.items.forEach((item, index) => {
		const entry = resolveAlias(yamlDocument, item);
		if (!isMap(entry)) return;
		const idNode = entry.get('id', true);
		if (!isScalar(idNode) || typeof idNode.value !== 'string') return;
		const where = position(nodeStart(idNode));
		const earlier = firstLine.get(idNode.value);
		if (earlier === undefined) {
			firstLine.set(idNode.value, where.line);
			return;
		}
		errors.push({
			...where,
			message: `duplicate intent id "${idNode.value}" (already used on line ${earlier}); ids must be unique`,
			path: ['active_intents', index, 'id']
		});
	});
	return errors;
}
