import { describe, expect, it } from 'vitest';
import { decideOutcome, outcomeBranchesSchema } from './outcome-branches.js';
import { parseReplayScript } from './replay-script.js';

describe('decideOutcome', () => {
	const step = {
		expect: 'ok',
		on: {
			ok: { say: 'Done.', then: 'continue' as const },
			user_rejected: { say: 'You said no; I stop.', then: 'stop' as const }
		}
	};

	it('follows the script when the outcome is the expected one, with its branch if any', () => {
		expect(decideOutcome(step, 'ok')).toEqual({ kind: 'as-scripted', branch: step.on.ok });
		expect(decideOutcome({ expect: 'ok' }, 'ok')).toEqual({ kind: 'as-scripted', branch: null });
		expect(decideOutcome({}, 'scope_violation')).toEqual({ kind: 'as-scripted', branch: null });
	});

	it('takes the branch of another listed outcome, or `other`', () => {
		expect(decideOutcome(step, 'user_rejected')).toEqual({
			kind: 'branch',
			branch: step.on.user_rejected
		});
		const withOther = { expect: 'ok', on: { other: { then: 'stop' as const } } };
		expect(decideOutcome(withOther, 'stale_file')).toEqual({
			kind: 'branch',
			branch: { then: 'stop' }
		});
	});

	it('goes off script for an outcome nobody planned', () => {
		expect(decideOutcome(step, 'stale_file')).toEqual({ kind: 'off-script' });
	});
});

describe('on: in a replay script', () => {
	it('parses branches with defaults and rejects unknown keys with a position', () => {
		const parsed = parseReplayScript(`steps:
  - call: list_files
    expect: ok
    on:
      user_rejected: { say: "No.", then: stop }
      other: { skip: 2 }
`);
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		const [step] = parsed.script.steps;
		expect(step && 'call' in step ? step.on : null).toEqual({
			user_rejected: { say: 'No.', then: 'stop' },
			other: { skip: 2, then: 'continue' }
		});
		const wrong = parseReplayScript(`steps:
  - call: list_files
    on:
      ok: { goto: 3 }
`);
		expect(wrong.ok).toBe(false);
		if (!wrong.ok) expect(wrong.errors[0]?.line).toBe(4);
		expect(outcomeBranchesSchema.safeParse({ ok: { then: 'maybe' } }).success).toBe(false);
	});
});
