import { unzipSync } from 'fflate';
import { manifestFileName, scenarioLimits, type ScenarioBundle } from './scenario-bundle.js';
import { scenarioFromEntries } from './scenario-from-entries.js';
import type { ScenarioProblem } from './scenario-problem.js';

/** Room for scenario.yaml, demo.yaml and zip tools' litter on top of the workspace's limits. */
const maximumEntries = scenarioLimits.maximumFiles + 32;
const maximumUnpackedBytes =
	scenarioLimits.maximumTotalBytes + 2 * scenarioLimits.maximumDemoLength;

class ZipLimitError extends Error {}

/**
 * A zip of a scenario folder: `scenario.yaml` at the top level or one folder down (zipping a
 * folder usually keeps its name). Untrusted input: entry counts and unpacked sizes are checked
 * from the zip's directory before anything is inflated, and unsafe entry names are refused.
 */
export function readScenarioZip(bytes: Uint8Array): {
	bundle: ScenarioBundle | null;
	problems: ScenarioProblem[];
} {
	let unpacked: Record<string, Uint8Array>;
	let entryCount = 0;
	let declaredBytes = 0;
	try {
		unpacked = unzipSync(bytes, {
			filter(entry) {
				entryCount++;
				declaredBytes += entry.originalSize;
				if (entryCount > maximumEntries) {
					throw new ZipLimitError(
						`the zip has more than ${maximumEntries} entries; a scenario may hold at most ${scenarioLimits.maximumFiles} files`
					);
				}
				if (declaredBytes > maximumUnpackedBytes) {
					throw new ZipLimitError(
						`the zip unpacks to more than ${maximumUnpackedBytes / (1024 * 1024)} MB; a scenario's files may add up to at most ${scenarioLimits.maximumTotalBytes / (1024 * 1024)} MB`
					);
				}
				// fflate inflates into a buffer of the declared size, so a lying header cannot grow it.
				return !entry.name.endsWith('/');
			}
		});
	} catch (error) {
		const message =
			error instanceof ZipLimitError
				? error.message
				: `not a readable zip file (${error instanceof Error ? error.message : String(error)})`;
		return {
			bundle: null,
			problems: [{ file: 'zip', message, exceedsLimit: error instanceof ZipLimitError }]
		};
	}

	const entries = new Map<string, Uint8Array>();
	for (const [name, content] of Object.entries(unpacked)) {
		const path = name.replaceAll('\\', '/');
		if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.split('/').includes('..')) {
			return {
				bundle: null,
				problems: [
					{
						file: 'zip',
						message: `entry ${JSON.stringify(name)} has an unsafe path (absolute or containing ".."); refusing the zip`
					}
				]
			};
		}
		entries.set(path.replace(/^(\.\/)+/, ''), content);
	}

	const roots = new Set<string>();
	for (const path of entries.keys()) {
		const match = /^(?:([^/]+)\/)?scenario\.yaml$/.exec(path);
		if (match && match[1] !== '__MACOSX') roots.add(match[1] === undefined ? '' : `${match[1]}/`);
	}
	if (roots.size === 0) {
		return {
			bundle: null,
			problems: [
				{
					file: 'zip',
					message: `no ${manifestFileName} found (looked at the top level and one folder down); is this a scenario folder?`
				}
			]
		};
	}
	if (roots.size > 1 && !roots.has('')) {
		return {
			bundle: null,
			problems: [
				{
					file: 'zip',
					message: `several scenarios found (${[...roots].sort().join(', ')}); zip one scenario folder at a time`
				}
			]
		};
	}
	const root = roots.has('') ? '' : ([...roots][0] as string);
	const scenarioEntries = new Map<string, Uint8Array>();
	for (const [path, content] of entries) {
		if (path.startsWith(root)) scenarioEntries.set(path.slice(root.length), content);
	}
	return scenarioFromEntries(scenarioEntries);
}
