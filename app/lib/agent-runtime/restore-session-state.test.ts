import { describe, expect, it } from 'vitest';
import type { LedgerEvent, LedgerEventBody } from '../../../hooks/ledger/ledger-event.js';
import { GovernanceState } from '../../../hooks/pipeline/governance-state.js';
import type { AgentUIMessage } from '../agent/agent-tools.js';
import {
	interruptedFinishDrafts,
	ledgerCallStates,
	planSessionRecovery,
	restoreIntentLocks
} from './restore-session-state.js';

const yaml = `active_intents:
  - id: INT-001
    name: One
    status: IN_PROGRESS
    owned_scope: ["src/**"]
    constraints: []
    acceptance_criteria: []
  - id: INT-002
    name: Two
    status: IN_PROGRESS
    owned_scope: ["lib/**"]
    constraints: []
    acceptance_criteria: []
`;

function events(bodies: LedgerEventBody[]): LedgerEvent[] {
	return bodies.map((body, index) => ({
		...body,
		seq: index + 1,
		timestamp: '2026-01-01T00:00:00Z',
		prev_hash: 'x',
		hash: 'y'
	})) as LedgerEvent[];
}

const start = (id: string, session = 'builder'): LedgerEventBody => ({
	type: 'tool-call-start',
	session_id: session,
	tool: 'write_to_file',
	tool_call_id: id,
	input: {}
});
const ask = (id: string): LedgerEventBody => ({
	type: 'approval-request',
	session_id: 'builder',
	tool: 'write_to_file',
	tool_call_id: id,
	hooks: ['approval'],
	reasons: ['destructive']
});
const finish = (id: string, ok = true): LedgerEventBody => ({
	type: 'tool-call-finish',
	session_id: 'builder',
	tool: 'write_to_file',
	tool_call_id: id,
	ok,
	...(ok ? {} : { code: 'user_rejected' as const })
});

function assistant(parts: unknown[]): AgentUIMessage {
	return { id: 'm1', role: 'assistant', parts } as unknown as AgentUIMessage;
}
const toolPart = (id: string, state = 'input-available') => ({
	type: 'tool-write_to_file',
	toolCallId: id,
	state,
	input: { path: 'src/a.ts', content: 'x' }
});

describe('restoreIntentLocks', () => {
	it('gives each session back the intent it selected last', () => {
		const state = new GovernanceState({ intentsYaml: yaml });
		restoreIntentLocks(
			state,
			events([
				{ type: 'intent-select', session_id: 'builder', intent_id: 'INT-001', tool_call_id: 'a' },
				{
					type: 'intent-select',
					session_id: 'refactorer',
					intent_id: 'INT-002',
					tool_call_id: 'b'
				},
				{ type: 'intent-select', session_id: 'builder', intent_id: 'INT-002', tool_call_id: 'c' }
			])
		);
		expect(state.session('builder').activeIntentId).toBe('INT-002');
		expect(state.session('refactorer').activeIntentId).toBe('INT-002');
		expect([...state.holdersOf('INT-001')]).toEqual([]);
		expect([...state.holdersOf('INT-002')].sort()).toEqual(['builder', 'refactorer']);
	});

	it('frees the lock the holder completed, and ignores intents that no longer exist', () => {
		const state = new GovernanceState({ intentsYaml: yaml });
		restoreIntentLocks(
			state,
			events([
				{ type: 'intent-select', session_id: 'builder', intent_id: 'INT-001', tool_call_id: 'a' },
				{
					type: 'intent-status-change',
					session_id: 'builder',
					intent_id: 'INT-001',
					from: 'IN_PROGRESS',
					to: 'COMPLETED'
				},
				{ type: 'intent-select', session_id: 'other', intent_id: 'INT-404', tool_call_id: 'b' }
			])
		);
		expect(state.session('builder').activeIntentId).toBeNull();
		expect(state.session('other').activeIntentId).toBeNull();
	});
});

describe('planSessionRecovery', () => {
	it('asks again a call that was waiting for an approval', () => {
		const calls = ledgerCallStates(events([start('t1'), ask('t1')]));
		const plan = planSessionRecovery([assistant([toolPart('t1')])], calls);
		expect(plan.reask).toEqual([
			{ toolCallId: 't1', tool: 'write_to_file', input: { path: 'src/a.ts', content: 'x' } }
		]);
		expect(plan.messages[0]?.parts[0]).toMatchObject({ state: 'input-available' });
		expect(interruptedFinishDrafts(calls, ['t1'], () => null)).toEqual([]);
	});

	it('resolves other unfinished calls as interrupted with a ToolError and closes them in the ledger', () => {
		const calls = ledgerCallStates(events([start('t1'), start('t3', 'other')]));
		const plan = planSessionRecovery(
			[assistant([toolPart('t1'), toolPart('t2'), toolPart('t0', 'output-available')])],
			calls
		);
		expect(plan.reask).toEqual([]);
		const [first, second, third] = plan.messages[0]!.parts as unknown as {
			state: string;
			errorText?: string;
		}[];
		expect(first?.state).toBe('output-error');
		expect(JSON.parse(first!.errorText!)).toMatchObject({ status: 'error', code: 'hook_failed' });
		expect(first!.errorText).toMatch(/interrupted by a page reload/);
		expect(second?.errorText).toMatch(/did not run/);
		expect(third?.state).toBe('output-available');
		const drafts = interruptedFinishDrafts(calls, [], (session) =>
			session === 'builder' ? 'INT-001' : null
		);
		expect(drafts).toMatchObject([
			{ type: 'tool-call-finish', tool_call_id: 't1', ok: false, intent_id: 'INT-001' },
			{ type: 'tool-call-finish', tool_call_id: 't3', ok: false, intent_id: null }
		]);
	});

	it('tells the model how a call ended when only its result was lost', () => {
		const calls = ledgerCallStates(events([start('t1'), ask('t1'), finish('t1', false)]));
		const plan = planSessionRecovery([assistant([toolPart('t1')])], calls);
		expect(plan.reask).toEqual([]);
		expect((plan.messages[0]!.parts[0] as unknown as { errorText: string }).errorText).toMatch(
			/failed \(user_rejected\)/
		);
		expect(interruptedFinishDrafts(calls, [], () => null)).toEqual([]);
	});

	it('leaves user messages and finished conversations untouched', () => {
		const user = { id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] } as AgentUIMessage;
		const done = assistant([toolPart('t1', 'output-available')]);
		const plan = planSessionRecovery([user, done], new Map());
		expect(plan.messages[0]).toBe(user);
		expect(plan.messages[1]).toBe(done);
	});
});
