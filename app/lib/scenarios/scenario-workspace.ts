import { contentHash, sha256Hex } from '../../../hooks/hashing/sha256.js';
import { canonicalJson } from '../../../hooks/ledger/canonical-json.js';
import { decodeScenarioFile } from '../../../hooks/scenarios/scenario-file-encoding.js';
import type { ScenarioBundle } from '../../../hooks/scenarios/scenario-schema.js';

/**
 * Which saved workspace (IndexedDB database, and the ledger's lock between tabs) a scenario opens.
 *
 * A scenario's id is chosen by whoever wrote it, so it names nothing we can trust: a remote
 * scenario (or a share link) may declare any id, a built-in's included. Workspaces are therefore
 * keyed by where the scenario comes from:
 *
 * - a built-in by its id (`threadline-workspace-<id>`, the name it has always had, so learners'
 *   work keeps opening);
 * - a share link by its id and the fingerprint of its content (unchanged as well);
 * - a remote scenario by its URL and the hash of its content, never by its declared id:
 *   `threadline-workspace-remote:<sha256 of the URL>:<hex of the content hash>`. The `:` cannot
 *   occur in a scenario id, so no built-in or share workspace can ever have a remote's name; two
 *   URLs get two workspaces; a URL whose content changed gets a new one (the old one is kept),
 *   and the same URL with the same content reopens the learner's work.
 *
 * The content hash is the scenario's identity as the ledger records it (with the id and the
 * source): a workspace is never continued under other content than it was started from.
 */
export const workspaceNamePrefix = 'threadline-workspace-';
const remotePrefix = `${workspaceNamePrefix}remote:`;
const hexDigest = /^[0-9a-f]{64}$/;

/** The workspace of a built-in scenario: the name it always had. */
export function builtInWorkspace(id: string): string {
	return `${workspaceNamePrefix}${id}`;
}

/** The workspace of a share link: one per shared content (the link's fingerprint). */
export function shareWorkspace(id: string, fingerprint: string): string {
	return `${workspaceNamePrefix}${id}-${fingerprint}`;
}

/**
 * `sha256:<hex>` of what a scenario is: its manifest, its demo and every file's bytes, in
 * canonical JSON. Files are hashed by their bytes, not by how the bundle spelled them (UTF-8 or
 * base64), so a JSON bundle and a zip of the same folder have the same content hash.
 */
export async function scenarioContentHash(bundle: ScenarioBundle): Promise<string> {
	const files: Record<string, string> = {};
	for (const [path, file] of Object.entries(bundle.files)) {
		files[path] = await contentHash(decodeScenarioFile(file));
	}
	return contentHash(canonicalJson({ manifest: bundle.manifest, demo: bundle.demo, files }));
}

/**
 * The source a remote scenario is keyed by: its URL as the browser reads it, without the
 * fragment (never sent to the server, so it cannot change what the URL serves).
 */
export function remoteScenarioSource(url: string): string {
	const parsed = new URL(url);
	parsed.hash = '';
	return parsed.href;
}

/** The workspace of a remote scenario: one per URL and content. */
export async function remoteWorkspace(url: string, scenarioHash: string): Promise<string> {
	const digest = scenarioHash.startsWith('sha256:') ? scenarioHash.slice('sha256:'.length) : '';
	if (!hexDigest.test(digest))
		throw new TypeError(`A scenario content hash is sha256:<64 hex>, got "${scenarioHash}"`);
	return `${await remoteSourcePrefix(url)}${digest}`;
}

/**
 * The workspaces this browser holds for other contents of the same URL as `workspace` (a remote
 * scenario's), given the names of the databases it holds: the work done on earlier versions of
 * a scenario that has changed since. Empty for any other workspace.
 */
export function otherVersionWorkspaces(
	workspace: string,
	databaseNames: readonly string[]
): string[] {
	const match = /^(threadline-workspace-remote:[0-9a-f]{64}:)[0-9a-f]{64}$/.exec(workspace);
	if (!match) return [];
	const prefix = match[1] ?? '';
	return databaseNames.filter(
		(name) =>
			name !== workspace && name.startsWith(prefix) && hexDigest.test(name.slice(prefix.length))
	);
}

/**
 * The localStorage key that remembers the brief was shown: per source as before for built-ins and
 * share links (whose content is their source), per workspace for a remote scenario, so a changed
 * scenario shows its new brief.
 */
export function briefSeenKey(scenario: {
	source: string;
	workspace: string;
	contentHash?: string;
}): string {
	return `threadline-brief-seen-${scenario.contentHash ? scenario.workspace : scenario.source}`;
}

/** What the learner is told when their URL's scenario changed since they last opened it. */
export function scenarioChangedNotice(source: string): string {
	return `This scenario changed since you last opened it (${source}), so it opens in a new workspace. Your work on the earlier version is kept in this browser and opens again if the address serves that version again.`;
}

async function remoteSourcePrefix(url: string): Promise<string> {
	return `${remotePrefix}${await sha256Hex(remoteScenarioSource(url))}:`;
}
