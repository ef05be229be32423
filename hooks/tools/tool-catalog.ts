import { z } from 'zod';

/**
 * The agent's tools: name, input schema and risk class. The same schemas validate model input in
 * the pipeline and describe the tools to the model (via the AI SDK in the app).
 * Risk classes: `safe` reads, `destructive` changes the workspace or runs commands, `meta` changes
 * governance state (intents, lessons). Unknown tools are destructive: fail closed.
 */
const mutationClassSchema = z
	.enum(['AST_REFACTOR', 'INTENT_EVOLUTION'])
	.describe('AST_REFACTOR: same behaviour, new shape. INTENT_EVOLUTION: new or changed behaviour.');
const intentIdSchema = z.string().min(1).describe('The active intent id, e.g. INT-001.');
const pathSchema = z.string().min(1).describe('Workspace-relative path, e.g. src/auth/jwt.ts.');

export const toolInputSchemas = {
	select_active_intent: z.strictObject({ intent_id: intentIdSchema }),
	list_files: z.strictObject({
		path: z.string().optional().describe('Folder to list; the workspace root when omitted.'),
		recursive: z.boolean().optional()
	}),
	read_file: z.strictObject({
		path: pathSchema,
		start_line: z.number().int().min(1).optional(),
		end_line: z.number().int().min(1).optional()
	}),
	search_files: z.strictObject({
		pattern: z.string().min(1).describe('A JavaScript regular expression.'),
		path: z.string().optional(),
		glob: z.string().optional().describe('Only files matching this glob, e.g. **/*.ts.')
	}),
	write_to_file: z.strictObject({
		path: pathSchema,
		content: z.string(),
		intent_id: intentIdSchema,
		mutation_class: mutationClassSchema
	}),
	apply_diff: z.strictObject({
		path: pathSchema,
		search: z.string().min(1).describe('The exact block to replace; must occur exactly once.'),
		replace: z.string(),
		intent_id: intentIdSchema,
		mutation_class: mutationClassSchema
	}),
	delete_file: z.strictObject({ path: pathSchema, intent_id: intentIdSchema }),
	execute_command: z.strictObject({
		command: z.string().min(1),
		cwd: z.string().optional(),
		timeout_ms: z.number().int().min(100).max(600_000).optional()
	}),
	record_lesson: z.strictObject({
		lesson: z.string().min(1).max(2000),
		category: z.string().min(1).max(60).optional()
	}),
	request_scope_expansion: z.strictObject({
		intent_id: intentIdSchema,
		paths: z.array(z.string().min(1)).min(1),
		reason: z.string().min(1)
	}),
	complete_intent: z.strictObject({
		intent_id: intentIdSchema,
		evidence: z.string().optional()
	})
} as const;

export type ToolName = keyof typeof toolInputSchemas;
export type ToolInput<Name extends ToolName> = z.infer<(typeof toolInputSchemas)[Name]>;

export type ToolRisk = 'safe' | 'destructive' | 'meta';

export const toolRisks: Record<ToolName, ToolRisk> = {
	select_active_intent: 'meta',
	list_files: 'safe',
	read_file: 'safe',
	search_files: 'safe',
	write_to_file: 'destructive',
	apply_diff: 'destructive',
	delete_file: 'destructive',
	execute_command: 'destructive',
	record_lesson: 'meta',
	request_scope_expansion: 'meta',
	complete_intent: 'meta'
};

export const toolDescriptions: Record<ToolName, string> = {
	select_active_intent:
		'Check out an IN_PROGRESS intent before changing anything. Returns its <intent_context>.',
	list_files: 'List files and folders in the workspace.',
	read_file: 'Read a text file (optionally a line range). Needed before changing an existing file.',
	search_files: 'Search file contents with a regular expression.',
	write_to_file: 'Create or overwrite a whole file inside the active intent’s owned scope.',
	apply_diff: 'Replace one exact block of a file with new text.',
	delete_file: 'Delete a file inside the active intent’s owned scope.',
	execute_command:
		'Run a shell command in the sandbox. Files it changes outside the scope are reverted.',
	record_lesson: 'Record a lesson learned (appended to the shared AGENT.md).',
	request_scope_expansion: 'Ask the human to add paths to an intent’s owned scope.',
	complete_intent: 'Mark the active intent COMPLETED after its acceptance criteria pass.'
};

export function isKnownTool(name: string): name is ToolName {
	return Object.hasOwn(toolInputSchemas, name);
}

export function riskOf(name: string): ToolRisk {
	return isKnownTool(name) ? toolRisks[name] : 'destructive';
}

/** Tools that name the intent they act for; it must equal the session's active intent. */
export const intentBoundTools: readonly ToolName[] = [
	'write_to_file',
	'apply_diff',
	'delete_file',
	'request_scope_expansion',
	'complete_intent'
];

/** Tools that change files and therefore need an active intent and scope checks. */
export const fileMutatingTools: readonly ToolName[] = [
	'write_to_file',
	'apply_diff',
	'delete_file'
];
