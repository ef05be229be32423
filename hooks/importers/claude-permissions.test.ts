import { describe, expect, it } from 'vitest';
import { HookPolicyState } from '../policies/hook-policy-state.js';
import { policyDecision, policyWaivesApproval } from '../policies/policy-decision.js';
import type { PolicySubject } from '../policies/match-policy-rule.js';
import {
	claudePermissionLimits,
	claudePermissionsToPolicy,
	policyToClaudePermissions
} from './claude-permissions.js';

/** What the real pipeline decides for a call under a hooks.yaml: deny > ask > allow > nothing. */
function decide(policyYaml: string, subject: Omit<PolicySubject, 'activeIntentId'>): string {
	const state = new HookPolicyState();
	const loaded = state.load(policyYaml);
	if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
	const full = { ...subject, activeIntentId: 'INT-001' };
	const decision = policyDecision(state, full, true);
	if (decision.kind === 'deny') return 'deny';
	if (decision.kind === 'ask') return 'ask';
	return policyWaivesApproval(state, full) ? 'allow' : 'none';
}

const bash = (command: string) => ({ tool: 'execute_command', paths: [], command });
const read = (path: string) => ({ tool: 'read_file', paths: [path] });
const write = (path: string) => ({ tool: 'write_to_file', paths: [path] });

// The settings of Claude Code's documentation, in its own spellings.
const settings = JSON.stringify({
	permissions: {
		allow: ['Bash(npm run test:*)', 'Bash(git push:*)', 'Read', 'Edit(/src/**)'],
		ask: ['Bash(git push:*)', 'Edit(src/config/**)'],
		deny: [
			'Bash(curl:*)',
			'Read(./.env)',
			'Read(*.pem)',
			'WebFetch',
			'Read(~/.ssh/**)',
			'mcp__github__create_issue'
		],
		additionalDirectories: ['../docs/'],
		defaultMode: 'acceptEdits'
	}
});

describe('Claude Code permissions → hooks.yaml', () => {
	const converted = claudePermissionsToPolicy(settings);
	if (!converted.ok) throw new Error(converted.problem);
	const policy = converted.value;

	it('decides every call as Claude Code does: deny > ask > allow, whatever the order of the lists', () => {
		const cases: [Omit<PolicySubject, 'activeIntentId'>, string][] = [
			[bash('npm run test'), 'allow'],
			[bash('npm run test -- --watch'), 'allow'],
			// The prefix is a word: `npm run testing` is another command.
			[bash('npm run testing'), 'none'],
			[bash('git push origin main'), 'ask'],
			[bash('curl https://example.com'), 'deny'],
			[bash('echo ok && curl https://example.com'), 'deny'],
			[read('.env'), 'deny'],
			[read('keys/server.pem'), 'deny'],
			[read('src/index.ts'), 'allow'],
			[write('src/index.ts'), 'allow'],
			[write('src/config/app.json'), 'ask'],
			[write('README.md'), 'none']
		];
		for (const [subject, expected] of cases)
			expect(decide(policy, subject), JSON.stringify(subject)).toBe(expected);
	});

	it('lists what has no equivalent, never dropping it quietly', () => {
		const listed = converted.notCarried.join('\n');
		expect(listed).toContain('"WebFetch"');
		expect(listed).toContain('"mcp__github__create_issue"');
		expect(listed).toContain('"Read(~/.ssh/**)": a path in the home folder');
		expect(listed).toContain('permissions.additionalDirectories');
		expect(listed).toContain('permissions.defaultMode');
		// And the output says so too, as comments a reader of hooks.yaml sees.
		expect(policy).toContain('# not carried: permissions.deny[3] "WebFetch"');
	});

	it('refuses hostile or broken settings with a sentence', () => {
		for (const [text, problem] of [
			['not json', 'not JSON'],
			['[]', 'not a JSON object'],
			['{}', 'no "permissions" object'],
			['{"permissions":{"deny":"Bash"}}', 'permissions.deny is not a list'],
			['{"permissions":{"deny":[5]}}', 'permissions.deny[0] is not a string'],
			[
				JSON.stringify({
					permissions: { deny: ['x'.repeat(claudePermissionLimits.maximumEntryLength + 1)] }
				}),
				'longer than'
			],
			[
				JSON.stringify({
					permissions: {
						deny: Array.from(
							{ length: claudePermissionLimits.maximumEntries + 1 },
							(_, index) => `Bash(x${index})`
						)
					}
				}),
				'more than'
			],
			[' '.repeat(claudePermissionLimits.maximumSettingsBytes + 1), 'larger than']
		] as const) {
			const result = claudePermissionsToPolicy(text);
			expect(result.ok, text.slice(0, 40)).toBe(false);
			if (!result.ok) expect(result.problem).toContain(problem);
		}
	});

	it('paths that leave the project are not carried', () => {
		const result = claudePermissionsToPolicy(
			JSON.stringify({ permissions: { deny: ['Edit(../outside/**)', 'Read(//etc/passwd)'] } })
		);
		expect(result.ok && result.notCarried).toEqual([
			'permissions.deny[0] "Edit(../outside/**)": a path that leaves the project folder (..)',
			'permissions.deny[1] "Read(//etc/passwd)": an absolute path outside the workspace'
		]);
	});
});

describe('hooks.yaml → Claude Code permissions', () => {
	const policy = [
		'rules:',
		'  - match: { tools: [execute_command], commands: ["npm publish *", "rm -rf *"] }',
		'    action: deny',
		'    message: Publishing is the instructor’s job.',
		'  - match: { paths: ["secrets/**"] }',
		'    action: deny',
		'  - match: { tools: [write_to_file], paths: ["docs/**"] }',
		'    action: ask',
		'  - match: { tools: [execute_command], commands: ["npm test"] }',
		'    action: allow',
		'  - match: { intents: [INT-002], tools: [write_to_file] }',
		'    action: deny',
		'  - match: { paths: ["src/**"] }',
		'    action: run',
		'    run: npm test',
		''
	].join('\n');

	it('carries deny, ask and allow; lists intents, run rules and deletes', () => {
		const result = policyToClaudePermissions(policy);
		if (!result.ok) throw new Error(result.problem);
		const settings = JSON.parse(result.value) as { permissions: Record<string, string[]> };
		expect(settings.permissions.deny).toEqual([
			'Bash(npm publish:*)',
			'Bash(rm -rf:*)',
			'Read(/secrets/**)',
			'Write(/secrets/**)',
			'Edit(/secrets/**)'
		]);
		expect(settings.permissions.ask).toEqual(['Write(/docs/**)']);
		expect(settings.permissions.allow).toEqual(['Bash(npm test)']);
		const listed = result.notCarried.join('\n');
		expect(listed).toContain('rules[4]: match.intents');
		expect(listed).toContain('rules[5]: action run');
		expect(listed).toContain('rules[1]: tool delete_file');
		expect(result.notes.join('\n')).toContain('Publishing is the instructor’s job.');
	});

	it('round trip: Claude → hooks.yaml → Claude keeps every carried entry’s decision', () => {
		const there = claudePermissionsToPolicy(settings);
		if (!there.ok) throw new Error(there.problem);
		const back = policyToClaudePermissions(there.value);
		if (!back.ok) throw new Error(back.problem);
		const again = claudePermissionsToPolicy(back.value);
		if (!again.ok) throw new Error(again.problem);
		for (const subject of [
			bash('npm run test'),
			bash('git push x'),
			bash('curl y'),
			read('.env'),
			read('a/b.pem'),
			write('src/config/x'),
			write('src/a.ts'),
			write('README.md')
		])
			expect(decide(again.value, subject), JSON.stringify(subject)).toBe(
				decide(there.value, subject)
			);
	});

	it('refuses a policy that does not parse, with its line and column', () => {
		const result = policyToClaudePermissions(
			'rules:\n  - match: { tools: [nope] }\n    action: deny\n'
		);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.problem).toMatch(/^hooks\.yaml:2:\d+ /);
	});
});
