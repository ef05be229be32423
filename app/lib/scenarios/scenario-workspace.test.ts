import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { zipSync, type Zippable } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleBundle, sampleEntries } from '../../../hooks/scenarios/scenario-test-fixtures.js';
import { buildScenarioIndex } from '../../../hooks/scenarios/scenario-index.js';
import type { ScenarioBundle } from '../../../hooks/scenarios/scenario-schema.js';
import { IndexedDbWorkspaceFiles } from '../../../sandbox/local/indexeddb-workspace-files.js';
import { ledgerLockName } from '../ledger/tab-coordination.js';
import {
	bundleFileBytes,
	resolveScenario,
	type ResolvedScenario
} from '../ide/resolve-scenario.js';
import { sharedScenario } from '../share/shared-scenario.js';
import { shareUrl } from '../share/share-link.js';
import {
	briefSeenKey,
	builtInWorkspace,
	otherVersionWorkspaces,
	remoteWorkspace,
	scenarioContentHash,
	shareWorkspace
} from './scenario-workspace.js';

/** A fetcher over fixed routes (what the servers answer right now); like fetch, it sends no fragment. */
function serve(routes: Map<string, () => Response>): typeof fetch {
	return (async (input: string | URL | Request) => {
		const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
		const route = routes.get(url.replace(/#.*$/s, ''));
		return route ? route() : new Response('not found', { status: 404 });
	}) as typeof fetch;
}

const json = (value: unknown) => () => new Response(JSON.stringify(value));

/** The sample scenario with one file changed: the same id, other content. */
function changedSample(content = 'export const answer = 43;\n'): ScenarioBundle {
	const bundle = sampleBundle();
	return {
		...bundle,
		files: { ...bundle.files, 'src/index.ts': { encoding: 'utf8', content } }
	};
}

function builtInRoutes(): Map<string, () => Response> {
	const index = buildScenarioIndex([{ ...sampleBundle().manifest, default: true }]).index;
	return new Map([
		['/scenarios/index.json', json(index)],
		['/scenarios/sample.json', json(sampleBundle())]
	]);
}

const opened: IndexedDbWorkspaceFiles[] = [];
afterEach(async () => {
	for (const store of opened.splice(0)) await store.close();
});

/** Opens a scenario's saved workspace the way IdeSession does. */
async function openWorkspace(scenario: ResolvedScenario): Promise<IndexedDbWorkspaceFiles> {
	const store = await IndexedDbWorkspaceFiles.open(scenario.workspace, {
		initialFiles: async () => bundleFileBytes(scenario.bundle)
	});
	opened.push(store);
	return store;
}

async function writeAndClose(store: IndexedDbWorkspaceFiles, path: string, text: string) {
	await store.write(path, new TextEncoder().encode(text));
	await store.flush();
	await store.close();
	opened.splice(opened.indexOf(store), 1);
}

async function readText(store: IndexedDbWorkspaceFiles, path: string): Promise<string | null> {
	if ((await store.stat(path)) === null) return null;
	return new TextDecoder().decode(await store.read(path));
}

async function databaseNames(): Promise<string[]> {
	return (await indexedDB.databases()).flatMap((database) =>
		database.name ? [database.name] : []
	);
}

describe('remote scenarios get a workspace per source, never per declared id', () => {
	it('never shares a workspace between a built-in and a remote scenario declaring its id', async () => {
		const url = 'https://courses.example.org/impostor.json';
		const routes = builtInRoutes();
		routes.set(url, json(changedSample('export const planted = true;\n')));
		const builtIn = await resolveScenario('sample', serve(routes));
		const remote = await resolveScenario(url, serve(routes));
		expect(remote.id).toBe(builtIn.id);
		expect(builtIn.workspace).toBe('threadline-workspace-sample');
		expect(remote.workspace).not.toBe(builtIn.workspace);
		// Nor the ledger's lock between tabs, which is named after the workspace.
		expect(ledgerLockName(remote.workspace)).not.toBe(ledgerLockName(builtIn.workspace));

		await writeAndClose(await openWorkspace(builtIn), 'src/mine.ts', 'learner work\n');
		const remoteStore = await openWorkspace(remote);
		expect(remoteStore.restoredFrom).toBe('initial-files');
		expect(await readText(remoteStore, 'src/mine.ts')).toBeNull();
		expect(await readText(remoteStore, 'src/index.ts')).toBe('export const planted = true;\n');
		const reopenedBuiltIn = await openWorkspace(builtIn);
		expect(await readText(reopenedBuiltIn, 'src/mine.ts')).toBe('learner work\n');
		expect(await readText(reopenedBuiltIn, 'src/index.ts')).toBe('export const answer = 42;\n');
	});

	it('never gives a remote scenario the workspace of any built-in, whatever their ids', async () => {
		// A built-in whose id starts with "remote-" once shared the workspace of every remote
		// scenario declaring the rest of its id.
		const bundle = sampleBundle();
		const builtInBundle = { ...bundle, manifest: { ...bundle.manifest, id: 'remote-sample' } };
		const index = buildScenarioIndex([{ ...builtInBundle.manifest, default: true }]).index;
		const url = 'https://elsewhere.example.org/sample.json';
		const routes = new Map([
			['/scenarios/index.json', json(index)],
			['/scenarios/remote-sample.json', json(builtInBundle)],
			[url, json(bundle)]
		]);
		const builtIn = await resolveScenario('remote-sample', serve(routes));
		const remote = await resolveScenario(url, serve(routes));
		expect(builtIn.workspace).toBe('threadline-workspace-remote-sample');
		expect(remote.workspace).not.toBe(builtIn.workspace);
	});

	it('gives two URLs declaring the same id (same content even) two workspaces', async () => {
		const first = 'https://one.example.org/sample.json';
		const second = 'https://two.example.org/sample.json';
		const routes = new Map([
			[first, json(sampleBundle())],
			[second, json(sampleBundle())]
		]);
		const a = await resolveScenario(first, serve(routes));
		const b = await resolveScenario(second, serve(routes));
		expect(a.contentHash).toBe(b.contentHash);
		expect(a.workspace).not.toBe(b.workspace);
		await writeAndClose(await openWorkspace(a), 'src/index.ts', 'work done on the first\n');
		const storeB = await openWorkspace(b);
		expect(storeB.restoredFrom).toBe('initial-files');
		expect(await readText(storeB, 'src/index.ts')).toBe('export const answer = 42;\n');
	});

	it('reopens the same URL with the same content, fragment or spelling aside', async () => {
		const url = 'https://same.example.org/course/sample.json';
		const routes = new Map([[url, json(sampleBundle())]]);
		const first = await resolveScenario(url, serve(routes));
		await writeAndClose(await openWorkspace(first), 'src/index.ts', 'kept\n');
		for (const spelling of [url, 'https://SAME.example.org/course/sample.json#brief']) {
			const again = await resolveScenario(spelling, serve(routes));
			expect(again.workspace, spelling).toBe(first.workspace);
			expect(again.source, spelling).toBe(url);
			const store = await openWorkspace(again);
			expect(store.restoredFrom).toBe('database');
			expect(await readText(store, 'src/index.ts')).toBe('kept\n');
			await store.close();
			opened.splice(opened.indexOf(store), 1);
		}
	});

	it('opens a changed scenario in a new workspace, keeps the old one and can say so', async () => {
		const url = 'https://changing.example.org/sample.json';
		const routes = new Map([[url, json(sampleBundle())]]);
		const before = await resolveScenario(url, serve(routes));
		await writeAndClose(await openWorkspace(before), 'src/index.ts', 'work on version 1\n');
		expect(otherVersionWorkspaces(before.workspace, await databaseNames())).toEqual([]);

		routes.set(url, json(changedSample()));
		const after = await resolveScenario(url, serve(routes));
		expect(after.id).toBe(before.id);
		expect(after.contentHash).not.toBe(before.contentHash);
		expect(after.workspace).not.toBe(before.workspace);
		const store = await openWorkspace(after);
		expect(store.restoredFrom).toBe('initial-files');
		expect(await readText(store, 'src/index.ts')).toBe('export const answer = 43;\n');
		expect(otherVersionWorkspaces(after.workspace, await databaseNames())).toEqual([
			before.workspace
		]);
		// A changed brief is shown again.
		expect(briefSeenKey(after)).not.toBe(briefSeenKey(before));

		// The old content served again reopens the old work.
		routes.set(url, json(sampleBundle()));
		const back = await resolveScenario(url, serve(routes));
		expect(back.workspace).toBe(before.workspace);
		expect(await readText(await openWorkspace(back), 'src/index.ts')).toBe('work on version 1\n');
	});

	it('hashes content, not its spelling: a zip and a JSON bundle of one folder are one content', async () => {
		const zippable: Zippable = {};
		for (const [path, content] of sampleEntries()) zippable[`sample/${path}`] = content;
		const zipUrl = 'https://zip.example.org/sample.zip';
		const jsonUrl = 'https://zip.example.org/sample.json';
		const routes = new Map([
			[zipUrl, () => new Response(new Uint8Array(zipSync(zippable)))],
			[jsonUrl, json(sampleBundle())]
		]);
		const fromZip = await resolveScenario(zipUrl, serve(routes));
		const fromJson = await resolveScenario(jsonUrl, serve(routes));
		expect(fromZip.contentHash).toBe(fromJson.contentHash);
		const bundle = sampleBundle();
		const asBase64: ScenarioBundle = {
			...bundle,
			files: {
				...bundle.files,
				'src/index.ts': { encoding: 'base64', content: btoa('export const answer = 42;\n') }
			}
		};
		expect(await scenarioContentHash(asBase64)).toBe(await scenarioContentHash(bundle));
		for (const changed of [
			{ ...bundle, manifest: { ...bundle.manifest, brief: 'Another brief.' } },
			{ ...bundle, demo: null },
			changedSample()
		]) {
			expect(await scenarioContentHash(changed)).not.toBe(await scenarioContentHash(bundle));
		}
	});

	it('keeps share links in workspaces of their own content, apart from the built-in', async () => {
		const link = shareUrl('https://threadline.example/', sampleBundle());
		if (!link.ok) throw new Error(link.message);
		const shared = await sharedScenario(new URL(link.url).hash);
		expect(shared?.id).toBe('sample');
		expect(shared?.workspace).toMatch(/^threadline-workspace-sample-[0-9a-f]{12}$/);
		expect(shared?.workspace).not.toBe(builtInWorkspace('sample'));
	});

	it('names remote workspaces so no scenario id can spell one', async () => {
		const hash = await scenarioContentHash(sampleBundle());
		const kebab = fc.stringMatching(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
		await fc.assert(
			fc.asyncProperty(kebab, fc.webUrl(), async (id, url) => {
				const remote = await remoteWorkspace(url, hash);
				expect(remote).not.toBe(builtInWorkspace(id));
				expect(remote).not.toBe(shareWorkspace(id, hash.slice(7, 19)));
				expect(remote).toMatch(/^threadline-workspace-remote:[0-9a-f]{64}:[0-9a-f]{64}$/);
			}),
			{ numRuns: 25 }
		);
		await expect(remoteWorkspace('https://x.example/a.json', 'md5:abc')).rejects.toThrow(
			/sha256:<64 hex>/
		);
	});

	it('lists only other contents of the same URL as earlier versions', async () => {
		const hash = await scenarioContentHash(sampleBundle());
		const otherHash = await scenarioContentHash(changedSample());
		const current = await remoteWorkspace('https://a.example/s.json', hash);
		const earlier = await remoteWorkspace('https://a.example/s.json', otherHash);
		const elsewhere = await remoteWorkspace('https://b.example/s.json', otherHash);
		expect(
			otherVersionWorkspaces(current, [
				current,
				earlier,
				`${earlier}-git`,
				elsewhere,
				'threadline-workspace-sample',
				'threadline-workspace-remote-sample'
			])
		).toEqual([earlier]);
		expect(otherVersionWorkspaces(builtInWorkspace('sample'), [earlier])).toEqual([]);
	});
});
