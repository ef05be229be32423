import { z } from 'zod';
import { mutationClasses } from './agent-trace-record.js';

/**
 * An Agent Trace 0.1.0 record exactly as Threadline writes it, within what cursor/agent-trace
 * README §6.1 allows. Where the two differ, Threadline is the stricter: it always writes `tool`,
 * conversation `url`/`contributor`/`related` and range `content_hash`. The spec's version pattern
 * (`X.Y`) contradicts its own examples (`0.1.0`); we follow the upstream fix (`X.Y.Z`,
 * cursor/agent-trace issue #10).
 */

const semverPattern = /^[0-9]+\.[0-9]+\.[0-9]+$/;
const sha256Pattern = /^sha256:[0-9a-f]{64}$/;
/** RFC 3986 scheme, then no whitespace or characters a URI can never contain unescaped. */
const uriPattern = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]*$/;

const sha256Hash = z
	.string({ error: 'must be a string' })
	.regex(sha256Pattern, { error: 'must be "sha256:" followed by 64 lowercase hex digits' });

const uri = z
	.string({ error: 'must be a string' })
	.regex(uriPattern, { error: 'must be a URI with a scheme, e.g. urn:threadline:session:<id>' });

const relativePath = z
	.string({ error: 'must be a string' })
	.min(1, { error: 'must not be empty' })
	.refine((path) => !path.startsWith('/'), {
		error: 'must be relative to the repository root (no leading "/")'
	})
	.refine((path) => !path.split(/[\\/]/).includes('..'), {
		error: 'must not contain ".." segments'
	});

const lineNumber = z
	.number({ error: 'must be a number' })
	.int({ error: 'must be an integer' })
	.min(1, { error: 'must be 1 or more (lines are 1-based)' });

const mutationClass = z.enum(mutationClasses as [string, ...string[]], {
	error: `must be one of ${mutationClasses.join(', ')}`
});

const contributorSchema = z.strictObject({
	type: z.enum(['ai', 'human', 'mixed', 'unknown'], {
		error: 'must be one of ai, human, mixed, unknown'
	}),
	model_id: z
		.string({ error: 'must be a string' })
		.max(250, { error: 'must be at most 250 characters' })
		.optional()
});

const rangeSchema = z
	.strictObject({
		start_line: lineNumber,
		end_line: lineNumber,
		content_hash: sha256Hash
	})
	.refine((range) => range.end_line >= range.start_line, {
		error: 'end_line must not be before start_line',
		path: ['end_line']
	});

const relatedSchema = z.strictObject({
	type: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
	url: uri,
	value: z.string({ error: 'must be a string' }).optional()
});

const conversationSchema = z.strictObject({
	url: uri,
	contributor: contributorSchema,
	ranges: z.array(rangeSchema, { error: 'must be an array' }),
	related: z.array(relatedSchema, { error: 'must be an array' })
});

const fileSchema = z.strictObject({
	path: relativePath,
	conversations: z.array(conversationSchema, { error: 'must be an array' })
});

const threadlineMetadataSchema = z
	.strictObject({
		intent_id: z.string({ error: 'must be a string or null' }).min(1).nullable(),
		mutation_class: mutationClass,
		declared_mutation_class: mutationClass.nullable(),
		tool: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
		tool_call_id: z.string({ error: 'must be a string or null' }).nullable(),
		session_id: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
		operation: z.enum(['write', 'delete'], { error: 'must be write or delete' }),
		file_hash: sha256Hash.nullable(),
		seq: lineNumber.describe('1-based position in the trace chain'),
		prev_hash: sha256Hash,
		hash: sha256Hash
	})
	.superRefine((metadata, context) => {
		if (metadata.operation === 'delete' && metadata.file_hash !== null) {
			context.addIssue({
				code: 'custom',
				path: ['file_hash'],
				message: 'must be null when operation is delete'
			});
		}
		if (metadata.operation === 'write' && metadata.file_hash === null) {
			context.addIssue({
				code: 'custom',
				path: ['file_hash'],
				message: "must be the written file's hash when operation is write"
			});
		}
	});

export const agentTraceRecordSchema = z
	.strictObject({
		version: z
			.string({ error: 'must be a string' })
			.regex(semverPattern, { error: 'must be a version like 0.1.0' }),
		id: z.uuid({ error: 'must be a UUID' }),
		timestamp: z.iso.datetime({ offset: true, error: 'must be an RFC 3339 date-time' }),
		tool: z.strictObject({
			name: z.literal('threadline', { error: 'must be "threadline"' }),
			version: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' })
		}),
		files: z.array(fileSchema, { error: 'must be an array' }),
		vcs: z
			.strictObject({
				type: z.enum(['git', 'jj', 'hg', 'svn'], { error: 'must be one of git, jj, hg, svn' }),
				revision: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' })
			})
			.optional(),
		// Other vendors' keys are allowed (§7.2); ours must be complete.
		metadata: z.looseObject({ 'dev.threadline': threadlineMetadataSchema })
	})
	.superRefine((record, context) => {
		if (record.metadata['dev.threadline'].operation !== 'delete') return;
		record.files.forEach((file, filePosition) => {
			file.conversations.forEach((conversation, conversationPosition) => {
				if (conversation.ranges.length > 0) {
					context.addIssue({
						code: 'custom',
						path: ['files', filePosition, 'conversations', conversationPosition, 'ranges'],
						message: 'must be empty for a deletion'
					});
				}
			});
		});
	});

export type TraceValidation = { ok: true } | { ok: false; errors: string[] };

/** Checks one record; each error names its field, e.g. `files[0].path: must not contain ".." segments`. */
export function validateTraceRecord(value: unknown): TraceValidation {
	const result = agentTraceRecordSchema.safeParse(value);
	if (result.success) return { ok: true };
	return {
		ok: false,
		errors: result.error.issues.map((issue) => {
			const path = formatFieldPath(issue.path);
			if (issue.code === 'unrecognized_keys') {
				const keys = issue.keys.map((key) => JSON.stringify(key)).join(', ');
				return `${path}: unexpected field${issue.keys.length > 1 ? 's' : ''} ${keys}`;
			}
			if (issue.code === 'invalid_type' && isMissing(value, issue.path)) {
				return `${path}: is required`;
			}
			return `${path}: ${issue.message}`;
		})
	};
}

/** Whether the last key of `path` is absent from its (present) parent in `value`. */
function isMissing(value: unknown, path: readonly PropertyKey[]): boolean {
	let parent: unknown = value;
	for (const segment of path.slice(0, -1)) {
		if (typeof parent !== 'object' || parent === null) return false;
		parent = (parent as Record<PropertyKey, unknown>)[segment];
	}
	const last = path.at(-1);
	return (
		last !== undefined &&
		typeof parent === 'object' &&
		parent !== null &&
		!Object.prototype.hasOwnProperty.call(parent, last)
	);
}

/** `files[0].conversations[1].url`, `metadata["dev.threadline"].seq`; `(record)` for the root. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
	let text = '';
	for (const segment of path) {
		if (typeof segment === 'number') text += `[${segment}]`;
		else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) {
			text += text === '' ? segment : `.${segment}`;
		} else text += `[${JSON.stringify(String(segment))}]`;
	}
	return text === '' ? '(record)' : text;
}
