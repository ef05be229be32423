import { describe, expect, it } from 'vitest';
import { validateToolCall } from './validate-tool-call.js';

function invalid(tool: string, input: unknown) {
	const result = validateToolCall({ sessionId: 's', toolCallId: 'c', tool, input });
	if (!('error' in result)) throw new Error('expected invalid_input');
	expect(result.error.code).toBe('invalid_input');
	return result.error;
}

describe('validateToolCall: input errors in plain words', () => {
	it('names each wrong field, what was expected and what came instead, never zod JSON', () => {
		const error = invalid('write_to_file', { path: 3, intent_id: '', mutation_class: 'REFACTOR' });
		expect(error.message).toBe(
			'Invalid input for write_to_file: `path` should be text (a string), not the number 3; ' +
				'`content` is missing (expected text (a string)); `intent_id` is empty (expected non-empty text); ' +
				'`mutation_class` should be "AST_REFACTOR" or "INTENT_EVOLUTION", not the text "REFACTOR".'
		);
		expect(error.suggestion).toBe(
			'Call write_to_file again with these fields: path (text), content (text), intent_id (text), ' +
				'mutation_class (AST_REFACTOR or INTENT_EVOLUTION).'
		);
		for (const text of [error.message, error.suggestion]) {
			expect(text).not.toMatch(/[[{]\s*"|invalid_type|Invalid input: expected/);
		}
	});

	it('says which fields are unknown and which ones exist', () => {
		const error = invalid('read_file', { path: 'a.ts', line: 3 });
		expect(error.message).toBe(
			'Invalid input for read_file: unknown field `line`; the fields are path, start_line, end_line.'
		);
		expect(error.suggestion).toContain('start_line (whole number, optional)');
	});

	it('describes numbers out of range, fractions, list items and a missing object', () => {
		expect(invalid('read_file', { path: 'a.ts', start_line: 0 }).message).toContain(
			'`start_line` should be at least 1, not the number 0'
		);
		expect(invalid('read_file', { path: 'a.ts', end_line: 2.5 }).message).toContain(
			'`end_line` should be a whole number, not the number 2.5'
		);
		expect(
			invalid('request_scope_expansion', { intent_id: 'INT-1', paths: ['ok', ''], reason: 'r' })
				.message
		).toContain('`paths[1]` is empty');
		expect(
			invalid('request_scope_expansion', { intent_id: 'INT-1', paths: [], reason: 'r' }).message
		).toContain('`paths` needs at least 1 item');
		expect(invalid('execute_command', 'ls').message).toBe(
			'Invalid input for execute_command: the input should be a JSON object with command (text), ' +
				'cwd (text, optional), timeout_ms (whole number, optional), not the text "ls".'
		);
		expect(invalid('list_files', { recursive: 'yes' }).message).toContain(
			'`recursive` should be true or false, not the text "yes"'
		);
	});
});
