import { readZip, ZipReadError, type ZipLimits } from '../zip/read-zip.js';
import { manifestFileName, scenarioLimits, type ScenarioBundle } from './scenario-bundle.js';
import { scenarioFromEntries } from './scenario-from-entries.js';
import type { ScenarioProblem } from './scenario-problem.js';

/** Room for scenario.yaml, demo.yaml and zip tools' litter on top of the workspace's limits. */
const scenarioZipLimits: ZipLimits = {
	maximumEntries: scenarioLimits.maximumFiles + 32,
	maximumTotalBytes: scenarioLimits.maximumTotalBytes + 2 * scenarioLimits.maximumDemoLength,
	maximumEntryBytes: scenarioLimits.maximumTotalBytes,
	maximumRatio: 200,
	ratioCheckFromBytes: 1024 * 1024
};

/**
 * A zip of a scenario folder: `scenario.yaml` at the top level or one folder down (zipping a
 * folder usually keeps its name). Untrusted input, read by the one bounded zip reader: entry
 * counts, sizes and compression ratios are checked from the zip's directory before anything is
 * inflated, inflating stops at the declared size, and entry names must be canonical and unique
 * (no `..`, absolute paths, backslashes, `./`, duplicates).
 */
export function readScenarioZip(bytes: Uint8Array): {
	bundle: ScenarioBundle | null;
	problems: ScenarioProblem[];
} {
	const entries = new Map<string, Uint8Array>();
	try {
		for (const entry of readZip(bytes, scenarioZipLimits)) {
			if (entry.kind === 'link') {
				throw new ZipReadError(
					`entry "${entry.path}" is a symbolic link; scenarios hold files only`
				);
			}
			if (entry.kind === 'file' && !entry.path.startsWith('__MACOSX/')) {
				entries.set(entry.path, entry.content);
			}
		}
	} catch (error) {
		const limit = error instanceof ZipReadError && error.exceedsLimit;
		const message =
			error instanceof ZipReadError
				? error.message
				: `not a readable zip file (${error instanceof Error ? error.message : String(error)})`;
		return { bundle: null, problems: [{ file: 'zip', message, exceedsLimit: limit }] };
	}

	const roots = new Set<string>();
	for (const path of entries.keys()) {
		const match = /^(?:([^/]+)\/)?scenario\.yaml$/.exec(path);
		if (match) roots.add(match[1] === undefined ? '' : `${match[1]}/`);
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
