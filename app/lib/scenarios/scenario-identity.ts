import { contentHash } from '../../../hooks/hashing/sha256.js';
import { canonicalJson } from '../../../hooks/ledger/canonical-json.js';
import type { ScenarioIdentity } from '../../../hooks/pipeline/scenario-records.js';
import type { ScenarioBundle } from '../../../hooks/scenarios/scenario-schema.js';
import { scenarioContentHash } from './scenario-workspace.js';

/**
 * What the ledger records as the workspace's scenario (`scenario-load`): its declared id and
 * title, where it came from, and the hashes of its manifest and of its whole content. The id alone
 * names nothing we can trust (anyone may declare `jwt-auth`); the source and hashes tell a grader
 * which exercise an export really is.
 */
export async function scenarioIdentity(scenario: {
	id: string;
	source: string;
	bundle: ScenarioBundle;
	contentHash?: string;
}): Promise<ScenarioIdentity> {
	return {
		scenario_id: scenario.id,
		title: scenario.bundle.manifest.title,
		source: scenario.source,
		manifest_hash: await contentHash(canonicalJson(scenario.bundle.manifest)),
		content_hash: scenario.contentHash ?? (await scenarioContentHash(scenario.bundle))
	};
}
