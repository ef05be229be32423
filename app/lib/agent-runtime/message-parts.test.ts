import { describe, expect, it } from 'vitest';
import type { AgentUIMessage } from '../agent/agent-tools.js';
import { readableInput, renderedParts } from './message-parts.js';

describe('renderedParts', () => {
	it('turns text and tool parts into what the chat shows', () => {
		const message = {
			id: 'm1',
			role: 'assistant',
			parts: [
				{ type: 'text', text: 'Picking the intent.' },
				{
					type: 'tool-select_active_intent',
					toolCallId: 'c1',
					state: 'output-available',
					input: { intent_id: 'INT-001' },
					output: '<intent_context/>'
				},
				{
					type: 'tool-write_to_file',
					toolCallId: 'c2',
					state: 'output-error',
					input: { path: 'src/db/x.ts' },
					errorText: JSON.stringify({
						status: 'error',
						code: 'scope_violation',
						message: 'Scope Violation',
						suggestion: ''
					})
				},
				{
					type: 'tool-execute_command',
					toolCallId: 'c3',
					state: 'input-available',
					input: { command: 'ls' }
				}
			]
		} as unknown as AgentUIMessage;
		const parts = renderedParts(message);
		expect(parts[0]).toEqual({ kind: 'text', text: 'Picking the intent.' });
		expect(parts[1]).toMatchObject({
			kind: 'tool',
			tool: 'select_active_intent',
			subject: 'INT-001',
			status: 'done'
		});
		expect(parts[2]).toMatchObject({
			tool: 'write_to_file',
			subject: 'src/db/x.ts',
			status: 'blocked',
			code: 'scope_violation'
		});
		expect(parts[3]).toMatchObject({ tool: 'execute_command', subject: 'ls', status: 'running' });
	});
});

describe('readableInput', () => {
	it('shows strings with their real line breaks and other values as JSON', () => {
		expect(
			readableInput({ path: 'src/a.ts', content: 'a\n\tb\n', recursive: true, list: [1] })
		).toEqual([
			{ key: 'path', value: 'src/a.ts' },
			{ key: 'content', value: 'a\n\tb\n' },
			{ key: 'recursive', value: 'true' },
			{ key: 'list', value: '[1]' }
		]);
		expect(readableInput('raw')).toEqual([{ key: 'input', value: 'raw' }]);
	});
});
