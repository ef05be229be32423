import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseReplayScript, type ReplayScript } from '../../../hooks/replay/replay-script.js';
import {
	defaultDemoSessionId,
	demoSessionsOf,
	demoToolCallId,
	parseDemoToolCallId,
	planDemoTurn,
	stepSessions
} from './demo-script-plan.js';

function script(text: string): ReplayScript {
	const parsed = parseReplayScript(text);
	if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
	return parsed.script;
}

const jwtAuth = script(
	readFileSync(new URL('../../../public/scenarios/jwt-auth/demo.yaml', import.meta.url), 'utf8')
);

describe('sessions of the script', () => {
	it('gives a human edit without a session to the session it interrupts', () => {
		const owners = stepSessions(jwtAuth);
		const humanEdit = jwtAuth.steps.findIndex((step) => 'human_edit' in step);
		expect(humanEdit).toBeGreaterThan(0);
		expect(owners[humanEdit]).toBe('builder');
	});

	it('lists the sessions in the order they first act, with names and trace model ids', () => {
		expect(demoSessionsOf(jwtAuth)).toEqual([
			{ id: 'builder', name: 'Builder', modelId: 'demo/scripted' },
			{ id: 'refactorer', name: 'Refactorer', modelId: 'demo/refactorer' }
		]);
	});

	it('puts steps without a session in the default session, like threadline replay', () => {
		const plain = script(
			'steps:\n  - say: hi\n  - call: list_files\n  - human_edit: { path: a.ts, content: "x" }\n'
		);
		expect(stepSessions(plain)).toEqual([
			defaultDemoSessionId,
			defaultDemoSessionId,
			defaultDemoSessionId
		]);
		const editFirst = script(
			'steps:\n  - human_edit: { path: a.ts, content: "x" }\n  - call: list_files\n    session: one\n'
		);
		expect(stepSessions(editFirst)).toEqual(['one', 'one']);
	});
});

describe('demo tool call ids', () => {
	it('round-trip the session (even with dashes) and the call position', () => {
		const id = demoToolCallId('code-reviewer-2', 17, 'abc123');
		expect(parseDemoToolCallId(id)).toEqual({ sessionId: 'code-reviewer-2', ordinal: 17 });
	});

	it('do not match other models’ ids', () => {
		expect(parseDemoToolCallId('call_abc123')).toBeNull();
		expect(parseDemoToolCallId('toolu_01A09q90qw90lq917835lq9')).toBeNull();
		expect(parseDemoToolCallId('demo-builder-x-abc')).toBeNull();
	});
});

describe('planDemoTurn', () => {
	const userSays = (text: string) => ({
		role: 'user' as const,
		content: [{ type: 'text' as const, text }]
	});

	it('starts with the session’s first says and call, whatever the person typed', () => {
		const turn = planDemoTurn(jwtAuth, 'builder', [userSays('¿hola? 🙃 <script>')]);
		expect(turn).toEqual({
			texts: ['I will move authentication to JWT. First, a look around.'],
			toolCall: { ordinal: 0, toolName: 'list_files', input: { recursive: true } },
			finishReason: 'tool-calls'
		});
	});

	it('skips the steps of other sessions', () => {
		const turn = planDemoTurn(jwtAuth, 'refactorer', [userSays('go')]);
		expect(turn.texts).toEqual([
			'I am the Refactorer. The auth intent is taken; the database refactor is mine.'
		]);
		expect(turn.toolCall).toEqual({
			ordinal: 0,
			toolName: 'select_active_intent',
			input: { intent_id: 'INT-001' }
		});
	});

	it('continues after the highest answered call of this session only', () => {
		const toolResult = (id: string) => ({
			role: 'tool' as const,
			content: [
				{
					type: 'tool-result' as const,
					toolCallId: id,
					toolName: 'x',
					output: { type: 'json' as const, value: {} }
				}
			]
		});
		const turn = planDemoTurn(jwtAuth, 'builder', [
			userSays('go'),
			toolResult(demoToolCallId('builder', 2, 'a')),
			toolResult(demoToolCallId('refactorer', 4, 'b')),
			toolResult('call_from_another_model')
		]);
		expect(turn.toolCall).toEqual({
			ordinal: 3,
			toolName: 'select_active_intent',
			input: { intent_id: 'INT-001' }
		});
		expect(turn.texts).toEqual([]);
	});

	it('explains a session the script does not have', () => {
		const turn = planDemoTurn(jwtAuth, 'tester', [userSays('go')]);
		expect(turn.finishReason).toBe('stop');
		expect(turn.texts[0]).toBe(
			'The demo script has no steps for the session "tester". Its sessions are: builder, refactorer.'
		);
	});

	it('asks for a deletion in words when the human edit deletes a file', () => {
		const deletion = script(
			'steps:\n  - say: Next, a person removes a file.\n  - human_edit: { path: src/old.ts, content: null }\n  - call: list_files\n'
		);
		const turn = planDemoTurn(deletion, 'agent', [userSays('go')]);
		expect(turn.finishReason).toBe('stop');
		expect(turn.toolCall).toBeUndefined();
		expect(turn.texts[0]).toBe('Next, a person removes a file.');
		expect(turn.texts[1]).toMatch(/^\*\*Your turn \(demo step 2\):\*\* delete `src\/old\.ts`/);
	});

	it('fences edit content that itself contains backtick fences', () => {
		const fenced = script(
			'steps:\n  - human_edit:\n      path: README.md\n      content: "```js\\nx\\n```\\n"\n  - call: list_files\n'
		);
		const text = planDemoTurn(fenced, 'agent', [userSays('go')]).texts[0] ?? '';
		expect(text).toContain('````md\n```js\nx\n```\n````');
	});
});
