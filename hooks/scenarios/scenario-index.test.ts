import { describe, expect, it } from 'vitest';
import { buildScenarioIndex, scenarioIndexSchema } from './scenario-index.js';
import type { ScenarioManifest } from './scenario-schema.js';

function manifest(id: string, extra: Partial<ScenarioManifest> = {}): ScenarioManifest {
	return {
		id,
		title: `Title ${id}`,
		summary: 'S',
		brief: 'B',
		suggested_prompts: [],
		approval_policy: 'destructive',
		sandbox: { needs: 'any' },
		...extra
	};
}

describe('buildScenarioIndex', () => {
	it('lists the scenarios sorted by id, without briefs or prompts', () => {
		const { index, problems } = buildScenarioIndex([
			manifest('weather-api', { sandbox: { needs: 'webcontainer', note: 'npm' } }),
			manifest('jwt-auth', { default: true, approval_policy: 'always' })
		]);
		expect(problems).toEqual([]);
		expect(index).toEqual({
			version: 1,
			scenarios: [
				{
					id: 'jwt-auth',
					title: 'Title jwt-auth',
					summary: 'S',
					default: true,
					approval_policy: 'always',
					sandbox: { needs: 'any' }
				},
				{
					id: 'weather-api',
					title: 'Title weather-api',
					summary: 'S',
					default: false,
					approval_policy: 'destructive',
					sandbox: { needs: 'webcontainer', note: 'npm' }
				}
			]
		});
		expect(scenarioIndexSchema.parse(JSON.parse(JSON.stringify(index)))).toEqual(index);
	});

	it('wants exactly one default and unique ids', () => {
		expect(buildScenarioIndex([manifest('a'), manifest('b')]).problems).toEqual([
			'no built-in scenario has "default: true"; mark exactly one (the one / opens)'
		]);
		expect(
			buildScenarioIndex([manifest('b', { default: true }), manifest('a', { default: true })])
				.problems
		).toEqual(['2 built-in scenarios have "default: true" (a, b); keep exactly one']);
		expect(buildScenarioIndex([manifest('a', { default: true }), manifest('a')]).problems).toEqual([
			'two scenarios have the id "a"'
		]);
		expect(buildScenarioIndex([]).problems).toEqual([]);
	});
});
