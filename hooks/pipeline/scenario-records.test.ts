import { describe, expect, it } from 'vitest';
import { createTestPipeline } from './pipeline-test-kit.js';
import { lastScenarioLoad, type ScenarioIdentity } from './scenario-records.js';

const identity = (overrides: Partial<ScenarioIdentity> = {}): ScenarioIdentity => ({
	scenario_id: 'jwt-auth',
	title: 'JWT auth',
	source: 'built-in:jwt-auth',
	manifest_hash: 'sha256:aa',
	content_hash: 'sha256:bb',
	...overrides
});

describe('scenario-load: the ledger names its scenario', () => {
	it('records the identity once, and again only when it changes', async () => {
		const { pipeline, ledger } = createTestPipeline({});
		await pipeline.recordWorkspaceSnapshot(['src/auth/jwt.ts']);
		await pipeline.recordScenarioLoad(identity());
		// A reload of the same workspace is not a new scenario.
		await pipeline.recordScenarioLoad(identity());
		let loads = (await ledger.events()).filter((event) => event.type === 'scenario-load');
		expect(loads).toHaveLength(1);
		expect(loads[0]).toMatchObject({ session_id: 'workspace', ...identity() });
		// The same id with other content (a new version of the scenario) is recorded.
		await pipeline.recordScenarioLoad(identity({ content_hash: 'sha256:cc' }));
		loads = (await ledger.events()).filter((event) => event.type === 'scenario-load');
		expect(loads).toHaveLength(2);
		expect(lastScenarioLoad(await ledger.events())?.content_hash).toBe('sha256:cc');
	});
});
