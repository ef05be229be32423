import { describe, expect, it } from 'vitest';
import { HookPolicyState } from '../../../hooks/policies/hook-policy-state.js';
import { hookPolicyView } from './hook-policy-view.js';

describe('hookPolicyView', () => {
	it('lists the rules with what they match and do', () => {
		const state = new HookPolicyState();
		state.load(
			'rules:\n  - match: { tools: [write_to_file], paths: ["src/**"] }\n    action: run\n    run: "npm test"\n  - match: { commands: ["git push*"] }\n    action: deny\n    message: "No pushing."\n'
		);
		state.hash = `sha256:${'a'.repeat(64)}`;
		const view = hookPolicyView(state);
		expect(view.present).toBe(true);
		expect(view.shortHash).toBe(`sha256:${'a'.repeat(12)}`);
		expect(view.rules).toEqual([
			{
				number: 1,
				action: 'run',
				matches: 'tools: write_to_file · paths: src/**',
				detail: 'runs npm test'
			},
			{ number: 2, action: 'deny', matches: 'commands: git push*', detail: 'No pushing.' }
		]);
	});

	it('shows where a broken policy needs fixing', () => {
		const state = new HookPolicyState();
		state.load('rules: [\n');
		expect(hookPolicyView(state).errors[0]).toMatch(/^\d+:\d+ /);
	});

	it('says when there is no policy', () => {
		expect(hookPolicyView(new HookPolicyState()).present).toBe(false);
	});
});
