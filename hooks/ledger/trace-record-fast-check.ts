import { z } from 'zod';
import { mutationClasses } from './agent-trace-record.js';

/**
 * A fast "surely valid" check of an Agent Trace record, for verifying ledgers of many thousand
 * records: it returns true only for records the schema in agent-trace-schema.ts accepts, written
 * out by hand (about 20× faster than the zod schema). Anything it is not sure of returns false and
 * goes to the schema, which gives the verdict and the messages. So it may be stricter than the
 * schema, never looser: every rule here is the schema's rule or a stricter one (integers must be
 * safe integers, as zod's `.int()` demands; the UUID and date-time formats use zod's own checks).
 */
export function surelyValidTraceRecord(value: unknown): boolean {
	if (!isPlainObject(value)) return false;
	let required = 0;
	let deletion = false;
	for (const key in value) {
		const member = value[key];
		switch (key) {
			case 'version':
				if (typeof member !== 'string' || !semverPattern.test(member)) return false;
				required++;
				break;
			case 'id':
				if (typeof member !== 'string' || !uuid.safeParse(member).success) return false;
				required++;
				break;
			case 'timestamp':
				if (typeof member !== 'string' || !dateTime.safeParse(member).success) return false;
				required++;
				break;
			case 'tool':
				if (!toolOk(member)) return false;
				required++;
				break;
			case 'files':
				if (!Array.isArray(member)) return false;
				required++;
				break;
			case 'vcs':
				if (!vcsOk(member)) return false;
				break;
			case 'metadata': {
				if (!isPlainObject(member)) return false;
				const operation = threadlineMetadataOperation(member['dev.threadline']);
				if (operation === null) return false;
				deletion = operation === 'delete';
				required++;
				break;
			}
			default:
				return false;
		}
	}
	if (required !== 6) return false;
	for (const file of value.files as unknown[]) if (!fileOk(file, deletion)) return false;
	return true;
}

const semverPattern = /^[0-9]+\.[0-9]+\.[0-9]+$/;
const sha256Pattern = /^sha256:[0-9a-f]{64}$/;
const uriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]*$/;
const uuid = z.uuid();
const dateTime = z.iso.datetime({ offset: true });
const contributorTypes = new Set(['ai', 'human', 'mixed', 'unknown']);
const vcsTypes = new Set(['git', 'jj', 'hg', 'svn']);
const classes = new Set<string>(mutationClasses);

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const prototype: unknown = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

function nonEmptyString(value: unknown): value is string {
	return typeof value === 'string' && value.length > 0;
}

function lineNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

function sha256(value: unknown): boolean {
	return typeof value === 'string' && sha256Pattern.test(value);
}

function uri(value: unknown): boolean {
	return typeof value === 'string' && uriPattern.test(value);
}

/** Checks the members of `value` against `rules`; each rule must pass, required ones be present. */
function membersOk(
	value: unknown,
	rules: Record<string, (member: unknown) => boolean>,
	required: readonly string[]
): boolean {
	if (!isPlainObject(value)) return false;
	for (const key in value) {
		if (!Object.hasOwn(rules, key)) return false;
		if (!(rules[key] as (member: unknown) => boolean)(value[key])) return false;
	}
	for (const key of required) if (!Object.hasOwn(value, key)) return false;
	return true;
}

const toolRules = {
	name: (member: unknown) => member === 'threadline',
	version: nonEmptyString
};
function toolOk(value: unknown): boolean {
	return membersOk(value, toolRules, ['name', 'version']);
}

const vcsRules = {
	type: (member: unknown) => typeof member === 'string' && vcsTypes.has(member),
	revision: nonEmptyString
};
function vcsOk(value: unknown): boolean {
	return membersOk(value, vcsRules, ['type', 'revision']);
}

const metadataRules = {
	intent_id: (member: unknown) => member === null || nonEmptyString(member),
	mutation_class: (member: unknown) => typeof member === 'string' && classes.has(member),
	declared_mutation_class: (member: unknown) =>
		member === null || (typeof member === 'string' && classes.has(member)),
	tool: nonEmptyString,
	tool_call_id: (member: unknown) => member === null || typeof member === 'string',
	session_id: nonEmptyString,
	operation: (member: unknown) => member === 'write' || member === 'delete',
	file_hash: (member: unknown) => member === null || sha256(member),
	seq: lineNumber,
	prev_hash: sha256,
	hash: sha256
};
const metadataRequired = Object.keys(metadataRules);

/** The operation of a valid `metadata["dev.threadline"]`, or null when it is not surely valid. */
function threadlineMetadataOperation(value: unknown): 'write' | 'delete' | null {
	if (!membersOk(value, metadataRules, metadataRequired)) return null;
	const { operation, file_hash: fileHash } = value as { operation: string; file_hash: unknown };
	if (operation === 'delete') return fileHash === null ? 'delete' : null;
	return fileHash === null ? null : 'write';
}

function relativePath(value: unknown): boolean {
	return nonEmptyString(value) && !value.startsWith('/') && !value.split(/[\\/]/).includes('..');
}

function fileOk(value: unknown, deletion: boolean): boolean {
	if (!isPlainObject(value)) return false;
	let required = 0;
	for (const key in value) {
		if (key === 'path') {
			if (!relativePath(value.path)) return false;
		} else if (key === 'conversations') {
			const conversations = value.conversations;
			if (!Array.isArray(conversations)) return false;
			for (const conversation of conversations)
				if (!conversationOk(conversation, deletion)) return false;
		} else return false;
		required++;
	}
	return required === 2;
}

const contributorRules = {
	type: (member: unknown) => typeof member === 'string' && contributorTypes.has(member),
	model_id: (member: unknown) => typeof member === 'string' && member.length <= 250
};
const rangeRules = {
	start_line: lineNumber,
	end_line: lineNumber,
	content_hash: sha256
};
const relatedRules = {
	type: nonEmptyString,
	url: uri,
	value: (member: unknown) => typeof member === 'string'
};

function conversationOk(value: unknown, deletion: boolean): boolean {
	if (!isPlainObject(value)) return false;
	let required = 0;
	for (const key in value) {
		const member = value[key];
		switch (key) {
			case 'url':
				if (!uri(member)) return false;
				break;
			case 'contributor':
				if (!membersOk(member, contributorRules, ['type'])) return false;
				break;
			case 'ranges':
				if (!Array.isArray(member) || (deletion && member.length > 0)) return false;
				for (const range of member) {
					if (!membersOk(range, rangeRules, ['start_line', 'end_line', 'content_hash']))
						return false;
					if (
						(range as { end_line: number }).end_line < (range as { start_line: number }).start_line
					)
						return false;
				}
				break;
			case 'related':
				if (!Array.isArray(member)) return false;
				for (const related of member)
					if (!membersOk(related, relatedRules, ['type', 'url'])) return false;
				break;
			default:
				return false;
		}
		required++;
	}
	return required === 4;
}
