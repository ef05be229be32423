import type { YamlPathSegment } from './yaml-position.js';

/**
 * Words shared by the messages that turn schema issues into sentences a person can act on (the
 * intents file, scenario manifests): how a path and a wrong value are named, and how to fix a
 * value YAML read as the wrong type.
 */

/** `sandbox.needs`, `steps[2].input`. */
export function formatPath(path: readonly YamlPathSegment[]): string {
	let text = '';
	for (const segment of path) {
		if (typeof segment === 'number') text += `[${segment}]`;
		else text += text === '' ? segment : `.${segment}`;
	}
	return text;
}

/** A value as the author would recognise it in the message "(got …)". */
export function describeValue(value: unknown): string {
	if (value === null || value === undefined) return 'nothing';
	if (typeof value === 'string') {
		return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
	}
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'a map';
	return String(value);
}

/** How to write `input` so that YAML reads it as the `expected` type; empty when no hint fits. */
export function quoteHint(expected: string, input: unknown): string {
	if (expected === 'string' && (typeof input === 'number' || typeof input === 'boolean')) {
		return `; put it in quotes, e.g. "${String(input)}"`;
	}
	if (expected === 'array' && typeof input === 'string') {
		return `; write a list, e.g. [${JSON.stringify(input)}]`;
	}
	return '';
}
