import { describe, expect, it } from 'vitest';
import { commandCandidates, matchesPolicy, type PolicySubject } from './match-policy-rule.js';

const write = (path: string, intent: string | null = 'INT-001'): PolicySubject => ({
	tool: 'write_to_file',
	paths: [path],
	activeIntentId: intent
});
const command = (line: string): PolicySubject => ({
	tool: 'execute_command',
	paths: [],
	command: line,
	activeIntentId: 'INT-001'
});

describe('matchesPolicy', () => {
	it('needs every given field to match', () => {
		const match = { tools: ['write_to_file'], paths: ['src/**/*.ts'], intents: ['INT-001'] };
		expect(matchesPolicy(match, write('src/auth/jwt.ts'))).toBe(true);
		expect(matchesPolicy(match, write('src/auth/jwt.js'))).toBe(false);
		expect(matchesPolicy(match, write('src/auth/jwt.ts', 'INT-002'))).toBe(false);
		expect(matchesPolicy(match, write('src/auth/jwt.ts', null))).toBe(false);
		expect(matchesPolicy(match, { ...write('src/auth/jwt.ts'), tool: 'apply_diff' })).toBe(false);
	});

	it('matches dot files with path globs', () => {
		expect(matchesPolicy({ paths: ['src/**'] }, write('src/.env'))).toBe(true);
	});

	it('matches command patterns on the whole line and on every command inside it', () => {
		const match = { commands: ['npm publish*', 'git push*'] };
		expect(matchesPolicy(match, command('npm publish'))).toBe(true);
		expect(matchesPolicy(match, command('npm   publish --tag next'))).toBe(true);
		expect(matchesPolicy(match, command('npm test && git push origin main'))).toBe(true);
		expect(matchesPolicy(match, command('echo $(npm publish)'))).toBe(true);
		expect(matchesPolicy(match, command('bash -c "npm publish"'))).toBe(true);
		expect(matchesPolicy(match, command('"npm" publish'))).toBe(true);
		expect(matchesPolicy(match, command('npm test'))).toBe(false);
		expect(matchesPolicy(match, command('echo npm publish is bad'))).toBe(false);
		expect(matchesPolicy(match, write('src/a.ts'))).toBe(false);
	});

	it('treats regex characters in patterns literally', () => {
		expect(matchesPolicy({ commands: ['rm -rf .'] }, command('rm -rf x'))).toBe(false);
		expect(matchesPolicy({ commands: ['rm -rf .'] }, command('rm -rf .'))).toBe(true);
	});

	it('lists the sub-commands once each', () => {
		expect(commandCandidates('a && b; c | d')).toEqual(['a && b; c | d', 'a', 'b', 'c', 'd']);
	});
});
