import { parseIntents } from '../intents/parse-intents.js';
import { activeIntentsPath, intentIgnorePath } from '../pipeline/governance-state.js';
import { hookPolicyPath } from '../policies/hook-policy-schema.js';
import { parseHookPolicy } from '../policies/parse-hook-policy.js';
import { normalizeWorkspacePath } from '../paths/normalize-path.js';
import { governancePathKind } from '../paths/protected-paths.js';
import {
	isValidBase64,
	scenarioFileByteLength,
	scenarioFileText,
	type ScenarioFile
} from './scenario-file-encoding.js';
import { formatScenarioProblem, type ScenarioProblem } from './scenario-problem.js';
import { checkDemoScript } from './check-demo-script.js';
import { unknownStepIntents } from './scenario-steps.js';
import { scenarioIntentReferenceProblems } from './scenario-intent-references.js';
import {
	describeManifestIssues,
	scenarioManifestSchema,
	type ScenarioBundle,
	type ScenarioManifest
} from './scenario-schema.js';

export type { ScenarioBundle, ScenarioFile } from './scenario-schema.js';

/** Sizes a learner's browser can hold in memory and IndexedDB without trouble. */
export const scenarioLimits = Object.freeze({
	maximumFiles: 2_000,
	maximumTotalBytes: 20 * 1024 * 1024,
	maximumPathLength: 1_024,
	maximumDemoLength: 1024 * 1024
});

/** Where a bundle's parts live in a scenario folder; problems are named by these paths. */
export const manifestFileName = 'scenario.yaml';
export const demoFileName = 'demo.yaml';
export const filesFolderName = 'files';

/** A long list of problems helps nobody; the first ones show the pattern. */
const maximumReportedProblems = 50;

export type ScenarioBundleValidation =
	| { ok: true; bundle: ScenarioBundle }
	/** `tooLarge`: some problem is a size limit, so the UI can say "too large" rather than "invalid". */
	| { ok: false; errors: string[]; tooLarge: boolean };

/**
 * Checks an untrusted bundle (a remote URL's JSON): the manifest, every path through the one path
 * normaliser, sizes, the intents file and the demo script. Returns a fresh bundle holding only
 * what was checked, or plain error sentences.
 */
export function validateScenarioBundle(value: unknown): ScenarioBundleValidation {
	const { bundle, problems } = checkScenarioBundle(value);
	if (bundle && problems.length === 0) return { ok: true, bundle };
	return {
		ok: false,
		errors: limitProblems(problems).map((problem) => formatScenarioProblem(problem)),
		tooLarge: problems.some((problem) => problem.exceedsLimit === true)
	};
}

export function checkScenarioBundle(value: unknown): {
	bundle: ScenarioBundle | null;
	problems: ScenarioProblem[];
} {
	if (!isPlainObject(value)) {
		return {
			bundle: null,
			problems: [
				{
					file: 'bundle',
					message: `a scenario bundle is a JSON object with manifest, files and demo (got ${kindOf(value)})`
				}
			]
		};
	}
	const problems: ScenarioProblem[] = [];
	let manifest: ScenarioManifest | null = null;
	if (value.manifest === undefined) {
		problems.push({ file: manifestFileName, message: 'the bundle has no manifest' });
	} else {
		const parsed = scenarioManifestSchema.safeParse(value.manifest, { reportInput: true });
		if (parsed.success) manifest = parsed.data;
		else {
			for (const problem of describeManifestIssues(parsed.error.issues))
				problems.push({ file: manifestFileName, message: problem.message });
		}
	}
	const files = checkScenarioFiles(value.files);
	problems.push(...files.problems);
	const demo = checkScenarioDemo(value.demo === undefined ? null : value.demo);
	problems.push(...demo.problems);
	// Steps, rubric and demo name only intents the scenario has (no stale demo of another scenario).
	if (manifest && files.files && demo.problems.length === 0)
		problems.push(
			...scenarioIntentReferenceProblems({ manifest, files: files.files, demo: demo.demo })
		);
	if (!manifest || !files.files || problems.length > 0) return { bundle: null, problems };
	return { bundle: { manifest, files: files.files, demo: demo.demo }, problems };
}

/** The intents `steps:` names that `.orchestration/active_intents.yaml` does not hold. */
export function stepIntentProblems(
	manifest: ScenarioManifest,
	files: Readonly<Record<string, ScenarioFile>>
): ReturnType<typeof unknownStepIntents> {
	if (!manifest.steps) return [];
	const intents = files[activeIntentsPath];
	const text = intents ? scenarioFileText(intents) : null;
	const parsed = text === null ? null : parseIntents(text);
	// An unreadable intents file is reported on its own; naming every step's intents is noise.
	if (!parsed?.ok) return [];
	return unknownStepIntents(
		manifest.steps,
		new Set(parsed.document.intents.map((intent) => intent.id))
	);
}

/**
 * The starting workspace: canonical, safe paths; known encodings; size limits; a valid intents
 * file; `.intentignore` naming only intents that exist.
 */
export function checkScenarioFiles(value: unknown): {
	files: Record<string, ScenarioFile> | null;
	problems: ScenarioProblem[];
} {
	if (!isPlainObject(value)) {
		return {
			files: null,
			problems: [
				{
					file: filesFolderName,
					message: `files must map workspace paths to { encoding, content } (got ${kindOf(value)})`
				}
			]
		};
	}
	const paths = Object.keys(value);
	if (paths.length > scenarioLimits.maximumFiles) {
		return {
			files: null,
			problems: [
				{
					file: filesFolderName,
					message: `the scenario has ${paths.length} files; at most ${scenarioLimits.maximumFiles} are allowed`,
					exceedsLimit: true
				}
			]
		};
	}

	const problems: ScenarioProblem[] = [];
	const checked = new Map<string, ScenarioFile>();
	let totalBytes = 0;
	for (const path of paths.sort()) {
		const pathProblem = checkPath(path);
		if (pathProblem) {
			problems.push({ file: filesFolderName, message: pathProblem });
			continue;
		}
		const file = checkFile(value[path]);
		if (typeof file === 'string') {
			problems.push({ file: `${filesFolderName}/${path}`, message: file });
			continue;
		}
		totalBytes += scenarioFileByteLength(file);
		checked.set(path, file);
	}
	if (totalBytes > scenarioLimits.maximumTotalBytes) {
		problems.push({
			file: filesFolderName,
			message: `the files add up to ${megabytes(totalBytes)}; at most ${megabytes(scenarioLimits.maximumTotalBytes)} are allowed`,
			exceedsLimit: true
		});
	}
	problems.push(...folderFileClashes([...checked.keys()]));
	problems.push(...checkGovernanceFiles(checked));
	if (problems.length > 0) return { files: null, problems };
	// Sorted insertion keeps the JSON of a bundle the same for the same files.
	// fromEntries defines own properties: a "__proto__" path stays a file name, not a prototype.
	return { files: Object.fromEntries(checked), problems };
}

export function checkScenarioDemo(value: unknown): {
	demo: string | null;
	problems: ScenarioProblem[];
} {
	if (value === null) return { demo: null, problems: [] };
	if (typeof value !== 'string') {
		return {
			demo: null,
			problems: [
				{
					file: demoFileName,
					message: `demo must be the script's YAML text or null (got ${kindOf(value)})`
				}
			]
		};
	}
	if (value.length > scenarioLimits.maximumDemoLength) {
		return {
			demo: null,
			problems: [
				{
					file: demoFileName,
					message: `the demo script is ${megabytes(value.length)}; at most ${megabytes(scenarioLimits.maximumDemoLength)} is allowed`,
					exceedsLimit: true
				}
			]
		};
	}
	const problems = checkDemoScript(value).map((error) => ({ file: demoFileName, ...error }));
	return { demo: problems.length ? null : value, problems };
}

function checkPath(path: string): string | null {
	if (path.length > scenarioLimits.maximumPathLength) {
		return `a path of ${path.length} characters ("${path.slice(0, 60)}…"); at most ${scenarioLimits.maximumPathLength} are allowed`;
	}
	const normalized = normalizeWorkspacePath(path);
	if (!normalized.ok) return normalized.reason;
	if (normalized.path !== path) {
		return `${JSON.stringify(path)} is not written the canonical way; use ${JSON.stringify(normalized.path)}`;
	}
	// A .git folder carries hooks and config that git would run or obey in the sandbox; a folded
	// spelling (`.GIT`, `.gıt`) is the same folder on a case-insensitive disk.
	if (governancePathKind(path) === 'git') {
		return `${JSON.stringify(path)}: a scenario may not ship a .git folder`;
	}
	return null;
}

function checkFile(value: unknown): ScenarioFile | string {
	if (!isPlainObject(value)) return `must be { encoding, content } (got ${kindOf(value)})`;
	const { encoding, content } = value;
	if (encoding !== 'utf8' && encoding !== 'base64') {
		return `encoding must be utf8 or base64 (got ${JSON.stringify(encoding) ?? 'nothing'})`;
	}
	if (typeof content !== 'string') return `content must be a string (got ${kindOf(content)})`;
	if (encoding === 'base64' && !isValidBase64(content)) return 'content is not valid base64';
	return { encoding, content };
}

/** `src` as a file and `src/a.ts` as a file cannot both exist in one workspace. */
function folderFileClashes(paths: string[]): ScenarioProblem[] {
	const files = new Set(paths);
	const problems: ScenarioProblem[] = [];
	for (const path of paths) {
		const segments = path.split('/');
		for (let length = 1; length < segments.length; length++) {
			const ancestor = segments.slice(0, length).join('/');
			if (files.has(ancestor)) {
				problems.push({
					file: `${filesFolderName}/${ancestor}`,
					message: `is a file, but ${path} needs it to be a folder`
				});
				break;
			}
		}
	}
	return problems;
}

function checkGovernanceFiles(files: Map<string, ScenarioFile>): ScenarioProblem[] {
	const intentsFile = `${filesFolderName}/${activeIntentsPath}`;
	const intents = files.get(activeIntentsPath);
	if (!intents) {
		return [
			{
				file: filesFolderName,
				message: `${activeIntentsPath} is missing: every scenario needs the intents an agent can check out`
			}
		];
	}
	const intentsText = scenarioFileText(intents);
	if (intentsText === null) return [{ file: intentsFile, message: 'is not a text file' }];
	const parsed = parseIntents(intentsText);
	if (!parsed.ok) {
		return parsed.errors.map((error) => ({
			file: intentsFile,
			line: error.line,
			column: error.column,
			message: error.message
		}));
	}
	const policyProblems = checkHookPolicy(files);
	const ignore = files.get(intentIgnorePath);
	if (!ignore) return policyProblems;
	const ignoreText = scenarioFileText(ignore);
	const ignoreFile = `${filesFolderName}/${intentIgnorePath}`;
	if (ignoreText === null)
		return [...policyProblems, { file: ignoreFile, message: 'is not a text file' }];
	const known = new Set(parsed.document.intents.map((intent) => intent.id));
	const problems: ScenarioProblem[] = [...policyProblems];
	// Read line by line (not with parseIntentIgnore) to say where each unknown id is.
	ignoreText
		.replace(/^\ufeff/, '')
		.split(/\r\n|\r|\n/)
		.forEach((line, index) => {
			const hash = line.indexOf('#');
			const content = hash === -1 ? line : line.slice(0, hash);
			const id = content.trim();
			if (id === '' || known.has(id)) return;
			problems.push({
				file: ignoreFile,
				line: index + 1,
				column: content.indexOf(id) + 1,
				message: `lists "${id}", which is not an intent in ${activeIntentsPath} (known: ${[...known].join(', ') || 'none'}); a misspelled id protects nothing`
			});
		});
	return problems;
}

/** A scenario's `.orchestration/hooks.yaml` must parse: a broken one would block every agent write. */
function checkHookPolicy(files: Map<string, ScenarioFile>): ScenarioProblem[] {
	const policy = files.get(hookPolicyPath);
	if (!policy) return [];
	const file = `${filesFolderName}/${hookPolicyPath}`;
	const text = scenarioFileText(policy);
	if (text === null) return [{ file, message: 'is not a text file' }];
	const parsed = parseHookPolicy(text);
	if (parsed.ok) return [];
	return parsed.errors.map((error) => ({
		file,
		line: error.line,
		column: error.column,
		message: error.message
	}));
}

function limitProblems(problems: ScenarioProblem[]): ScenarioProblem[] {
	if (problems.length <= maximumReportedProblems) return problems;
	return [
		...problems.slice(0, maximumReportedProblems),
		{ file: 'bundle', message: `… and ${problems.length - maximumReportedProblems} more problems` }
	];
}

function megabytes(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'nothing';
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : typeof value;
}
