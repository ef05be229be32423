import type { LanguageModelV4ToolResultPart } from '@ai-sdk/provider';
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
	const toolError = (code: string) => ({
		type: 'error-text' as const,
		value: JSON.stringify({ status: 'error', code, message: 'm', suggestion: 's' })
	});
	const toolResult = (id: string, output: LanguageModelV4ToolResultPart['output']) => ({
		role: 'tool' as const,
		content: [{ type: 'tool-result' as const, toolCallId: id, toolName: 'x', output }]
	});
	/** The ordinal (among the builder's calls) of the first call matching `test`. */
	const builderCallOrdinal = (
		test: (step: { call: string; expect?: string }) => boolean
	): number => {
		const owners = stepSessions(jwtAuth);
		const calls = jwtAuth.steps.flatMap((step, index) =>
			'call' in step && owners[index] === 'builder' ? [step] : []
		);
		const found = calls.findIndex(test);
		if (found === -1) throw new Error('no such builder call');
		return found;
	};

	it('starts with the session’s first says and call when asked to run the demo', () => {
		const turn = planDemoTurn(jwtAuth, 'builder', [userSays('Run the demo, please')]);
		expect(turn).toEqual({
			texts: ['I will move authentication to JWT. First, a look around.'],
			toolCall: { ordinal: 0, toolName: 'list_files', input: { recursive: true } },
			finishReason: 'tool-calls'
		});
	});

	it('answers a message outside its script with one clear sentence, and plays nothing', () => {
		for (const text of ['¿hola? 🙃 <script>', 'What is a JWT?', 'Add a logout endpoint']) {
			const turn = planDemoTurn(jwtAuth, 'builder', [userSays(text)]);
			expect(turn.toolCall).toBeUndefined();
			expect(turn.finishReason).toBe('stop');
			expect(turn.texts).toHaveLength(1);
			expect(turn.texts[0]).toMatch(/^I am the scripted demo agent, so I cannot act on “/);
			expect(turn.texts[0]).toContain('Run the demo');
			expect(turn.texts[0]).toContain('choose a real model in Settings');
		}
	});

	it('plays a suggested prompt but says it plays its whole script, not the request', () => {
		const prompt = 'Write the new JWT module first, before picking an intent.';
		const turn = planDemoTurn(jwtAuth, 'builder', [userSays(prompt)], {
			suggestedPrompts: [prompt]
		});
		expect(turn.texts[0]).toMatch(/rather than your exact request/);
		expect(turn.toolCall?.toolName).toBe('list_files');
	});

	it('skips the steps of other sessions', () => {
		const turn = planDemoTurn(jwtAuth, 'refactorer', [userSays('go')]);
		expect(turn.texts).toEqual(['I am the Refactorer. Is the auth intent free?']);
		expect(turn.toolCall).toEqual({
			ordinal: 0,
			toolName: 'select_active_intent',
			input: { intent_id: 'INT-001' }
		});
	});

	it('continues after the highest answered call of this session only', () => {
		const turn = planDemoTurn(jwtAuth, 'builder', [
			userSays('go'),
			toolResult(demoToolCallId('builder', 2, 'a'), toolError('intent_not_active')),
			toolResult(demoToolCallId('refactorer', 4, 'b'), { type: 'json', value: {} }),
			toolResult('call_from_another_model', { type: 'json', value: {} })
		]);
		expect(turn.toolCall).toEqual({
			ordinal: 3,
			toolName: 'select_active_intent',
			input: { intent_id: 'INT-001' }
		});
		expect(turn.texts).toEqual([]);
	});

	it('explains a session the script does not have (a new "+" session) in plain words', () => {
		const turn = planDemoTurn(jwtAuth, 'session-mwtptetw', [userSays('go')]);
		expect(turn.finishReason).toBe('stop');
		expect(turn.texts).toEqual([
			'This session is not part of the scripted demo, which plays only Builder and Refactorer (in their own tabs). The demo cannot take requests here: to work with an agent in this session, choose a real model in Settings.'
		]);
		expect(turn.texts[0]).not.toContain('session-mwtptetw');
	});

	it('branches on a rejected write: says so and stops, never claims the next step', () => {
		const writeOrdinal = builderCallOrdinal(
			(step) => step.call === 'write_to_file' && step.expect === 'ok'
		);
		const turn = planDemoTurn(jwtAuth, 'builder', [
			userSays('Run the demo'),
			toolResult(demoToolCallId('builder', writeOrdinal, 'a'), toolError('user_rejected'))
		]);
		expect(turn.toolCall).toBeUndefined();
		expect(turn.texts[0]).toMatch(/^You rejected src\/auth\/jwt\.ts/);
		expect(turn.texts[1]).toMatch(/stops here/);
	});

	it('pauses with "did not go as scripted" on an outcome nobody planned, then continues, retries or skips', () => {
		const lockedOrdinal = builderCallOrdinal((step) => step.expect === 'intent_not_active');
		const before = [
			userSays('Run the demo'),
			toolResult(demoToolCallId('builder', lockedOrdinal, 'a'), { type: 'json', value: {} })
		];
		const turn = planDemoTurn(jwtAuth, 'builder', before);
		expect(turn.toolCall).toBeUndefined();
		expect(turn.texts).toEqual([
			expect.stringMatching(
				/^That did not go as scripted: the script expected `select_active_intent` \(INT-003\) to be blocked with intent_not_active, but it succeeded\. The demo can go on from here/
			)
		]);
		expect(turn.texts[0]).not.toMatch(/Reset the scenario/);
		const answer = (text: string) =>
			planDemoTurn(jwtAuth, 'builder', [
				...before,
				{ role: 'assistant', content: [{ type: 'text', text: turn.texts[0] ?? '' }] },
				userSays(text)
			]);
		// "continue" plays the script's next call.
		const next = answer('continue');
		expect(next.toolCall?.ordinal).toBe(lockedOrdinal + 1);
		// "retry" plays the same call again (same position, a new id).
		const retried = answer('retry');
		expect(retried.toolCall?.ordinal).toBe(lockedOrdinal);
		expect(retried.toolCall?.toolName).toBe('select_active_intent');
		// "skip" leaves the next call out too.
		const skipped = answer('skip');
		expect(skipped.toolCall?.ordinal).toBe(lockedOrdinal + 2);
		// Anything else: the same pause, with the same moves offered.
		expect(answer('what now?')).toEqual(turn);
	});

	it('skips the retry when the human did not edit the file (no stale_file)', () => {
		const staleOrdinal = builderCallOrdinal((step) => step.expect === 'stale_file');
		const turn = planDemoTurn(jwtAuth, 'builder', [
			userSays('Run the demo'),
			toolResult(demoToolCallId('builder', staleOrdinal, 'a'), { type: 'json', value: {} })
		]);
		expect(turn.texts[0]).toMatch(/^Nobody saved a change to the file since I read it/);
		expect(turn.texts.join(' ')).not.toMatch(/A human changed the file/);
		expect(turn.toolCall?.ordinal).toBe(staleOrdinal + 3);
		expect(turn.toolCall?.input).toMatchObject({ path: 'src/middleware/require-session.ts' });
		expect(String(turn.toolCall?.input.replace)).toContain('requireUser');
	});

	it('the Refactorer only says INT-001 is taken when it was', () => {
		const locked = planDemoTurn(jwtAuth, 'refactorer', [
			userSays('Run the demo'),
			toolResult(demoToolCallId('refactorer', 0, 'a'), toolError('intent_locked'))
		]);
		expect(locked.texts[0]).toMatch(/taken by another session/);
		const free = planDemoTurn(jwtAuth, 'refactorer', [
			userSays('Run the demo'),
			toolResult(demoToolCallId('refactorer', 0, 'a'), { type: 'json', value: {} })
		]);
		expect(free.texts.join(' ')).not.toMatch(/taken/);
		expect(free.texts[0]).toMatch(/INT-001 was free/);
		expect(free.toolCall?.input).toEqual({ intent_id: 'INT-002' });
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
