import {
	checkScenarioDemo,
	checkScenarioFiles,
	demoFileName,
	filesFolderName,
	manifestFileName,
	type ScenarioBundle
} from './scenario-bundle.js';
import { encodeScenarioFile, type ScenarioFile } from './scenario-file-encoding.js';
import type { ScenarioProblem } from './scenario-problem.js';
import { scenarioIntentReferenceProblems } from './scenario-intent-references.js';
import { parseScenarioManifest, type ScenarioManifest } from './scenario-schema.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Files operating systems drop into folders and zips; never part of a scenario. */
function isSystemLitter(path: string): boolean {
	const name = path.split('/').at(-1) ?? '';
	return path.startsWith('__MACOSX/') || name === '.DS_Store' || name === 'Thumbs.db';
}

/**
 * A scenario folder (`scenario.yaml`, `demo.yaml`, `files/**`) given as its files by path relative
 * to the folder, turned into a bundle. Every problem names its file, with line and column for the
 * YAML files, so the CLI, the build and the remote loader report the same sentences.
 */
export function scenarioFromEntries(entries: ReadonlyMap<string, Uint8Array>): {
	bundle: ScenarioBundle | null;
	problems: ScenarioProblem[];
} {
	const problems: ScenarioProblem[] = [];
	let manifestBytes: Uint8Array | undefined;
	let demoBytes: Uint8Array | undefined;
	const files = new Map<string, ScenarioFile>();
	const prefix = `${filesFolderName}/`;

	for (const path of [...entries.keys()].sort()) {
		if (isSystemLitter(path)) continue;
		const bytes = entries.get(path) as Uint8Array;
		if (path === manifestFileName) manifestBytes = bytes;
		else if (path === demoFileName) demoBytes = bytes;
		else if (path.startsWith(prefix))
			files.set(path.slice(prefix.length), encodeScenarioFile(bytes));
		else
			problems.push({
				file: path,
				message: `is not part of a scenario: a scenario folder holds ${manifestFileName}, ${demoFileName} (optional) and ${filesFolderName}/`
			});
	}

	let manifest: ScenarioManifest | null = null;
	let manifestText: string | null = null;
	if (!manifestBytes) {
		problems.push({
			file: manifestFileName,
			message: 'is missing: every scenario folder needs one'
		});
	} else {
		const text = decodeText(manifestBytes);
		manifestText = text;
		if (text === null) problems.push({ file: manifestFileName, message: 'is not UTF-8 text' });
		else {
			const parsed = parseScenarioManifest(text);
			if (parsed.ok) manifest = parsed.manifest;
			else problems.push(...parsed.errors.map((error) => ({ file: manifestFileName, ...error })));
		}
	}

	// fromEntries, not assignment: a "__proto__" file must stay a file name.
	const checkedFiles = checkScenarioFiles(Object.fromEntries(files));
	problems.push(...checkedFiles.problems);

	let demo: string | null = null;
	if (demoBytes) {
		const text = decodeText(demoBytes);
		if (text === null) problems.push({ file: demoFileName, message: 'is not UTF-8 text' });
		else {
			const checkedDemo = checkScenarioDemo(text);
			problems.push(...checkedDemo.problems);
			demo = checkedDemo.demo;
		}
	}

	// Steps, rubric and demo name only intents the scenario has (no stale demo of another scenario).
	if (manifest && checkedFiles.files)
		problems.push(
			...scenarioIntentReferenceProblems({
				manifest,
				files: checkedFiles.files,
				demo,
				manifestText
			})
		);
	if (!manifest || !checkedFiles.files || problems.length > 0) return { bundle: null, problems };
	return { bundle: { manifest, files: checkedFiles.files, demo }, problems };
}

function decodeText(bytes: Uint8Array): string | null {
	try {
		return strictUtf8.decode(bytes);
	} catch {
		return null;
	}
}
