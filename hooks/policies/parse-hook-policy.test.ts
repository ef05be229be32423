import { describe, expect, it } from 'vitest';
import { parseHookPolicy } from './parse-hook-policy.js';

const issuePolicy = `rules:
  - match: { tools: [write_to_file, apply_diff], paths: ["src/auth/secrets/**"] }
    action: deny
    message: "Secrets are written by people only."
  - match: { tools: [execute_command], commands: ["npm publish*", "git push*"] }
    action: ask
  - match: { tools: [write_to_file, apply_diff], paths: ["src/**/*.ts"], intents: [INT-001] }
    action: run
    run: "npm test"            # after a matching write; a failure goes back to the agent
  - match: { tools: [write_to_file], paths: ["docs/**"] }
    action: allow
`;

describe('parseHookPolicy', () => {
	it('reads the format of the issue with every action', () => {
		const parsed = parseHookPolicy(issuePolicy);
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		expect(parsed.policy.rules.map((rule) => rule.action)).toEqual(['deny', 'ask', 'run', 'allow']);
		expect(parsed.policy.rules[0]?.message).toBe('Secrets are written by people only.');
		expect(parsed.policy.rules[2]?.run).toBe('npm test');
		expect(parsed.policy.rules[2]?.match.intents).toEqual(['INT-001']);
	});

	it('treats an empty file as a policy without rules', () => {
		expect(parseHookPolicy('')).toEqual({ ok: true, policy: { rules: [] } });
		expect(parseHookPolicy('# nothing yet\n')).toEqual({ ok: true, policy: { rules: [] } });
	});

	it('gives the line:column of a YAML syntax error', () => {
		const parsed = parseHookPolicy(
			'rules:\n  - match: { tools: [write_to_file\n    action: deny\n'
		);
		expect(parsed.ok).toBe(false);
		if (parsed.ok) return;
		expect(parsed.errors[0]?.line).toBeGreaterThanOrEqual(2);
		expect(parsed.errors[0]?.message).toMatch(/YAML syntax error|flow/i);
	});

	it('points at an unknown action value', () => {
		const parsed = parseHookPolicy(
			'rules:\n  - match: { tools: [write_to_file] }\n    action: block\n'
		);
		expect(parsed.ok).toBe(false);
		if (parsed.ok) return;
		expect(parsed.errors[0]).toMatchObject({ line: 3, column: 13 });
		expect(parsed.errors[0]?.message).toContain('rules[0].action');
	});

	it('points at a misspelled key', () => {
		const parsed = parseHookPolicy(
			'rules:\n  - match: { tools: [write_to_file] }\n    action: deny\n    mesage: "no"\n'
		);
		expect(parsed.ok).toBe(false);
		if (parsed.ok) return;
		expect(parsed.errors[0]).toMatchObject({ line: 4, column: 5 });
		expect(parsed.errors[0]?.message).toContain('mesage');
	});

	it('refuses a run rule without a command, a command on a non-run rule, unknown tools and empty matches', () => {
		const withoutCommand = parseHookPolicy(
			'rules:\n  - match: { paths: ["src/**"] }\n    action: run\n'
		);
		expect(withoutCommand.ok).toBe(false);
		if (!withoutCommand.ok) expect(withoutCommand.errors[0]?.message).toContain('run');
		const stray = parseHookPolicy(
			'rules:\n  - match: { paths: ["src/**"] }\n    action: deny\n    run: "npm test"\n'
		);
		expect(stray.ok).toBe(false);
		const unknownTool = parseHookPolicy(
			'rules:\n  - match: { tools: [write_file] }\n    action: deny\n'
		);
		expect(unknownTool.ok).toBe(false);
		if (!unknownTool.ok) expect(unknownTool.errors[0]).toMatchObject({ line: 2 });
		const empty = parseHookPolicy('rules:\n  - match: {}\n    action: deny\n');
		expect(empty.ok).toBe(false);
	});

	it('refuses an alias bomb and an oversized file instead of hanging', () => {
		const bomb = [
			'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
			...Array.from(
				{ length: 8 },
				(_, level) =>
					`${String.fromCharCode(98 + level)}: &${String.fromCharCode(98 + level)} [${Array(10)
						.fill(`*${String.fromCharCode(97 + level)}`)
						.join(',')}]`
			),
			'rules: []'
		].join('\n');
		expect(parseHookPolicy(bomb).ok).toBe(false);
		expect(parseHookPolicy(`# ${'x'.repeat(70_000)}\nrules: []\n`).ok).toBe(false);
	});
});
