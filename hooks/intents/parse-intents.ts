import { isMap, isScalar, isSeq, type Document } from 'yaml';
import type { z } from 'zod';
import { criteriaBounds } from './criteria-bounds.js';
import type { Intent, IntentsDocument } from './intent.js';
import { intentsFileSchema, type IntentEntry } from './intent-schema.js';
import { describeValue, formatPath, quoteHint } from '../yaml/issue-wording.js';
import {
	locateYamlPath,
	nodeStart,
	parseYamlWithPositions,
	resolveAlias,
	sortByPosition,
	yamlData,
	yamlSyntaxErrors,
	type YamlPathSegment,
	type YamlPosition
} from '../yaml/yaml-position.js';

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
	const parsed = parseYamlWithPositions(yamlText);
	const { yamlDocument, position } = parsed;

	const syntaxErrors = yamlSyntaxErrors(parsed);
	if (syntaxErrors.length > 0) {
		return { ok: false, errors: syntaxErrors.map((error) => ({ ...error, path: [] })) };
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

	// Only once the top level is known to be right: its message is the more useful one.
	const read = yamlData(parsed);
	if (!read.ok) {
		return { ok: false, errors: read.errors.map((error) => ({ ...error, path: [] })) };
	}

	const errors: IntentsError[] = [];
	const located = (path: YamlPathSegment[], message: string): IntentsError => ({
		...position(locateYamlPath(yamlDocument, path).valueOffset),
		message,
		path
	});

	const result = intentsFileSchema.safeParse(read.data, { reportInput: true });
	if (!result.success) {
		for (const problem of result.error.issues.flatMap((issue) => describeIssue(issue, []))) {
			errors.push(located(problem.path, problem.message));
		}
	}
	errors.push(...duplicateIdErrors(yamlDocument, position));
	if (result.success) {
		const tooMany = tooManyCriteria(result.data.active_intents);
		if (tooMany) errors.push(located(tooMany.path, tooMany.message));
	}

	if (errors.length > 0 || !result.success) {
		return { ok: false, errors: sortByPosition(dedupe(errors)) };
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

function failAt(where: YamlPosition, message: string, path: YamlPathSegment[]): ParseIntentsResult {
	return { ok: false, errors: [{ ...where, message, path }] };
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
	path: YamlPathSegment[];
	message: string;
}

function describeIssue(issue: Issue, prefix: YamlPathSegment[]): Problem[] {
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

function toSegment(segment: PropertyKey): YamlPathSegment {
	return typeof segment === 'number' ? segment : String(segment);
}

function fieldLabel(path: YamlPathSegment[]): string {
	if (path.length === 0) return 'The file';
	if (path[0] === 'active_intents' && path.length >= 2) {
		const rest = path.slice(2);
		if (rest.length === 0) return `Entry ${Number(path[1]) + 1} of active_intents`;
		return formatPath(rest);
	}
	return formatPath(path);
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
	if (expected === 'array' && input === null) return '; write [] for an empty list';
	return quoteHint(expected, input);
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
// Checks the schema cannot make: they need the YAML nodes (to place the second use of an id).

/**
 * More acceptance criteria than one check may run (criteriaBounds.maxCriteriaPerFile, all
 * intents together): placed at the first one over the limit. Counted after aliases are resolved,
 * so a list reused under many intents counts each time it is used.
 */
function tooManyCriteria(entries: readonly IntentEntry[]): Problem | null {
	const limit = criteriaBounds.maxCriteriaPerFile;
	const total = entries.reduce((sum, entry) => sum + entry.acceptance_criteria.length, 0);
	if (total <= limit) return null;
	let seen = 0;
	for (const [index, entry] of entries.entries()) {
		const count = entry.acceptance_criteria.length;
		if (seen + count > limit) {
			return {
				path: ['active_intents', index, 'acceptance_criteria', limit - seen],
				message: `too many acceptance criteria: the file has ${total}, at most ${limit} are allowed (all intents together), so that checking them has an end; remove or merge ${total - limit}`
			};
		}
		seen += count;
	}
	return null;
}

function duplicateIdErrors(
	yamlDocument: Document,
	position: (offset: number) => YamlPosition
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
