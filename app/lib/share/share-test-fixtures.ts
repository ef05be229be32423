import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { scenarioFromEntries } from '../../../hooks/scenarios/scenario-from-entries.js';
import type { ScenarioBundle } from '../../../hooks/scenarios/scenario-schema.js';

/** The jwt-auth scenario folder as the app holds it after loading (tests and the bench). */
export async function buildJwtAuthBundle(
	folder = join(import.meta.dirname, '../../../public/scenarios/jwt-auth')
): Promise<ScenarioBundle> {
	const entries = new Map<string, Uint8Array>();
	async function walk(current: string): Promise<void> {
		for (const entry of await readdir(current, { withFileTypes: true })) {
			const path = join(current, entry.name);
			if (entry.isDirectory()) await walk(path);
			else entries.set(relative(folder, path).split('\\').join('/'), await readFile(path));
		}
	}
	await walk(folder);
	const { bundle, problems } = scenarioFromEntries(entries);
	if (!bundle) throw new Error(problems.map((problem) => problem.message).join('; '));
	return bundle;
}
