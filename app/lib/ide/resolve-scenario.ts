import { isScenarioId, type ScenarioBundle } from '../../../hooks/scenarios/scenario-schema.js';
import {
	loadBuiltInScenario,
	loadRemoteScenario,
	loadScenarioIndex
} from '../scenarios/scenario-source.js';
import {
	builtInWorkspace,
	remoteScenarioSource,
	remoteWorkspace,
	scenarioContentHash
} from '../scenarios/scenario-workspace.js';

export interface ResolvedScenario {
	id: string;
	bundle: ScenarioBundle;
	/** Built-in scenarios are trusted; a scenario from a URL is data from elsewhere. */
	trusted: boolean;
	source: string;
	/**
	 * The saved workspace it opens (an IndexedDB database name, see scenario-workspace.ts): keyed
	 * by where the scenario comes from, never by the id it declares.
	 */
	workspace: string;
	/** A remote scenario's content hash (`sha256:<hex>`): its workspace is one per URL and content. */
	contentHash?: string;
	/**
	 * A share link that carries its history: the `.orchestration/` files of its export, imported
	 * with the link's files (and verified) the first time its workspace opens.
	 */
	sharedHistory?: Readonly<Record<string, string>>;
}

/**
 * `?scenario=` → the scenario to open: nothing means the default built-in, an id a built-in,
 * an http(s) URL a remote bundle or zip (shown as untrusted; nothing in it runs by itself).
 */
export async function resolveScenario(
	parameter: string | null,
	fetcher: typeof fetch
): Promise<ResolvedScenario> {
	if (parameter && /^https?:\/\//i.test(parameter)) {
		const remote = await loadRemoteScenario(parameter, fetcher);
		if (!remote.ok) throw new Error(remote.error);
		// Keyed by where it comes from and what it holds, never by the id it declares.
		const source = remoteScenarioSource(remote.source);
		const contentHash = await scenarioContentHash(remote.bundle);
		return {
			id: remote.bundle.manifest.id,
			bundle: remote.bundle,
			trusted: false,
			source,
			workspace: await remoteWorkspace(source, contentHash),
			contentHash
		};
	}
	// A named built-in is fetched beside the index, not after it: one round trip off the first paint.
	const named =
		parameter && isScenarioId(parameter) ? loadBuiltInScenario(parameter, fetcher) : null;
	named?.catch(() => undefined);
	const index = await loadScenarioIndex(fetcher);
	if (!index.ok) throw new Error(index.error);
	const id =
		parameter ?? index.scenarios.find((scenario) => scenario.default)?.id ?? index.scenarios[0]?.id;
	if (!id) throw new Error('No scenarios are installed (public/scenarios/index.json is empty).');
	if (!index.scenarios.some((scenario) => scenario.id === id)) {
		throw new Error(
			`There is no built-in scenario "${id}". Available: ${index.scenarios.map((scenario) => scenario.id).join(', ')}.`
		);
	}
	const loaded = await (named ?? loadBuiltInScenario(id, fetcher));
	if (!loaded.ok) throw new Error(loaded.error);
	return {
		id,
		bundle: loaded.bundle,
		trusted: true,
		source: `built-in:${id}`,
		workspace: builtInWorkspace(id)
	};
}

export function bundleFileBytes(bundle: ScenarioBundle): Record<string, Uint8Array> {
	const encoder = new TextEncoder();
	const files: Record<string, Uint8Array> = {};
	for (const [path, file] of Object.entries(bundle.files)) {
		files[path] =
			file.encoding === 'utf8'
				? encoder.encode(file.content)
				: Uint8Array.from(atob(file.content), (character) => character.charCodeAt(0));
	}
	return files;
}
