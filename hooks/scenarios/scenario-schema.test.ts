import { describe, expect, it } from 'vitest';
import { isScenarioId, parseScenarioManifest } from './scenario-schema.js';
import { sampleManifestYaml } from './scenario-test-fixtures.js';

function errorsOf(text: string): string[] {
	const result = parseScenarioManifest(text);
	if (result.ok) throw new Error('expected the manifest to be rejected');
	return result.errors.map((error) => `${error.line}:${error.column} ${error.message}`);
}

const required = 'id: demo\ntitle: T\nsummary: S\nbrief: B\n';

describe('parseScenarioManifest: valid manifests', () => {
	it('fills the defaults', () => {
		expect(parseScenarioManifest(required)).toEqual({
			ok: true,
			manifest: {
				id: 'demo',
				title: 'T',
				summary: 'S',
				brief: 'B',
				suggested_prompts: [],
				approval_policy: 'destructive',
				sandbox: { needs: 'any' }
			}
		});
	});

	it('keeps every field an instructor may write', () => {
		const result = parseScenarioManifest(
			`${sampleManifestYaml}approval_policy: always\nsandbox: { needs: webcontainer, note: "npm install" }\ndefault: true\n`
		);
		expect(result).toMatchObject({
			ok: true,
			manifest: {
				id: 'sample',
				brief: '# Sample\nTry things.\n',
				suggested_prompts: ['Check out INT-001.'],
				approval_policy: 'always',
				sandbox: { needs: 'webcontainer', note: 'npm install' },
				default: true
			}
		});
	});
});

describe('parseScenarioManifest: errors with line:column', () => {
	it('names each missing required field at the top of the map', () => {
		expect(errorsOf('id: demo\n')).toEqual([
			'1:1 title is required',
			'1:1 summary is required',
			'1:1 brief is required'
		]);
	});

	it('rejects an id that is not kebab-case, at the value', () => {
		expect(errorsOf(required.replace('id: demo', 'id: JWT_Auth'))).toEqual([
			'1:5 id must be kebab-case (lowercase letters and digits joined by single hyphens, e.g. jwt-auth), got "JWT_Auth"'
		]);
		expect(errorsOf(required.replace('id: demo', 'id: a--b'))[0]).toMatch(
			/^1:5 id must be kebab-case/
		);
		expect(errorsOf(required.replace('id: demo', `id: ${'a'.repeat(65)}`))[0]).toMatch(
			/at most 64 characters/
		);
	});

	it('lists the allowed values of an enum', () => {
		expect(errorsOf(`${required}approval_policy: sometimes\n`)).toEqual([
			'5:18 approval_policy must be one of always, destructive, never (got "sometimes")'
		]);
		expect(errorsOf(`${required}sandbox:\n  needs: docker\n`)).toEqual([
			'6:10 sandbox.needs must be one of any, webcontainer (got "docker")'
		]);
	});

	it('takes git.commit_on_complete, and names a misspelled key inside git', () => {
		const accepted = parseScenarioManifest(`${required}git:\n  commit_on_complete: true\n`);
		expect(accepted.ok && accepted.manifest.git).toEqual({ commit_on_complete: true });
		expect(errorsOf(`${required}git:\n  commit_on_compete: true\n`)[0]).toMatch(
			/^6:3 unknown key "commit_on_compete" \(did you mean commit_on_complete\?\)/
		);
	});

	it('points at a misspelled key and suggests the right one', () => {
		expect(errorsOf(`${required}sugested_prompts: []\n`)).toEqual([
			'5:1 unknown key "sugested_prompts" (did you mean suggested_prompts?); known keys: id, title, summary, brief, suggested_prompts, approval_policy, sandbox, git, default, rubric, steps'
		]);
		expect(errorsOf(`${required}sandbox: { need: any }\n`)[0]).toMatch(
			/^5:12 unknown key "need" \(did you mean needs\?\)/
		);
	});

	it('checks the rubric with line:column and keeps manifests without one valid', () => {
		expect(parseScenarioManifest(required).ok).toBe(true);
		expect(
			errorsOf(`${required}rubric:\n  criteria:\n    - { intent: INT-001, points: -3 }\n`)
		).toEqual(['7:34 points must be 0 or more']);
		expect(errorsOf(`${required}rubric:\n  penalties:\n    unatributed_change: 5\n`)[0]).toMatch(
			/^7:5 unknown key "unatributed_change" \(did you mean unattributed_change\?\)/
		);
		expect(
			errorsOf(`${required}rubric:\n  penalties:\n    blocks: { scope_violaton: 5 }\n`)[0]
		).toMatch(/^7:15 unknown key "scope_violaton" \(did you mean scope_violation\?\)/);
	});

	it('explains wrong types', () => {
		expect(errorsOf(`${required}suggested_prompts: "just one"\n`)).toEqual([
			'5:20 suggested_prompts must be a list (got "just one"); write a list, e.g. ["just one"]'
		]);
		expect(errorsOf(required.replace('title: T', 'title: 2024'))).toEqual([
			'2:8 title must be text (got 2024); put it in quotes, e.g. "2024"'
		]);
		expect(errorsOf(`${required}default: yes please\n`)[0]).toMatch(
			/^5:10 default must be true or false/
		);
		expect(errorsOf(`${required}suggested_prompts:\n  - ok\n  - ""\n`)).toEqual([
			'7:5 a suggested prompt must not be empty'
		]);
		expect(errorsOf(required.replace('title: T', 'title: "   "'))).toEqual([
			'2:8 title must not be empty'
		]);
	});

	it('reports YAML syntax errors and empty or non-map files', () => {
		expect(errorsOf('id: demo\ntitle: [oops\n')[0]).toMatch(/^\d+:\d+ YAML syntax error/);
		expect(errorsOf('')).toEqual([
			'1:1 scenario.yaml is empty: start with id, title, summary and brief.'
		]);
		expect(errorsOf('- id: demo\n')).toEqual(['1:1 The manifest must be a map (got a list)']);
	});
});

describe('isScenarioId', () => {
	it('accepts kebab-case ids only', () => {
		expect(['jwt-auth', 'a', 'weather-api-2'].every(isScenarioId)).toBe(true);
		expect(['', 'JWT', 'a_b', '-a', 'a-', '../x', 'a/b', 42].some(isScenarioId)).toBe(false);
	});
});
