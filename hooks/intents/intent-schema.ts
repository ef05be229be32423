import { z } from 'zod';
import { intentStatuses } from './intent.js';

/**
 * The schema of `.orchestration/active_intents.yaml` as an instructor writes it (TRP1 shape).
 * Objects are loose: fields we do not interpret are kept, never rejected, so an instructor's own
 * annotations survive a round trip through the IDE.
 */
export const runnableCriterionSchema = z.looseObject({
	description: z.string().describe('What must be true, in words.'),
	run: z.string().describe('A command that checks it, e.g. "npm test -- auth".')
});

export const acceptanceCriterionSchema = z.union([z.string(), runnableCriterionSchema]);

export const intentEntrySchema = z.looseObject({
	id: z
		.string()
		.min(1, { error: 'id must not be empty', abort: true })
		.refine((id) => id.trim() !== '', 'id must not be only whitespace')
		.describe('Unique id the agent checks out, e.g. INT-001.'),
	name: z.string().describe('Short human-readable title.'),
	status: z.enum(intentStatuses).describe('DRAFT | IN_PROGRESS | BLOCKED | COMPLETED'),
	owned_scope: z
		.array(z.string())
		.default([])
		.describe('Globs of the files this intent may change, e.g. "src/auth/**".'),
	constraints: z.array(z.string()).default([]).describe('Rules the agent must follow.'),
	acceptance_criteria: z
		.array(acceptanceCriterionSchema)
		.default([])
		.describe('Each a sentence, or {description, run} with a command that checks it.'),
	parallel: z
		.boolean()
		.default(false)
		.describe('When true, several sessions may hold the intent at once.')
});

export const intentsFileSchema = z.looseObject({
	active_intents: z.array(intentEntrySchema).describe('The intents an agent may check out.')
});

/** The parsed file, before unknown fields are split into `extra` (see parse-intents.ts). */
export type IntentsFile = z.output<typeof intentsFileSchema>;
export type IntentEntry = z.output<typeof intentEntrySchema>;

/**
 * JSON Schema of the file as it is written (defaults make fields optional), for editor validation
 * (monaco-yaml) and for anyone checking the file outside Threadline.
 */
export function intentsJsonSchema(): object {
	return z.toJSONSchema(intentsFileSchema, { io: 'input', target: 'draft-07' });
}
