import type { z } from 'zod';

/**
 * Plain words for a tool input that does not match its schema: which field, what was expected,
 * what came instead. The reader is a model correcting its call and the learner reading the chat,
 * so zod's own messages ("Invalid input: expected string, received undefined") and its JSON are
 * never shown as they are.
 */
export function describeInputIssues(
	issues: readonly z.core.$ZodIssue[],
	input: unknown,
	schema?: z.ZodType
): string[] {
	return issues.map((issue) => describeIssue(issue, input, schema));
}

/** `path (text), content (text), mutation_class (AST_REFACTOR or INTENT_EVOLUTION)`, for a suggestion. */
export function describeExpectedFields(schema: z.ZodType): string | undefined {
	const shape = objectShape(schema);
	if (!shape) return undefined;
	return Object.entries(shape)
		.map(([name, field]) => {
			const { optional, inner } = unwrapOptional(field);
			return `${name} (${expectedOf(inner)}${optional ? ', optional' : ''})`;
		})
		.join(', ');
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown, schema?: z.ZodType): string {
	const path = issue.path as readonly PropertyKey[];
	const field = path.length ? `\`${formatPath(path)}\`` : 'the input';
	const received = valueAt(input, path);
	switch (issue.code) {
		case 'invalid_type': {
			if (path.length === 0 && issue.expected === 'object') {
				const fields = schema ? describeExpectedFields(schema) : undefined;
				return `the input should be a JSON object${fields ? ` with ${fields}` : ''}, not ${kindOf(received.value)}`;
			}
			if (!received.present || received.value === undefined)
				return `${field} is missing (expected ${typeName(issue.expected)})`;
			if (issue.expected === 'int')
				return `${field} should be a whole number, not ${kindOf(received.value)}`;
			return `${field} should be ${typeName(issue.expected)}, not ${kindOf(received.value)}`;
		}
		case 'too_small':
			return `${field} ${tooSmall(issue, received.value)}`;
		case 'too_big':
			return `${field} ${tooBig(issue, received.value)}`;
		case 'invalid_value':
			return `${field} should be ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}, not ${kindOf(received.value)}`;
		case 'unrecognized_keys': {
			const known = schema && path.length === 0 ? objectShape(schema) : undefined;
			const keys = issue.keys.map((key) => `\`${key}\``).join(', ');
			const allowed = known ? `; the fields are ${Object.keys(known).join(', ')}` : '';
			return `${issue.keys.length === 1 ? 'unknown field' : 'unknown fields'} ${keys}${allowed}`;
		}
		case 'invalid_format':
			return `${field} should be ${issue.format === 'regex' ? 'text of the expected form' : `a valid ${issue.format}`}`;
		case 'not_multiple_of':
			return `${field} should be a multiple of ${String(issue.divisor)}`;
		case 'invalid_union':
			return `${field} does not match any of the accepted forms`;
		default:
			// Custom refinements carry their own sentence, written by us.
			return `${field}: ${issue.message}`;
	}
}

function tooSmall(issue: z.core.$ZodIssueTooSmall, value: unknown): string {
	const minimum = Number(issue.minimum);
	if (issue.origin === 'string')
		return minimum <= 1
			? 'is empty (expected non-empty text)'
			: `should be at least ${minimum} characters long`;
	if (issue.origin === 'array' || issue.origin === 'set')
		return `needs at least ${minimum} ${minimum === 1 ? 'item' : 'items'}`;
	return `should be ${issue.inclusive ? 'at least' : 'more than'} ${minimum}, not ${kindOf(value)}`;
}

function tooBig(issue: z.core.$ZodIssueTooBig, value: unknown): string {
	const maximum = Number(issue.maximum);
	if (issue.origin === 'string') return `is too long (at most ${maximum} characters)`;
	if (issue.origin === 'array' || issue.origin === 'set')
		return `has too many items (at most ${maximum})`;
	return `should be ${issue.inclusive ? 'at most' : 'less than'} ${maximum}, not ${kindOf(value)}`;
}

function typeName(expected: string): string {
	switch (expected) {
		case 'string':
			return 'text (a string)';
		case 'number':
			return 'a number';
		case 'int':
			return 'a whole number';
		case 'boolean':
			return 'true or false';
		case 'array':
			return 'a list';
		case 'object':
			return 'an object';
		default:
			return expected;
	}
}

/** What the model sent, in a few words: `a number (3)`, `an empty list`, `nothing (null)`. */
function kindOf(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (typeof value === 'string') {
		const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
		return `the text ${JSON.stringify(shown)}`;
	}
	if (typeof value === 'number') return `the number ${value}`;
	if (typeof value === 'boolean') return String(value);
	if (Array.isArray(value)) return value.length ? `a list of ${value.length}` : 'an empty list';
	if (typeof value === 'object') return 'an object';
	return typeof value;
}

function valueAt(
	input: unknown,
	path: readonly PropertyKey[]
): { present: boolean; value: unknown } {
	let current = input;
	for (const key of path) {
		if (typeof current !== 'object' || current === null)
			return { present: false, value: undefined };
		if (!Object.prototype.hasOwnProperty.call(current, key))
			return { present: false, value: undefined };
		current = (current as Record<PropertyKey, unknown>)[key];
	}
	return { present: true, value: current };
}

function formatPath(path: readonly PropertyKey[]): string {
	return path
		.map((key, index) =>
			typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`
		)
		.join('');
}

type SchemaDefinition = {
	type?: string;
	innerType?: z.ZodType;
	entries?: Record<string, unknown>;
	element?: z.ZodType;
	shape?: Record<string, z.ZodType>;
	checks?: { _zod?: { def?: { check?: string; format?: string } } }[];
};

function definitionOf(schema: z.ZodType): SchemaDefinition {
	return ((schema as unknown as { _zod?: { def?: SchemaDefinition } })._zod?.def ??
		{}) as SchemaDefinition;
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
	const definition = definitionOf(schema);
	return definition.type === 'object' ? definition.shape : undefined;
}

function unwrapOptional(schema: z.ZodType): { optional: boolean; inner: z.ZodType } {
	const definition = definitionOf(schema);
	if ((definition.type === 'optional' || definition.type === 'default') && definition.innerType)
		return { optional: true, inner: unwrapOptional(definition.innerType).inner };
	return { optional: false, inner: schema };
}

function expectedOf(schema: z.ZodType): string {
	const definition = definitionOf(schema);
	switch (definition.type) {
		case 'string':
			return 'text';
		case 'number':
			return definition.checks?.some((check) => check._zod?.def?.format === 'safeint')
				? 'whole number'
				: 'number';
		case 'boolean':
			return 'true or false';
		case 'enum':
			return Object.values(definition.entries ?? {})
				.map(String)
				.join(' or ');
		case 'array':
			return definition.element ? `list of ${expectedOf(definition.element)}` : 'list';
		case 'object':
			return 'object';
		default:
			return definition.type ?? 'value';
	}
}
