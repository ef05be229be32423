/**
 * A small valid scenario, as folder entries and as a bundle, for the scenario tests (hooks and
 * app). Only tests import this file.
 */
import type { ScenarioBundle } from './scenario-schema.js';

export const sampleManifestYaml = `id: sample
title: Sample scenario
summary: A tiny scenario for tests.
brief: |
  # Sample
  Try things.
suggested_prompts:
  - "Check out INT-001."
`;

export const sampleIntentsYaml = `active_intents:
  - id: INT-001
    name: Sample intent
    status: IN_PROGRESS
    owned_scope: ["src/**"]
`;

export const sampleDemoYaml = `steps:
  - call: select_active_intent
    input: { intent_id: INT-001 }
    expect: ok
`;

const encoder = new TextEncoder();

/** A scenario folder's files by path relative to the folder; override or drop (null) entries. */
export function sampleEntries(
	overrides: Record<string, string | Uint8Array | null> = {}
): Map<string, Uint8Array> {
	const base: Record<string, string | Uint8Array | null> = {
		'scenario.yaml': sampleManifestYaml,
		'demo.yaml': sampleDemoYaml,
		'files/.orchestration/active_intents.yaml': sampleIntentsYaml,
		'files/.intentignore': '# none\n',
		'files/src/index.ts': 'export const answer = 42;\n',
		...overrides
	};
	const entries = new Map<string, Uint8Array>();
	for (const [path, content] of Object.entries(base)) {
		if (content === null) continue;
		entries.set(path, typeof content === 'string' ? encoder.encode(content) : content);
	}
	return entries;
}

export function sampleBundle(): ScenarioBundle {
	return {
		manifest: {
			id: 'sample',
			title: 'Sample scenario',
			summary: 'A tiny scenario for tests.',
			brief: '# Sample\nTry things.\n',
			suggested_prompts: ['Check out INT-001.'],
			approval_policy: 'destructive',
			sandbox: { needs: 'any' }
		},
		files: {
			'.intentignore': { encoding: 'utf8', content: '# none\n' },
			'.orchestration/active_intents.yaml': { encoding: 'utf8', content: sampleIntentsYaml },
			'src/index.ts': { encoding: 'utf8', content: 'export const answer = 42;\n' }
		},
		demo: sampleDemoYaml
	};
}
