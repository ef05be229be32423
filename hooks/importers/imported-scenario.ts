import { stringify } from 'yaml';
import { canonicalEntryPath } from '../paths/normalize-path.js';
import { scenarioFromEntries } from '../scenarios/scenario-from-entries.js';
import { formatScenarioProblem } from '../scenarios/scenario-problem.js';

/** What an importer made: a scenario folder's files, and what it could not carry over. */
export interface ImportedScenario {
	/** The scenario folder by relative path: `scenario.yaml`, `files/**`. */
	entries: Map<string, Uint8Array>;
	/** Parts of the source with no Threadline equivalent, each naming the part and why. */
	notCarried: string[];
}

export type ImportResult = ({ ok: true } & ImportedScenario) | { ok: false; problem: string };

/** Limits on what an importer reads, the same kind every reader here has (scenarioLimits). */
export const importLimits = Object.freeze({
	maximumFiles: 2_000,
	maximumFileBytes: 5 * 1024 * 1024,
	maximumTotalBytes: 20 * 1024 * 1024,
	maximumPathLength: 1_024
});

/**
 * Checks a source folder's entries before anything reads them: every name canonical (no `..`,
 * no absolute path, no backslash), within the counts and sizes. The first refusal, naming the
 * entry, or null.
 */
export function refuseHostileEntries(entries: ReadonlyMap<string, Uint8Array>): string | null {
	if (entries.size > importLimits.maximumFiles)
		return `the folder holds ${entries.size} files; at most ${importLimits.maximumFiles} are imported`;
	let total = 0;
	for (const [name, bytes] of entries) {
		if (name.length > importLimits.maximumPathLength)
			return `${JSON.stringify(name.slice(0, 80))}…: a path of ${name.length} characters; at most ${importLimits.maximumPathLength}`;
		const canonical = canonicalEntryPath(name);
		if (!canonical.ok) return `entry ${canonical.reason}`;
		if (bytes.length > importLimits.maximumFileBytes)
			return `${name} is ${bytes.length} bytes; at most ${importLimits.maximumFileBytes / (1024 * 1024)} MB per file`;
		total += bytes.length;
		if (total > importLimits.maximumTotalBytes)
			return `${name} makes the folder larger than ${importLimits.maximumTotalBytes / (1024 * 1024)} MB`;
	}
	return null;
}

const encoder = new TextEncoder();

/**
 * A scenario folder from a manifest, the starting workspace and the intents: written as the
 * files Threadline reads, then read back through the one scenario reader, so an importer can
 * only hand out a scenario `threadline validate` accepts.
 */
export function assembleScenario(input: {
	manifest: Record<string, unknown>;
	files: ReadonlyMap<string, Uint8Array>;
	intents: Record<string, unknown>[];
	notCarried: string[];
}): ImportResult {
	const entries = new Map<string, Uint8Array>();
	entries.set('scenario.yaml', encoder.encode(stringify(input.manifest, { lineWidth: 0 })));
	for (const [path, bytes] of input.files) entries.set(`files/${path}`, bytes);
	entries.set(
		'files/.orchestration/active_intents.yaml',
		encoder.encode(stringify({ active_intents: input.intents }, { lineWidth: 0 }))
	);
	const read = scenarioFromEntries(entries);
	if (read.problems.length > 0 || !read.bundle)
		return {
			ok: false,
			problem: `the imported scenario is not valid: ${read.problems
				.slice(0, 5)
				.map((problem) => formatScenarioProblem(problem))
				.join('; ')}`
		};
	return { ok: true, entries, notCarried: input.notCarried };
}

/** A kebab-case scenario id from any title (at most 64 characters). */
export function scenarioIdFrom(text: string, fallback: string): string {
	const id = text
		.normalize('NFKD')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 64)
		.replace(/-+$/, '');
	return id === '' ? fallback : id;
}
