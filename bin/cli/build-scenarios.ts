// Builds the scenario bundles the app fetches: `node bin/run-ts.js bin/cli/build-scenarios.ts`.
// Reads public/scenarios/<id>/ (scenario.yaml, demo.yaml, files/**), validates every scenario and
// writes public/scenarios/index.json and public/scenarios/<id>.json (generated, git-ignored).
import { lstat, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifestFileName } from '../../hooks/scenarios/scenario-bundle.js';
import { scenarioFromEntries } from '../../hooks/scenarios/scenario-from-entries.js';
import { buildScenarioIndex } from '../../hooks/scenarios/scenario-index.js';
import {
	formatScenarioProblem,
	type ScenarioProblem
} from '../../hooks/scenarios/scenario-problem.js';
import type { ScenarioBundle } from '../../hooks/scenarios/scenario-schema.js';
import { readYamlWithPositions } from '../../hooks/yaml/yaml-position.js';
import { UsageError } from './usage-error.js';

type Output = { out(text: string): void; err(text: string): void };

export const defaultScenariosRoot = fileURLToPath(
	new URL('../../public/scenarios', import.meta.url)
);

export interface CheckedScenarioFolder {
	folder: string;
	bundle: ScenarioBundle | null;
	/** Each already formatted as `folder/file:line:column message`. */
	errors: string[];
}

export interface CheckedScenarios {
	/** `single`: the path is one scenario folder; `collection`: a folder of scenario folders. */
	kind: 'single' | 'collection';
	scenarios: CheckedScenarioFolder[];
	/** Problems of the collection as a whole (defaults, stray folders). */
	errors: string[];
}

/**
 * Validates a scenario folder, or every scenario folder inside `path`: manifest, intents, demo,
 * folder name = id, and for a collection (the built-ins) exactly one default.
 * Throws UsageError when `path` cannot be read or holds no scenario at all.
 */
export async function checkScenarios(path: string): Promise<CheckedScenarios> {
	const info = await lstat(path).catch(() => null);
	if (!info) throw new UsageError(`${path} does not exist`);
	if (!info.isDirectory()) throw new UsageError(`${path} is not a folder`);
	if (await isFile(join(path, manifestFileName))) {
		return { kind: 'single', scenarios: [await checkScenarioFolder(path)], errors: [] };
	}

	const folders: string[] = [];
	const errors: string[] = [];
	const children = await readdir(path, { withFileTypes: true }).catch((error: unknown) => {
		throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code}`);
	});
	for (const child of children.sort((left, right) => compare(left.name, right.name))) {
		// Files next to the scenario folders (index.json, <id>.json, a README) are not scenarios.
		if (!child.isDirectory()) continue;
		const folder = join(path, child.name);
		if (await isFile(join(folder, manifestFileName))) folders.push(folder);
		else
			errors.push(
				`${folder}: not a scenario folder (no ${manifestFileName}); remove it or add one`
			);
	}
	if (folders.length === 0) {
		throw new UsageError(
			`${path} holds no scenario: expected ${manifestFileName} in it or in its sub-folders`
		);
	}
	const scenarios: CheckedScenarioFolder[] = [];
	for (const folder of folders) scenarios.push(await checkScenarioFolder(folder));
	const manifests = scenarios.flatMap((scenario) =>
		scenario.bundle ? [scenario.bundle.manifest] : []
	);
	// Only meaningful when every manifest could be read; otherwise a missing default may be a typo.
	if (manifests.length === scenarios.length) {
		errors.push(...buildScenarioIndex(manifests).problems.map((problem) => `${path}: ${problem}`));
	}
	return { kind: 'collection', scenarios, errors };
}

export async function checkScenarioFolder(folder: string): Promise<CheckedScenarioFolder> {
	const { entries, problems } = await readScenarioFolder(folder);
	const assembled = scenarioFromEntries(entries);
	problems.push(...assembled.problems);
	const name = basename(resolve(folder));
	if (assembled.bundle && assembled.bundle.manifest.id !== name) {
		problems.push({
			file: manifestFileName,
			...idPosition(entries.get(manifestFileName)),
			message: `id "${assembled.bundle.manifest.id}" must equal the folder name "${name}" (the ?scenario= value and the bundle's file name come from it)`
		});
	}
	return {
		folder,
		bundle: problems.length === 0 ? assembled.bundle : null,
		errors: problems.map((problem) => formatScenarioProblem(problem, folder))
	};
}

/** Every file under `folder` by POSIX path relative to it; links are refused, not followed. */
async function readScenarioFolder(
	folder: string
): Promise<{ entries: Map<string, Uint8Array>; problems: ScenarioProblem[] }> {
	const entries = new Map<string, Uint8Array>();
	const problems: ScenarioProblem[] = [];
	const walk = async (current: string): Promise<void> => {
		const children = await readdir(current, { withFileTypes: true });
		for (const child of children.sort((left, right) => compare(left.name, right.name))) {
			const path = join(current, child.name);
			const relativePath = relative(folder, path).split(sep).join('/');
			if (child.isDirectory()) await walk(path);
			else if (child.isFile()) entries.set(relativePath, new Uint8Array(await readFile(path)));
			else
				problems.push({
					file: relativePath,
					message: 'is not a regular file (a link or a device); a scenario holds plain files only'
				});
		}
	};
	try {
		await walk(folder);
	} catch (error) {
		throw new UsageError(
			`cannot read ${folder}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`
		);
	}
	return { entries, problems };
}

function idPosition(bytes: Uint8Array | undefined): { line?: number; column?: number } {
	if (!bytes) return {};
	const read = readYamlWithPositions(new TextDecoder().decode(bytes));
	return read.ok ? read.yaml.valueAt(['id']) : {};
}

/**
 * Validates the built-ins, then writes `index.json` and one `<id>.json` bundle per scenario.
 * Deterministic: sorted ids and paths, so the same folders always give the same bytes. Files are
 * only rewritten when they change (a dev server does not reload for nothing), and bundles of
 * scenarios that no longer exist are removed.
 */
export async function buildScenarios(root: string, output: Output): Promise<number> {
	const checked = await checkScenarios(root);
	if (checked.kind !== 'collection') {
		throw new UsageError(
			`${root} is one scenario; give the folder that holds the scenario folders`
		);
	}
	const errors = [...checked.scenarios.flatMap((scenario) => scenario.errors), ...checked.errors];
	if (errors.length > 0) {
		for (const error of errors) output.err(error);
		output.err(`${errors.length} error(s): no scenario bundle was written`);
		return 1;
	}
	const bundles = checked.scenarios.map((scenario) => scenario.bundle as ScenarioBundle);
	const { index } = buildScenarioIndex(bundles.map((bundle) => bundle.manifest));

	const written = new Map<string, string>();
	written.set('index.json', `${JSON.stringify(index, null, '\t')}\n`);
	for (const bundle of bundles) {
		written.set(`${bundle.manifest.id}.json`, `${JSON.stringify(bundle)}\n`);
	}
	for (const [name, content] of written) {
		const path = join(root, name);
		const previous = await readFile(path, 'utf8').catch(() => null);
		if (previous !== content) await writeFile(path, content);
		output.out(
			`${displayPath(path)}  ${formatSize(Buffer.byteLength(content))}${previous === content ? ' (unchanged)' : ''}`
		);
	}
	for (const child of await readdir(root, { withFileTypes: true })) {
		if (child.isFile() && child.name.endsWith('.json') && !written.has(child.name)) {
			await rm(join(root, child.name));
			output.out(`${displayPath(join(root, child.name))}  removed (no such scenario)`);
		}
	}
	output.out(
		`${bundles.length} scenario(s): ${bundles.map((bundle) => bundle.manifest.id).join(', ')}`
	);
	return 0;
}

async function isFile(path: string): Promise<boolean> {
	return (await lstat(path).catch(() => null))?.isFile() ?? false;
}

/** Code-point order, the same on every machine (localeCompare is not). */
function compare(left: string, right: string): number {
	return left < right ? -1 : left > right ? 1 : 0;
}

/** Paths as the person typed them: relative to where the command runs. */
function displayPath(path: string): string {
	return relative(process.cwd(), path) || path;
}

function formatSize(bytes: number): string {
	return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

const invokedDirectly =
	process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
	const root = process.argv[2] ?? defaultScenariosRoot;
	const output: Output = {
		out: (text) => process.stdout.write(`${text}\n`),
		err: (text) => process.stderr.write(`${text}\n`)
	};
	try {
		process.exitCode = await buildScenarios(root, output);
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		output.err(`build-scenarios: ${error.message}`);
		process.exitCode = 2;
	}
}
